/**
 * The storefront side of bench/bot.ts: the real bot in storefront mode (VTU_BOT_MODE=storefront, bot/storefront/),
 * customers with funded wallets buying data from them, the ledger on SQLite (a file) or on Postgres (a private
 * cluster started here from the OS packages, as the storefront tests start it; fsync off: a database that lives
 * for one run). Three parts: a fresh store database per measured run (bench process), the bot built from it with
 * every buyer's wallet funded (bot child), and the checks against the ledger after the run (bench process).
 */
import path from 'node:path';
import { sql } from 'kysely';
import type { VtuClient } from '../client';
import { openStoreDb, type OpenedDb } from '../store/db';
import { audit, walletId } from '../store/ledger';

export type StoreBackend = 'sqlite' | 'postgres';
/** Where the run's store lives: a SQLite path or a postgres:// URL. */
export type StoreTarget = { backend: StoreBackend; at: string };

/** Each buyer's wallet before the run, kobo: far more than 21 data bundles at the markup. */
const FUNDING_KOBO = 1_000_000_00;

type PgServer = { host: string; port: number; user: string; stop(): Promise<void> };
let pg: Promise<{ server: PgServer; admin: OpenedDb }> | undefined;
let fresh = 0;

/** A new, empty store database for one measured run (Postgres: started on first use, one database per run). */
export async function freshStore(backend: StoreBackend, dir: string): Promise<StoreTarget> {
	fresh++;
	if (backend === 'sqlite') return { backend, at: path.join(dir, `store${fresh}.sqlite`) };
	pg ??= (async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { startPostgres } = require('../test/n8n/queue') as { startPostgres: () => Promise<PgServer> };
		const server = await startPostgres();
		const admin = await openStoreDb({
			databaseUrl: `postgres://${server.user}@${server.host}:${server.port}/postgres`,
		});
		return { server, admin };
	})();
	const { server, admin } = await pg;
	const name = `bench_${process.pid}_${fresh}`;
	await sql.raw(`create database ${name}`).execute(admin.db);
	return { backend, at: `postgres://${server.user}@${server.host}:${server.port}/${name}` };
}

/** Stops the Postgres cluster if one was started. */
export async function stopStores(): Promise<void> {
	if (!pg) return;
	const { server, admin } = await pg;
	await admin.close();
	await server.stop();
}

const open = (t: StoreTarget) => openStoreDb(t.backend === 'postgres' ? { databaseUrl: t.at } : { sqlitePath: t.at });

/**
 * The store side the bot child hands to createBot, as bot/main.ts opens it (StoreSide.open), every buyer a
 * customer with a funded wallet (not measured). The payment provider is never called: nobody funds during
 * the run.
 */
export async function openStoreSide(
	target: StoreTarget,
	client: VtuClient,
	buyers: number[],
	logger: import('../bot/logger').Logger,
) {
	const { StoreSide } = await import('../bot/storefront/service');
	const cfg = {
		provider: 'paystack' as const,
		paystack: { secretKey: 'sk_test_bench_never_called_0123456789', baseUrl: 'http://127.0.0.1:9' },
		markupPercent: '5',
		markupKobo: 0,
		lowFloatKobo: 0,
		...(target.backend === 'postgres' ? { databaseUrl: target.at } : {}),
		dbPath: target.at,
		webhookPort: 0,
		emailDomain: 'bench.example',
		summaryHour: 8,
	};
	const store = await StoreSide.open(cfg, client, [], logger);
	let next = 0;
	const lane = async () => {
		for (let i = next++; i < buyers.length; i = next++) {
			const id = String(buyers[i]);
			await store.books.createCustomer(id);
			await store.books.adjust(id, FUNDING_KOBO, 'bench funding', `bench-fund-${id}`);
		}
	};
	await Promise.all(Array.from({ length: 8 }, lane));
	return store;
}

/** What the ledger says of the run's buyers: the money checks of a storefront run. */
export type StoreCheck = { settled: number; oneHoldEach: boolean; settles: number; voids: number; problems: string[] };

/**
 * After the run: each buyer's order settled, exactly one hold (the debit of their wallet) per buyer, settled
 * once and never voided, and store's audit() clean (balances = the sum of their transfers, every hold resolved
 * once, nothing overspent).
 */
export async function checkStore(target: StoreTarget, buyers: number[]): Promise<StoreCheck> {
	const opened = await open(target);
	try {
		const db = opened.db;
		const ids = buyers.map(String);
		const wallets = ids.map(walletId);
		const orders = await db.selectFrom('orders').select(['customer_id', 'state']).execute();
		const mine = new Set(ids);
		const settled = orders.filter((o) => mine.has(o.customer_id) && o.state === 'settled').length;
		const moved = await db
			.selectFrom('transfers')
			.select(['debit_account', 'kind', 'reason'])
			.where('debit_account', 'in', wallets)
			.execute();
		const holds = new Map<string, number>();
		for (const m of moved) if (m.kind === 'pending') holds.set(m.debit_account, (holds.get(m.debit_account) ?? 0) + 1);
		return {
			settled,
			oneHoldEach: wallets.every((w) => holds.get(w) === 1),
			settles: moved.filter((m) => m.kind === 'post_pending').length,
			voids: moved.filter((m) => m.kind === 'void_pending').length,
			problems: (await audit(db)).problems,
		};
	} finally {
		await opened.close();
	}
}
