/**
 * Storefront orders cut off by a crash, against the merchant sandbox over HTTP, on SQLite and Postgres:
 * the order row holds its customer_ref before the vendor POST, so the follower resolves a killed
 * instance's order to its own record by it; and an order whose record was linked before the crash is
 * settled with that record, never "proven" not charged by a reconcile that skips it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { AccountRegistry, type PurchaseRequest, type VtuClient } from '../../client';
import type { OpenedDb } from '../../store/db';
import { audit, Books } from '../../store/ledger';
import { Storefront } from '../../store/orders';
import { rawBuy, startEnv, type Env } from '../client/helpers';
import { backendNames, startBackend, type Backend } from './backends';
import { until } from '../until';

let phones = 0;
const ownData = (): PurchaseRequest & { phone: string } => ({
	product: 'data' as const,
	network: 'MTN',
	plan: 3,
	phone: `0816${String(++phones + 7_000_000).padStart(7, '0')}`,
});

describe.each(backendNames())('storefront orders cut off by a crash on %s', (name) => {
	let backend: Backend;
	let env: Env;
	const opened: OpenedDb[] = [];
	beforeAll(async () => {
		backend = await startBackend(name);
		env = await startEnv('family', { timeoutMs: 5000, reconcile: { waitMs: 0, pollMs: 50, maxProcessingMs: 0 } });
	});
	afterAll(async () => {
		for (const o of opened) await o.close();
		await env?.close();
		await backend?.stop();
	});
	beforeEach(() => env.admin.clearFaults());

	/** A fresh shop database with a funded customer `c1` (and `c2`). */
	async function shop() {
		const fresh = await backend.fresh();
		const o = await fresh.open();
		opened.push(o);
		const books = new Books(o.db);
		await books.init();
		for (const c of ['c1', 'c2']) {
			await books.createCustomer(c);
			await books.recordPayment({ provider: 'paystack', reference: `f-${c}`, customerId: c, amount: 500_000, fee: 0 });
		}
		return { books, target: fresh.target };
	}

	/** A client of another process (its own memory of the account). */
	const otherProcess = (o: { shared: boolean; maxProcessingMs: number }): VtuClient =>
		env.make({
			accounts: new AccountRegistry(),
			reconcile: { sharedAccount: o.shared, maxProcessingMs: o.maxProcessingMs, waitMs: 0 },
		});

	test(
		'killed mid-purchase: the row holds the customer_ref before the POST; follow adopts its own ' + 'record by it',
		async () => {
			await env.admin.setConfig({ customer_ref: true });
			try {
				const { books, target } = await shop();
				const req = ownData();
				// the vendor debits and records the purchase, then never answers: the instance waits inside its POST
				await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
				const args = [target.databaseUrl ?? target.sqlitePath!, env.sb.baseUrl, 'c1', 'o-killed', JSON.stringify(req)];
				const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'order-child.ts'), ...args], {
					env: { ...process.env, VTU_API_TOKEN: env.sb.demo.token },
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				const exited = new Promise<void>((r) => child.on('exit', () => r()));
				let own: { id: number; customerRef: string | null } | undefined;
				await until(async () => {
					const txns = await env.admin.transactions({ product: 'data' });
					own = txns.find((x) => x.recipient === req.phone && x.customerRef);
					return own !== undefined;
				}, 'the POST to reach the vendor');
				// the reference is on the order row while the POST is still unanswered, so the crash cannot lose it
				const row = await books.db
					.selectFrom('orders')
					.selectAll()
					.where('id', '=', 'o-killed')
					.executeTakeFirstOrThrow();
				expect(row).toMatchObject({ state: 'held', customer_ref: own!.customerRef, vendor_id: null });
				child.kill('SIGKILL');
				await exited;

				// another buyer of the token buys the identical bundle meanwhile (no reference): a twin in the window
				const twin = await rawBuy(env.client, env.sb.demo.token, req);
				const follower = otherProcess({ shared: true, maxProcessingMs: 60_000 });
				// without the reference the follower could not tell the two apart
				const blind = await follower.reconcile(req, { sentAt: new Date(row.sent_at!), waitMs: 0 }).catch((e) => e);
				expect(blind.code).toBe('unknown_outcome');
				expect((blind.candidates as { id: number }[]).map((c) => c.id).sort()).toEqual([own!.id, twin].sort());

				const store = new Storefront({ books, client: follower, pricing: { markupPercent: 5 }, customerRef: true });
				const out = await store.follow('o-killed');
				expect(out).toMatchObject({ state: 'settled', result: { id: own!.id } });
				expect(await books.orderState('o-killed')).toBe('settled');
				expect((await audit(books.db)).problems).toEqual([]);
			} finally {
				await env.admin.setConfig({ customer_ref: false });
			}
		},
		60_000,
	);

	test('a record linked before the crash settles its order, even where following other orders claimed it', async () => {
		const { books } = await shop();
		// the crashed instance bought A's record and linked it to A's row, then died before booking the sale
		const reqA = ownData();
		const sentAt = new Date().toISOString();
		const record = await rawBuy(env.client, env.sb.demo.token, reqA);
		const row = { request: JSON.stringify(reqA), price: 130_000, cost: 0, sent_at: sentAt, created_at: sentAt };
		await books.hold('c1', 'o-linked', row.price);
		await books.db
			.insertInto('orders')
			.values({ ...row, id: 'o-linked', customer_id: 'c1', vendor_product: 'data', vendor_id: record, state: 'held' })
			.execute();
		// B: another crashed order, never sent (no record)
		await books.hold('c2', 'o-unsent', row.price);
		const reqB = JSON.stringify(ownData());
		await books.db
			.insertInto('orders')
			.values({
				...row,
				id: 'o-unsent',
				customer_id: 'c2',
				request: reqB,
				vendor_product: null,
				vendor_id: null,
				state: 'held',
			})
			.execute();

		// the follower (the shop's only buyer; bound passed) takes B first: its evidence names every other
		// order's record, A's included, and this process now holds A's record as claimed
		const follower = otherProcess({ shared: false, maxProcessingMs: 0 });
		const store = new Storefront({ books, client: follower, followClient: follower, pricing: { markupPercent: 5 } });
		expect((await store.follow('o-unsent')).state).toBe('released');
		// A is settled with its linked record, not "proven" not charged by a reconcile that skips it
		const out = await store.follow('o-linked');
		expect(out).toMatchObject({ state: 'settled', result: { id: record } });
		expect(await books.orderState('o-linked')).toBe('settled');
		expect((await audit(books.db)).problems).toEqual([]);
	});

	test('"not charged" from a reconcile never releases an order that another instance linked meanwhile', async () => {
		const { books } = await shop();
		const req = ownData();
		const at = new Date().toISOString();
		const row = { request: JSON.stringify(req), price: 130_000, cost: 0, sent_at: at, created_at: at };
		await books.hold('c1', 'o-race', row.price);
		await books.db
			.insertInto('orders')
			.values({ ...row, id: 'o-race', customer_id: 'c1', vendor_product: null, vendor_id: null, state: 'held' })
			.execute();
		const real = otherProcess({ shared: false, maxProcessingMs: 0 });
		let record = 0;
		// the follower's reconcile reads an account without the record and answers not_charged; before that
		// answer is acted on, the order's own instance (alive after all) buys and links its record
		const racing = Object.assign(Object.create(real) as VtuClient, {
			reconcile: async (r: PurchaseRequest, o: Parameters<VtuClient['reconcile']>[1]) => {
				try {
					return await real.reconcile(r, o);
				} finally {
					record = await rawBuy(env.client, env.sb.demo.token, req);
					await books.db
						.updateTable('orders')
						.set({ vendor_product: 'data', vendor_id: record })
						.where('id', '=', 'o-race')
						.execute();
				}
			},
		});
		const store = new Storefront({ books, client: racing, followClient: racing, pricing: { markupPercent: 5 } });
		const out = await store.follow('o-race');
		expect(out).toMatchObject({ state: 'settled', result: { id: record } });
		expect(await books.orderState('o-race')).toBe('settled');
		expect((await audit(books.db)).problems).toEqual([]);
	});
});
