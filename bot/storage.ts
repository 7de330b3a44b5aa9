/**
 * A grammY StorageAdapter over better-sqlite3 (there is no official SQLite adapter).
 * Used for conversation state so a restarted bot resumes half-finished conversations.
 */
import type { StorageAdapter } from 'grammy';
import type { ConversationData, VersionedState } from '@grammyjs/conversations';
import type { DB } from './db';

/** Where the conversations plugin keeps each chat's conversation state (SQLite here, Redis in redis.ts). */
export interface ConversationStorageAdapter {
	read(
		key: string,
	): Promise<VersionedState<ConversationData> | undefined> | VersionedState<ConversationData> | undefined;
	write(key: string, state: VersionedState<ConversationData>): Promise<void> | void;
	delete(key: string): Promise<void> | void;
}

export class SqliteStorage<T> implements StorageAdapter<T> {
	private readonly stmts;

	constructor(
		db: DB,
		private readonly prefix = '',
	) {
		this.stmts = {
			read: db.prepare(`SELECT value FROM kv WHERE key = ?`),
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
		const row = this.stmts.read.get(this.prefix + key) as { value: string } | undefined;
		return row ? (JSON.parse(row.value) as T) : undefined;
	}

	write(key: string, value: T): void {
		this.stmts.write.run(this.prefix + key, JSON.stringify(value), Date.now());
	}

	delete(key: string): void {
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
