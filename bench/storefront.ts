/**
 * Storefront benchmark (run first by `npm run bench:bot`; alone: `npx tsx bench/storefront.ts [--orders 400]
 * [--concurrency 16] [--customers 50] [--backend both|sqlite|postgres]`).
 *
 * Funded customers buy airtime from their wallets through store's Storefront (price, float guard, hold,
 * client.buy against the merchant sandbox in a child process, settle), `--concurrency` orders at a time,
 * with the ledger on SQLite (a file) and on Postgres (a private cluster started here from the OS packages).
 * Prints orders per second and p50/p99 per order, and the ledger's own share: the same number of
 * hold + settle movements with no vendor call. Checks: every order settled, the vendor's ledger shows one
 * debit per order, store's audit() is clean.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { VtuClient } from '../client';
import { SandboxAdmin } from '../sandbox/admin-client';
import { openStoreDb, type OpenedDb } from '../store/db';
import { audit, Books } from '../store/ledger';
import { Storefront } from '../store/orders';

const REPO = path.resolve(__dirname, '..');

interface Figures {
	backend: string;
	orders: number;
	perSecond: number;
	p50: number;
	p99: number;
	ledgerPerSecond: number;
	ledgerP99: number;
	problems: string[];
}

const pct = (xs: number[], p: number) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

async function timed(n: number, width: number, f: (i: number) => Promise<void>) {
	const lat: number[] = [];
	let next = 0;
	const t0 = performance.now();
	const lane = async () => {
		for (let i = next++; i < n; i = next++) {
			const s = performance.now();
			await f(i);
			lat.push(performance.now() - s);
		}
	};
	await Promise.all(Array.from({ length: Math.min(width, n) }, lane));
	const wall = performance.now() - t0;
	return { perSecond: (n / wall) * 1000, p50: pct(lat, 50), p99: pct(lat, 99) };
}

/** The merchant sandbox in a child process (a real vendor is another machine). */
async function vendorChild(): Promise<{ proc: ChildProcess; baseUrl: string; token: string; adminKey: string }> {
	const proc = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', '--port', '0', '--dialect', 'family'], {
		cwd: REPO,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const env: Record<string, string> = {};
	await new Promise<void>((resolve, reject) => {
		proc.once('exit', (c) => reject(new Error(`sandbox exited (${c})`)));
		createInterface({ input: proc.stdout! }).on('line', (l) => {
			const m = /^(VTU_[A-Z_]+)=(.*)$/.exec(l);
			if (m) env[m[1]] = m[2];
			if (env.VTU_BASE_URL && env.VTU_API_TOKEN && env.VTU_ADMIN_KEY) resolve();
		});
	});
	return { proc, baseUrl: env.VTU_BASE_URL, token: env.VTU_API_TOKEN, adminKey: env.VTU_ADMIN_KEY };
}

