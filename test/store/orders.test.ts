/** Buying from the wallet against the merchant sandbox over HTTP, with the ledger on SQLite and Postgres. */
import { VtuInvalidInputError } from '../../client/errors';
import { audit, Books, OWNER } from '../../store/ledger';
import { Storefront } from '../../store/orders';
import type { OpenedDb } from '../../store/db';
import { startEnv, type Env } from '../client/helpers';
import { backendNames, startBackend, type Backend } from './backends';

const DATA = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08161234567' };
// tests that reconcile buy for a recipient of their own: earlier tests' records of DATA lie inside their window
let phones = 0;
const ownData = () => ({ ...DATA, phone: `0816${String(++phones + 5_000_000).padStart(7, '0')}` });

describe.each(backendNames())('storefront orders on %s', (name) => {
	let backend: Backend;
	let env: Env;
	const opened: OpenedDb[] = [];
	beforeAll(async () => {
		backend = await startBackend(name);
		env = await startEnv('family', {
			timeoutMs: 5000,
			reconcile: { waitMs: 0, pollMs: 50, maxProcessingMs: 0 } /* the sandbox records before it answers */,
		});
	});
	afterAll(async () => {
		for (const o of opened) await o.close();
		await env?.close();
		await backend?.stop();
	});
	beforeEach(() => env.admin.clearFaults());
	// a processing bound that covers a busy machine (with 0, a record made a few ms after the send is outside it)
	const patient = () => env.make({ reconcile: { maxProcessingMs: 60_000 } });

	async function shop(funded = 500_000, opts: Partial<ConstructorParameters<typeof Storefront>[0]> = {}) {
		const o = await (await backend.fresh()).open();
		opened.push(o);
		const books = new Books(o.db);
		await books.init();
		await books.createCustomer('c1');
		if (funded)
			await books.recordPayment({
				provider: 'paystack',
				reference: `fund-${Math.random()}`,
				customerId: 'c1',
				amount: funded,
				fee: 0,
			});
		return { books, store: new Storefront({ books, client: env.client, pricing: { markupPercent: 5 }, ...opts }) };
	}

	async function balanced(books: Books) {
		const r = await audit(books.db);
		expect(r.problems).toEqual([]);
		return r;
	}

	test('success: the customer pays cost + markup, the vendor cost is what the vendor debited', async () => {
		const { books, store } = await shop();
		const before = await env.admin.balanceKobo('demo');
		const out = await store.placeOrder('c1', 'o-ok', DATA);
		expect(out.state).toBe('settled');
		const cost = before - (await env.admin.balanceKobo('demo'));
		expect(out.result!.amount.kobo).toBe(cost);
		expect(out.price).toBe(store.priceFor(cost));
		expect(out.price).toBeGreaterThan(cost);
		expect(await books.walletBalance('c1')).toEqual({
			balance: 500_000 - out.price,
			held: 0,
			available: 500_000 - out.price,
		});
		const vc = await books.db
			.selectFrom('accounts')
			.selectAll()
			.where('id', '=', OWNER.vendorCost)
			.executeTakeFirstOrThrow();
		expect(vc.debits_posted).toBe(cost);
		const r = await balanced(books);
		expect(r.spent).toBe(out.price);
	});

	test('proven not charged (500 before the debit): the hold is released, nothing spent', async () => {
		const { books, store } = await shop();
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		const out = await store.placeOrder('c1', 'o-nc', DATA);
		expect(out.state).toBe('released');
		expect(out.error?.code).toBe('not_charged');
		expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
		await balanced(books);
	});

	test('the vendor refuses the purchase (4xx): released at once, once; a refused reconcile proves nothing', async () => {
		const { books, store } = await shop(500_000, { client: patient() });
		const before = await env.admin.balanceKobo('demo');
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'refuse_field', field: 'mobile_number', count: 1 });
		const out = await store.placeOrder('c1', 'o-refused', ownData());
		expect(out).toMatchObject({ state: 'released', error: { code: 'invalid_input', field: 'phone' } });
		expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
		expect(await env.admin.balanceKobo('demo')).toBe(before);
		expect((await store.follow('o-refused')).state).toBe('released'); // followed again: nothing moves
		const moves = await books.db.selectFrom('transfers').select('id').where('reference', '=', 'o-refused').execute();
		expect(moves.map((m) => m.id).sort()).toEqual(['hold:o-refused', 'release:o-refused']);

		// following an unclear order whose reconcile is refused (invalid_input) keeps it held: not proof
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
		const unclear = await store.placeOrder('c1', 'o-unclear', ownData());
		expect(unclear.state).toBe('unknown');
		await env.admin.removeFault(readFault.id);
		const refusing = {
			reconcile: async () => {
				throw new VtuInvalidInputError('refused', { field: 'phone' });
			},
		};
		const follower = new Storefront({ books, client: env.client, followClient: refusing as never });
		expect((await follower.follow('o-unclear')).state).toBe('unknown');
		expect((await books.walletBalance('c1')).held).toBe(unclear.price);
		expect((await store.follow('o-unclear')).state).toBe('settled');
		await balanced(books);
	});

	test('unknown outcome stays held; followed later it settles once', async () => {
		const DATA = ownData();
		const { books, store } = await shop(500_000, { client: patient() });
		// the purchase is made but its answer is lost, and the history cannot be read back: nothing is proven
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
		const out = await store.placeOrder('c1', 'o-unk', DATA);
		expect(out.state).toBe('unknown');
		expect(out.error?.code).toBe('unknown_outcome');
		expect(await books.walletBalance('c1')).toEqual({
			balance: 500_000,
			held: out.price,
			available: 500_000 - out.price,
		});
		expect((await store.follow('o-unk')).state).toBe('unknown'); // still unreadable: still held
		await env.admin.removeFault(readFault.id);
		const followed = await store.follow('o-unk');
		expect(followed.state).toBe('settled');
		expect((await store.follow('o-unk')).state).toBe('settled');
		expect(await books.walletBalance('c1')).toEqual({
			balance: 500_000 - out.price,
			held: 0,
			available: 500_000 - out.price,
		});
		await balanced(books);
	});

	test('following an unknown order never skips its record because another product has the same id', async () => {
		const DATA = ownData();
		const { books, store } = await shop(500_000, { client: patient() });
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
		const out = await store.placeOrder('c1', 'o-xprod', DATA);
		expect(out.state).toBe('unknown');
		await env.admin.removeFault(readFault.id);
		const record = (await env.admin.transactions({ product: 'data' })).at(-1)!;
		// an earlier airtime order of the shop owns airtime record #<same number>: vendor ids are per product
		await books.createCustomer('c2');
		await books.db
			.insertInto('orders')
			.values({
				id: 'o-air-old',
				customer_id: 'c2',
				request: JSON.stringify({ product: 'airtime', network: 'MTN', amount: '100', phone: '08030000000' }),
				price: 10_000,
				cost: 9_800,
				sent_at: new Date().toISOString(),
				vendor_product: 'airtime',
				vendor_id: record.id,
				state: 'settled',
				created_at: new Date().toISOString(),
			})
			.execute();
		const followed = await store.follow('o-xprod');
		expect(followed.state).toBe('settled');
		expect(followed.result?.id).toBe(record.id);
		await balanced(books);
	});

	test('a lone record is never adopted by an order while an identical order of the shop is open', async () => {
		const DATA = ownData();
		// a wide processing bound: the other order's record lies inside the first order's window
		const client = patient();
		const { books, store } = await shop(500_000, { client });
		await books.createCustomer('c2');
		await books.recordPayment({
			provider: 'paystack',
			reference: `f2-${Math.random()}`,
			customerId: 'c2',
			amount: 500_000,
			fee: 0,
		});
		// c1's order was held and written, then its instance died before sending it (nothing bought)
		const price = store.priceFor((await client.quote(DATA)).amount.kobo);
		await books.hold('c1', 'o-crashed', price);
		const at = new Date().toISOString();
		await books.db
			.insertInto('orders')
			.values({
				id: 'o-crashed',
				customer_id: 'c1',
				request: JSON.stringify(DATA),
				price,
				cost: 0,
				sent_at: at,
				vendor_product: null,
				vendor_id: null,
				state: 'held',
				created_at: at,
			})
			.execute();
		// c2 orders the very same thing; it is bought, but its answer is lost and the history unreadable
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
		expect((await store.placeOrder('c2', 'o-other', DATA)).state).toBe('unknown');
		await env.admin.removeFault(readFault.id);
		// the one matching record could be either order's: c1 is never charged for c2's purchase
		const followed = await store.follow('o-crashed');
		expect(followed.state).toBe('unknown');
		expect(await books.orderState('o-crashed')).toBe('held');
		expect(
			(await books.db.selectFrom('orders').select('vendor_id').where('id', '=', 'o-crashed').executeTakeFirstOrThrow())
				.vendor_id,
		).toBeNull();
		await balanced(books);
	});

	test(
		'followClient: buying never adopts a lone record (shared token); following with the shop-wide ' + 'evidence does',
		async () => {
			const DATA = ownData();
			const shared = env.make({ reconcile: { sharedAccount: true, maxProcessingMs: 60_000 } });
			const { books, store } = await shop(500_000, { client: shared, followClient: patient() });
			await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
			const out = await store.placeOrder('c1', 'o-fc', DATA);
			expect(out.state).toBe('unknown');
			const record = (await env.admin.transactions({ product: 'data' })).at(-1)!;
			// the same store without a followClient cannot tell (the token is shared): still held
			const blind = new Storefront({ books, client: shared });
			expect((await blind.follow('o-fc')).state).toBe('unknown');
			const followed = await store.follow('o-fc');
			expect(followed).toMatchObject({ state: 'settled', result: { id: record.id } });
			await balanced(books);
		},
	);

	test(
		"two phones, one record: the same customer's identical unknown orders are interchangeable, one " + 'takes it',
		async () => {
			const DATA = ownData();
			const client = patient();
			const { books, store } = await shop(500_000, { client });
			await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
			const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
			const a = await store.placeOrder('c1', 'o-ph-a', DATA);
			// the other phone's identical order failed before the vendor with an answer that proves nothing yet
			await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
			const b = await store.placeOrder('c1', 'o-ph-b', DATA);
			expect([a.state, b.state]).toEqual(['unknown', 'unknown']);
			await env.admin.removeFault(readFault.id);
			const record = (await env.admin.transactions({ product: 'data' })).at(-1)!;
			const [fa, fb] = await Promise.all([store.follow('o-ph-a'), store.follow('o-ph-b')]);
			const states = [fa.state, fb.state].sort();
			expect(states).toEqual(['settled', 'unknown']); // one owns the record; the other stays held, never both
			const owners = await books.db.selectFrom('orders').select('id').where('vendor_id', '=', record.id).execute();
			expect(owners).toHaveLength(1);
			expect(await books.walletBalance('c1')).toEqual({
				balance: 500_000 - a.price,
				held: b.price,
				available: 500_000 - a.price - b.price,
			});
			await balanced(books);
		},
	);

	test('two phones, two records, both answers lost: each order takes one record, the customer pays twice', async () => {
		const DATA = ownData();
		const { books, store } = await shop(500_000, { client: patient(), followClient: patient() });
		const readFault = await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before' });
		const outs = [];
		for (const id of ['o-2r-a', 'o-2r-b']) {
			await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
			outs.push(await store.placeOrder('c1', id, DATA));
		}
		expect(outs.map((o) => o.state)).toEqual(['unknown', 'unknown']);
		await env.admin.removeFault(readFault.id);
		// at once, as two instances' followers would: one may lose the race for a record and take the other later
		for (let round = 0; round < 3; round++) await Promise.all(['o-2r-a', 'o-2r-b'].map((id) => store.follow(id)));
		const rows = await books.db
			.selectFrom('orders')
			.select(['id', 'vendor_id', 'state'])
			.where('id', 'like', 'o-2r-%')
			.execute();
		expect(rows.map((r) => r.state)).toEqual(['settled', 'settled']);
		const records = (await env.admin.transactions({ product: 'data' })).slice(-2).map((t) => t.id);
		expect(rows.map((r) => r.vendor_id).sort()).toEqual(records.sort());
		expect(await books.walletBalance('c1')).toEqual({
			balance: 500_000 - 2 * outs[0].price,
			held: 0,
			available: 500_000 - 2 * outs[0].price,
		});
		await balanced(books);
	});

	test('two orders cannot own one vendor record (the database refuses the second link)', async () => {
		const { books, store } = await shop();
		const out = await store.placeOrder('c1', 'o-own', DATA);
		expect(out.state).toBe('settled');
		const at = new Date().toISOString();
		const row = {
			customer_id: 'c1',
			request: JSON.stringify(DATA),
			price: 1,
			cost: 1,
			sent_at: at,
			state: 'settled',
			created_at: at,
		};
		// not `.rejects.toThrow()`: better-sqlite3's error class belongs to the jest realm that loaded it first,
		// so in another test file of the same worker it is no `Error` here and toThrow reports "did not throw"
		const second = await books.db
			.insertInto('orders')
			.values({ ...row, id: 'o-dup', vendor_product: 'data', vendor_id: out.result!.id })
			.execute()
			.then(
				() => 'written',
				(e: { code?: string }) => e.code,
			);
		expect(second).toMatch(/^(SQLITE_CONSTRAINT_UNIQUE|23505)$/);
	});

	test('an order id already taken: a clear invalid_input, nothing held, nothing bought', async () => {
		const { books, store } = await shop();
		const at = new Date().toISOString();
		await books.createCustomer('c2');
		await books.db
			.insertInto('orders')
			.values({
				id: 'o-taken',
				customer_id: 'c2',
				request: '{}',
				price: 1,
				cost: 1,
				sent_at: at,
				vendor_product: null,
				vendor_id: null,
				state: 'released',
				created_at: at,
			})
			.execute();
		const records = (await env.admin.transactions()).length;
		await expect(store.placeOrder('c1', 'o-taken', DATA)).rejects.toMatchObject({ code: 'invalid_input' });
		expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
		expect(await books.orderState('o-taken')).toBe('none');
		expect((await env.admin.transactions()).length).toBe(records);
		await balanced(books);
	});

	test(
		'bought after its hold was released (a follower raced a slow purchase): the owner is alerted, ' +
			'nothing booked silently',
		async () => {
			const alerts: string[] = [];
			const { books, store } = await shop(500_000, { alertOwner: (t) => alerts.push(t) });
			await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'latency', latencyMs: 400, count: 1 });
			const placing = store.placeOrder('c1', 'o-raced', ownData());
			// while the purchase is on the wire, its hold is released (as a follower that took it for crashed would)
			while ((await books.orderState('o-raced')) !== 'held') await new Promise((r) => setImmediate(r));
			expect(await books.release('o-raced')).toBe(true);
			const out = await placing;
			expect(out.state).toBe('released');
			expect(out.result?.status).toBe('successful');
			expect(alerts).toHaveLength(1);
			expect(alerts[0]).toMatch(/o-raced was released while its purchase was still running/);
			expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
			const row = await books.db
				.selectFrom('orders')
				.select('state')
				.where('id', '=', 'o-raced')
				.executeTakeFirstOrThrow();
			expect(row.state).toBe('released');
			await balanced(books);
		},
	);

	test('a settled order that fails later is refunded exactly once', async () => {
		const { books, store } = await shop();
		const out = await store.placeOrder('c1', 'o-flip', DATA);
		expect(out.state).toBe('settled');
		await env.admin.setStatus('data', out.result!.id!, 'failed');
		expect((await store.follow('o-flip')).state).toBe('refunded');
		expect((await store.follow('o-flip')).state).toBe('refunded');
		expect(await books.refund('o-flip')).toBe(false);
		expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
		const r = await balanced(books);
		expect(r).toMatchObject({ spent: out.price, refunded: out.price });
	});

	test('two phones at once: one customer can never overspend', async () => {
		const { books, store } = await shop(0);
		const cost = (await env.client.quote(DATA)).amount.kobo;
		const price = store.priceFor(cost);
		await books.recordPayment({
			provider: 'monnify',
			reference: 'F',
			customerId: 'c1',
			amount: price * 2 + price / 2,
			fee: 0,
		});
		const outs = await Promise.all(
			Array.from({ length: 6 }, (_, i) =>
				store.placeOrder('c1', `o-par-${i}`, DATA).then(
					(o) => o.state,
					(e) => e.code,
				),
			),
		);
		expect(outs.filter((s) => s === 'settled')).toHaveLength(2);
		expect(outs.filter((s) => s === 'insufficient_balance')).toHaveLength(4);
		const w = await books.walletBalance('c1');
		expect(w.available).toBeGreaterThanOrEqual(0);
		await balanced(books);
	});

	test('float guard: an order the vendor wallet cannot cover is refused before holding; one alert', async () => {
		const alerts: string[] = [];
		const poor = await env.admin.createUser({ username: `poor${Date.now()}`, balance: '10.00' });
		const client = env.make({ token: poor.token });
		const { books, store } = await shop(500_000, { client, alertOwner: (t) => alerts.push(t), lowFloatKobo: 100_000 });
		for (const id of ['o-f1', 'o-f2']) {
			await expect(store.placeOrder('c1', id, DATA)).rejects.toMatchObject({ code: 'insufficient_balance' });
			expect(await books.orderState(id)).toBe('none');
		}
		expect(alerts).toHaveLength(1);
		expect(await books.walletBalance('c1')).toEqual({ balance: 500_000, held: 0, available: 500_000 });
		await balanced(books);
	});

	test('low float across two instances on one database: one alert per crossing, again only after recovery', async () => {
		const poor = await env.admin.createUser({ username: `low${Date.now()}`, balance: '10.00' });
		const shared = await backend.fresh();
		const alerts: string[] = [];
		const fronts: { books: Books; store: Storefront }[] = [];
		for (let k = 0; k < 2; k++) {
			const o = await shared.open();
			opened.push(o);
			const books = new Books(o.db);
			await books.init();
			const client = env.make({ token: poor.token });
			const alertOwner = (t: string) => alerts.push(`i${k}: ${t}`);
			fronts.push({ books, store: new Storefront({ books, client, lowFloatKobo: 100_000, alertOwner }) });
		}
		const { books } = fronts[0];
		await books.createCustomer('c1');
		await books.recordPayment({
			provider: 'paystack',
			reference: 'fund-low',
			customerId: 'c1',
			amount: 500_000,
			fee: 0,
		});
		const refused = (k: number, id: string) =>
			expect(fronts[k].store.placeOrder('c1', id, DATA)).rejects.toMatchObject({ code: 'insufficient_balance' });
		// both instances see the low wallet at the same moment, several times: the owner hears it once
		await Promise.all([0, 1, 0, 1, 0, 1].map((k, n) => refused(k, `o-low${n}`)));
		expect(alerts).toHaveLength(1);
		// funded to cover one order and stay above the threshold: that order re-arms the alert
		const cost = (await env.make({ token: poor.token }).quote(DATA)).amount.kobo;
		const topUp = 100_000 + cost - (await env.admin.balanceKobo(poor.username)) + 1;
		await env.admin.fund(poor.username, (topUp / 100).toFixed(2));
		expect((await fronts[1].store.placeOrder('c1', 'o-ok1', DATA)).state).toBe('settled');
		expect(alerts).toHaveLength(1);
		// the next order crosses again (float - cost < threshold): one more alert, from either instance
		await Promise.all([0, 1].map((k) => fronts[k].store.placeOrder('c1', `o-next${k}`, DATA).catch(() => null)));
		expect(alerts).toHaveLength(2);
		const row = await books.db.selectFrom('store_alerts').selectAll().where('key', '=', 'low_float').executeTakeFirst();
		expect(Number(row?.armed)).toBe(0);
		await balanced(books);
	});
});
