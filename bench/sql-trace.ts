/**
 * bench:bot diagnostic (BENCH_SQL=1): how many SQLite statements and commits each update costs,
 * and which. Wraps one better-sqlite3 connection before the bot prepares its statements; the
 * update being handled is followed with AsyncLocalStorage, so concurrent updates are told apart.
 * A commit = a write statement outside a transaction (autocommit) or an outermost db.transaction.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DB } from '../bot/db';

/**
 * Statement counts of one update, keyed by a short form of the SQL; `total`, `commits`, `bytes` (size of the written
 * values) and `µs` (CPU time inside them) too.
 */
export type SqlCounts = Record<string, number>;

const label = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 70);

export function traceSql(db: DB) {
	const als = new AsyncLocalStorage<SqlCounts>();
	const add = (key: string, n = 1) => {
		const c = als.getStore();
		if (c) c[key] = (c[key] ?? 0) + n;
	};
	const prepare = db.prepare.bind(db);
	db.prepare = ((sql: string) => {
		const st = prepare(sql);
		const name = label(sql);
		for (const m of ['run', 'get', 'all', 'iterate'] as const) {
			const orig = (st[m] as (...a: unknown[]) => unknown).bind(st);
			(st as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
				add(name);
				add('total');
				if (!st.readonly && !db.inTransaction) add('commits');
				if (!st.readonly) add('bytes', JSON.stringify(a).length);
				const t0 = process.cpuUsage();
				try {
					return orig(...a);
				} finally {
					const t = process.cpuUsage(t0);
					add('µs', t.user + t.system);
				}
			};
		}
		return st;
	}) as DB['prepare'];
	const transaction = db.transaction.bind(db);
	db.transaction = ((fn: (...a: unknown[]) => unknown) => {
		const tx = transaction(fn);
		const counted =
			(run: (...a: unknown[]) => unknown) =>
			(...a: unknown[]) => {
				if (!db.inTransaction) add('commits');
				return run(...a);
			};
		return Object.assign(counted(tx), {
			deferred: counted(tx.deferred),
			immediate: counted(tx.immediate),
			exclusive: counted(tx.exclusive),
		});
	}) as DB['transaction'];
	return {
		/** Run one update's handling with its own counts. */
		run: <T>(fn: () => Promise<T>) => {
			const counts: SqlCounts = {};
			return { counts, done: als.run(counts, fn) };
		},
	};
}

/** Mean per update of each step: statements, commits, time in SQLite, then each statement. */
export function sqlReport(perStep: Map<string, SqlCounts[]>): string {
	const lines: string[] = [];
	for (const [step, list] of perStep) {
		const sum: SqlCounts = {};
		for (const c of list) for (const [k, v] of Object.entries(c)) sum[k] = (sum[k] ?? 0) + v;
		const mean = (k: string) => ((sum[k] ?? 0) / list.length).toFixed(1);
		const stmts = Object.keys(sum)
			.filter((k) => !['total', 'commits', 'bytes', 'µs'].includes(k))
			.sort((a, b) => sum[b] - sum[a])
			.map((k) => `      ${mean(k)} × ${k}`);
		lines.push(
			`    ${step} (n=${list.length}): ${mean('total')} statements, ${mean('commits')} commits (${mean('bytes')} bytes ` +
				`written), ${mean('µs')} µs CPU in SQLite`,
			...stmts,
		);
	}
	return lines.join('\n');
}
