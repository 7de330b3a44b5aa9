/**
 * Postgres picks a deadlock victim when two transactions lock the same rows in opposite orders (two
 * instances moving money at once); retryOnDeadlock runs the rolled-back one again. A real deadlock on a
 * real cluster, not a simulated error.
 */
import { sql } from 'kysely';
import { Books, retryOnDeadlock } from '../../store/ledger';
import { backendNames, startBackend, type Backend } from './backends';

const run = backendNames().includes('postgres') ? describe : describe.skip;

run('retryOnDeadlock on Postgres', () => {
	let backend: Backend;
	beforeAll(async () => {
		backend = await startBackend('postgres');
	});
	afterAll(async () => {
		await backend?.stop();
	});

	test('the deadlock victim is run again and both transactions complete', async () => {
		const f = await backend.fresh();
		const [a, b] = [await f.open(), await f.open()];
		try {
			const books = new Books(a.db);
			await books.init();
			let attempts = 0;
			let bothLocked!: () => void;
			const firstLocks = new Promise<void>((r) => (bothLocked = r));
			let locked = 0;
			const tx = (db: typeof a.db, first: string, second: string) =>
				retryOnDeadlock(() =>
					db.transaction().execute(async (t) => {
						attempts++;
						await sql`update accounts set created_at = created_at where id = ${first}`.execute(t);
						// the first round waits until both hold their first row: then each wants the other's
						if (++locked === 2) bothLocked();
						if (locked <= 2) await firstLocks;
						await sql`update accounts set created_at = created_at where id = ${second}`.execute(t);
					}),
				);
			await Promise.all([tx(a.db, 'owner:fees', 'owner:sales'), tx(b.db, 'owner:sales', 'owner:fees')]);
			expect(attempts).toBe(3); // two first tries, one of them the victim, run once more
		} finally {
			await a.close();
			await b.close();
		}
	});
});