async function openBackend(name: string, dir: string): Promise<{ db: OpenedDb; stop(): Promise<void> }> {
	if (name === 'sqlite') {
		const db = await openStoreDb({ sqlitePath: path.join(dir, 'bench.sqlite') });
		return { db, stop: () => db.close() };
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { startPostgres } = require('../test/n8n/queue') as {
		startPostgres: () => Promise<{ host: string; port: number; user: string; stop(): Promise<void> }>;
	};
	const pg = await startPostgres();
	const db = await openStoreDb({ databaseUrl: `postgres://${pg.user}@${pg.host}:${pg.port}/postgres` });
	return {
		db,
		async stop() {
			await db.close();
			await pg.stop();
		},
	};
}

async function benchOne(
	name: string,
	o: { orders: number; concurrency: number; customers: number },
	vendor: { baseUrl: string; token: string; admin: SandboxAdmin },
): Promise<Figures> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-bench-store-'));
	const { db, stop } = await openBackend(name, dir);
	try {
		const books = new Books(db.db);
		await books.init();
		for (let c = 0; c < o.customers; c++) {
			await books.createCustomer(`b${c}`);
			await books.recordPayment({
				provider: 'paystack',
				reference: `bench-${c}`,
				customerId: `b${c}`,
				amount: 1e9,
				fee: 0,
			});
		}
		const client = new VtuClient({ baseUrl: vendor.baseUrl, token: vendor.token, timeoutMs: 30_000 });
		const store = new Storefront({ books, client, pricing: { markupPercent: 5 } });
		const before = (await vendor.admin.ledger('demo')).filter((e) => e.kind === 'debit').length;
		const req = (i: number) => ({
			product: 'airtime' as const,
			network: 'MTN',
			amount: '100',
			phone: `0803${String(i).padStart(7, '0')}`,
		});
		const problems: string[] = [];
		await store.placeOrder('b0', `${name}-warm`, req(9_999_999)); // catalog and connections warm
		const buy = await timed(o.orders, o.concurrency, async (i) => {
			const out = await store.placeOrder(`b${i % o.customers}`, `${name}-o${i}`, req(i));
			if (out.state !== 'settled') problems.push(`order ${i}: ${out.state}`);
		});
		const debits = (await vendor.admin.ledger('demo')).filter((e) => e.kind === 'debit').length - before;
		if (debits !== o.orders + 1) problems.push(`vendor ledger: ${debits} debits for ${o.orders + 1} orders`);
		// the ledger's own cost: the same movements with no vendor in between
		const ledger = await timed(o.orders, o.concurrency, async (i) => {
			await books.hold(`b${i % o.customers}`, `${name}-l${i}`, 10_500);
			await books.settle(`${name}-l${i}`, 10_000);
		});
		problems.push(...(await audit(db.db)).problems);
		return {
			backend: name,
			orders: o.orders,
			...buy,
			ledgerPerSecond: ledger.perSecond,
			ledgerP99: ledger.p99,
			problems,
		};
	} finally {
		await stop();
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			orders: { type: 'string', default: '400' },
			concurrency: { type: 'string', default: '16' },
			customers: { type: 'string', default: '50' },
			backend: { type: 'string', default: 'both' },
		},
	});
	const o = {
		orders: Number(values.orders),
		concurrency: Number(values.concurrency),
		customers: Number(values.customers),
	};
	for (const [k, v] of Object.entries(o))
		if (!Number.isInteger(v) || v < 1) throw new Error(`--${k} must be a whole number ≥ 1, got ${v}`);
	const backends = values.backend === 'both' ? ['sqlite', 'postgres'] : [values.backend!];
	if (!backends.every((b) => b === 'sqlite' || b === 'postgres'))
		throw new Error(`--backend must be both, sqlite or postgres, got ${values.backend}`);
	const v = await vendorChild();
	const figures: Figures[] = [];
	try {
		const admin = new SandboxAdmin(v.baseUrl, v.adminKey);
		await admin.fund('demo', '100000000.00');
		for (const b of backends) figures.push(await benchOne(b, o, { baseUrl: v.baseUrl, token: v.token, admin }));
	} finally {
		v.proc.kill('SIGTERM');
	}
	const ms = (x: number) => `${x.toFixed(1)} ms`;
	console.log(`storefront bench: ${o.orders} airtime orders from ${o.customers} wallets, ${o.concurrency} at a time`);
	for (const f of figures) {
		console.log(
			`  ${f.backend.padEnd(8)} ${f.perSecond.toFixed(1)} orders/s  p50 ${ms(f.p50)}  p99 ${ms(f.p99)}` +
				`   ledger alone (hold + settle): ${f.ledgerPerSecond.toFixed(1)}/s  p99 ${ms(f.ledgerP99)}`,
		);
		for (const p of f.problems.slice(0, 10)) console.log(`    problem: ${p}`);
	}
	const pass = figures.every((f) => f.problems.length === 0);
	console.log(pass ? 'storefront bench: PASS' : 'storefront bench: FAIL');
	process.exitCode = pass ? 0 : 1;
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});
