/**
 * A grammY StorageAdapter over better-sqlite3 (there is no official SQLite adapter).
 * Used for conversation state so a restarted bot resumes half-finished conversations.
 *
 * A write of the value just read is skipped (the conversations plugin writes the state back
 * whenever it was looked at, e.g. by a command typed mid-flow), but only while SQLite's
 * `data_version` says no other connection (another instance on the same file) has committed
 * since that read: then the file still holds exactly that value. (Writes on the same connection
 * do not change data_version, so every adapter on a connection shares one record of reads, and
 * keys an adapter reads are written on that connection only through an adapter.)
 */
import type { StorageAdapter } from 'grammy';
import type { DB } from './db';

/** Per connection and full key: the JSON read last and the data_version then; dropped by any write or delete. */
const readsOf = new WeakMap<DB, Map<string, { json: string; version: number }>>();

export class SqliteStorage<T> implements StorageAdapter<T> {
  private readonly stmts;
  private readonly lastRead: Map<string, { json: string; version: number }>;

  constructor(
    db: DB,
    private readonly prefix = '',
  ) {
    if (!readsOf.has(db)) readsOf.set(db, new Map());
    this.lastRead = readsOf.get(db)!;
    this.stmts = {
      read: db.prepare(`SELECT value, (SELECT data_version FROM pragma_data_version) AS version FROM kv WHERE key = ?`),
      version: db.prepare(`SELECT data_version AS version FROM pragma_data_version`),
      write: db.prepare(
        `INSERT INTO kv (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      delete: db.prepare(`DELETE FROM kv WHERE key = ?`),
      has: db.prepare(`SELECT 1 FROM kv WHERE key = ?`),
      keys: db.prepare(`SELECT key FROM kv WHERE key >= ? AND key < ? ORDER BY key`),
    };
  }

  read(key: string): T | undefined {
    const k = this.prefix + key;
    const row = this.stmts.read.get(k) as { value: string; version: number } | undefined;
    if (!row) return void this.lastRead.delete(k);
    this.lastRead.set(k, { json: row.value, version: row.version });
    return JSON.parse(row.value) as T;
  }

  write(key: string, value: T): void {
    const k = this.prefix + key;
    const json = JSON.stringify(value);
    const last = this.lastRead.get(k);
    this.lastRead.delete(k);
    if (last?.json === json && (this.stmts.version.get() as { version: number }).version === last.version) return;
    this.stmts.write.run(k, json, Date.now());
  }

  delete(key: string): void {
    this.lastRead.delete(this.prefix + key);
    this.stmts.delete.run(this.prefix + key);
  }

  has(key: string): boolean {
    return !!this.stmts.has.get(this.prefix + key);
  }

  *readAllKeys(): Generator<string> {
    const end = this.prefix + '\uffff';
    for (const r of this.stmts.keys.all(this.prefix, end) as { key: string }[]) yield r.key.slice(this.prefix.length);
  }
}
