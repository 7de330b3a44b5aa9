/**
 * The store keeps its statements prepared (store/db.ts: SQLite keeps each text's statement, Postgres gets
 * named statements). What must hold: the same query keeps answering, and a newer instance adding a column
 * (a rolling upgrade) breaks no query of an instance still running, `select *` included.
 */
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { Books } from '../../store/ledger';
import { backendNames, startBackend, type Backend } from './backends';

describe.each(backendNames())('prepared statements on %s', (name) => {
	let backend: Backend;
	beforeAll(async () => {
		backend = await startBackend(name);
	});
	afterAll(async () => {
		await backend?.stop();
	});

	test('a column added by another instance: every query of this one still answers, select * with it', async () => {
		const f = await backend.fresh();
		const running = await f.open();
		try {
			const books = new Books(running.db);
			await books.init();
			await books.createCustomer('u1', 'Ada');
			const byId = () => running.db.selectFrom('customers').selectAll().where('id', '=', 'u1').executeTakeFirst();
			const nameOf = () => running.db.selectFrom('customers').select('name').where('id', '=', 'u1').executeTakeFirst();
			for (let i = 0; i < 3; i++) {
				expect(await byId()).toMatchObject({ id: 'u1', name: 'Ada' });
				expect(await nameOf()).toEqual({ name: 'Ada' });
			}

			await addColumnFromAnotherInstance(f.target);

			expect(await byId()).toMatchObject({ id: 'u1', name: 'Ada', nickname: 'A' });
			expect(await nameOf()).toEqual({ name: 'Ada' });
			await books.createCustomer('u2', 'Bola');
			expect(await running.db.selectFrom('customers').select('id').orderBy('id').execute()).toEqual([
				{ id: 'u1' },
				{ id: 'u2' },
			]);
		} finally {
			await running.close();
		}
	});

	if (name === 'postgres')
		test('a query with parameters is prepared once per connection, by name', async () => {
			const f = await backend.fresh();
			const db = await f.open();
			try {
				await new Books(db.db).init();
				const prepared = await db.db.transaction().execute(async (t) => {
					for (let i = 0; i < 3; i++)
						await t.selectFrom('customers').select('name').where('id', '=', `c${i}`).execute();
					const r = await sql<{ statement: string }>`select statement from pg_prepared_statements
            where name like 'vtu_%'`.execute(t);
					return r.rows.map((row) => row.statement).filter((s) => s.startsWith('select "name" from "customers"'));
				});
				expect(prepared).toHaveLength(1);
			} finally {
				await db.close();
			}
		});
});

/** A newer instance's migration: `alter table` over its own connection, then a write that uses the column. */
async function addColumnFromAnotherInstance(target: { sqlitePath?: string; databaseUrl?: string }) {
	if (target.sqlitePath) {
		const other = new Database(target.sqlitePath);
		other.exec(`alter table customers add column nickname text; update customers set nickname = 'A'`);
		other.close();
		return;
	}
	const { default: pg } = await import('pg');
	const other = new pg.Client({ connectionString: target.databaseUrl });
	await other.connect();
	await other.query(`alter table customers add column nickname text`);
	await other.query(`update customers set nickname = 'A'`);
	await other.end();
}
