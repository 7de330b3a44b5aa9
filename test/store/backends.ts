/**
 * The two storage backends every storefront test runs against: SQLite (a temp file, so two connections
 * act like two bot instances on one machine) and Postgres (a private cluster started here, as the
 * queue-mode test does). Postgres is skipped, loudly, only when no postgres binary exists.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStoreDb, type OpenedDb, type OpenOptions } from '../../store/db';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startPostgres } = require('../n8n/queue') as {
	startPostgres: () => Promise<{ host: string; port: number; user: string; stop(): Promise<void> }>;
};

export function postgresAvailable(): boolean {
	if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'postgres'))) return true;
	const root = '/usr/lib/postgresql';
	if (fs.existsSync(root) && fs.readdirSync(root).some((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres'))))
		return true;
	return (process.env.PATH ?? '').split(':').some((d) => d && fs.existsSync(path.join(d, 'postgres')));
}

export interface Backend {
	name: 'sqlite' | 'postgres';
	/** a fresh, empty database; `open()` may be called again for a second "instance" on the same one */
	fresh(): Promise<{ open(): Promise<OpenedDb>; target: OpenOptions }>;
	stop(): Promise<void>;
}

let counter = 0;

export async function sqliteBackend(): Promise<Backend> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-store-'));
	return {
		name: 'sqlite',
		async fresh() {
			const target = { sqlitePath: path.join(dir, `db${++counter}.sqlite`) };
			return { open: () => openStoreDb(target), target };
		},
		async stop() {
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

export async function postgresBackend(): Promise<Backend> {
	const pg = await startPostgres();
	const admin = await openStoreDb({ databaseUrl: `postgres://${pg.user}@${pg.host}:${pg.port}/postgres` });
	return {
		name: 'postgres',
		async fresh() {
			const name = `store_${process.pid}_${++counter}`;
			const { sql } = await import('kysely');
			await sql.raw(`create database ${name}`).execute(admin.db);
			const target = { databaseUrl: `postgres://${pg.user}@${pg.host}:${pg.port}/${name}` };
			return { open: () => openStoreDb(target), target };
		},
		async stop() {
			await admin.close();
			await pg.stop();
		},
	};
}

/** The backends to run: SQLite always, Postgres when installed (else a clear skip message). */
export function backendNames(): ('sqlite' | 'postgres')[] {
	if (postgresAvailable()) return ['sqlite', 'postgres'];
	console.warn(
		'storefront tests: no postgres binary found (PG_BIN, /usr/lib/postgresql/*/bin, PATH): the Postgres suite is SKIPPED',
	);
	return ['sqlite'];
}

export const startBackend = (name: 'sqlite' | 'postgres') => (name === 'sqlite' ? sqliteBackend() : postgresBackend());
