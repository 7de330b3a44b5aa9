/**
 * Group commit for the journal: make committed rows survive a power loss without blocking the event loop.
 *
 * The journal commits with synchronous=NORMAL (db.ts): in WAL mode a commit is written to the `-wal` file but
 * reaches the disk only at the next checkpoint. A purchase must not go out before its `sent` row is on disk,
 * so the POST waits for `durable()`: an fsync of that file on libuv's thread pool (fsync acts on the file, so
 * a descriptor of our own flushes what SQLite wrote through its own). A sync covers every commit made before
 * it starts; callers that arrive while one runs share the next, so purchases confirmed together pay for one
 * fsync, and the bot keeps answering other users while the disk works. (Before: synchronous=FULL on the
 * created → sent commit, one fsync per purchase on the event loop, 4–5 ms each on a busy disk.)
 */
import { open } from 'node:fs/promises';
import type { DB } from './db';

/** Flush one file to disk (replaceable in tests to watch the order of events). */
export type SyncFile = (path: string) => Promise<void>;

export const fsyncFile: SyncFile = async (path) => {
	// r+: Windows needs write access to flush; on Linux any descriptor of the file will do
	const fh = await open(path, 'r+');
	try {
		await fh.sync();
	} finally {
		await fh.close();
	}
};

/**
 * The file a commit of `db` lands in: the WAL in WAL mode, else the database itself (a rollback journal
 * writes the pages in place before it commits). None for an in-memory database.
 */
export function commitFile(db: DB): string | null {
	if (db.memory) return null;
	const mode = String(db.pragma('journal_mode', { simple: true })).toLowerCase();
	return mode === 'wal' ? `${db.name}-wal` : db.name;
}

export class GroupSync {
	private running: Promise<void> | null = null;
	private next: Promise<void> | null = null;

	constructor(
		private readonly file: string | null,
		private readonly sync: SyncFile = fsyncFile,
	) {}

	/** Resolves once everything committed before this call is on disk. */
	durable(): Promise<void> {
		if (this.file === null) return Promise.resolve();
		if (this.next) return this.next;
		if (!this.running) return this.start(this.file);
		// the sync under way may have begun before our commit: wait for one that starts after it
		const file = this.file;
		this.next = this.running
			.catch(() => undefined)
			.then(() => {
				this.next = null;
				return this.start(file);
			});
		return this.next;
	}

	private start(file: string): Promise<void> {
		const p: Promise<void> = this.sync(file).finally(() => {
			if (this.running === p) this.running = null;
		});
		this.running = p;
		return p;
	}
}
