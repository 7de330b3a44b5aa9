/** The safe-purchase mechanism under sandbox faults, in both dialects. */
import { VtuError, type PurchaseResult } from '../../client';
import { DIALECTS, rawBuy, startEnv, type Env } from './helpers';

const BUY = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08161234567' };

describe.each(DIALECTS)('safe purchase (%s dialect)', (dialect) => {
	let env: Env;
	beforeAll(async () => {
		// Timeouts long enough for a saturated machine to answer a normal
		// request; a held one (timeout_after) never answers anyway.
		env = await startEnv(dialect, { timeoutMs: 3000, reconcile: { waitMs: 1000, pollMs: 100 } });
	});
	afterAll(() => env.close());
	beforeEach(async () => {
		await env.admin.clearFaults();
		env.counting.reset();
	});
	const debits = async () => (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit');

	test('timeout after the debit → reconciled, charged once', async () => {
		const before = (await debits()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		const r = await env.client.buy(BUY);
		expect(r.path).toBe('reconciled');
		expect(r.status).toBe('successful');
		const d = await debits();
		expect(d.length).toBe(before + 1);
		expect(d[d.length - 1].txnId).toBe(r.id);
		expect(env.counting.posts()).toHaveLength(1);
		expect(env.counting.requests.some((q) => q.method === 'GET' && q.url.endsWith('/api/data/'))).toBe(true);
	});

	test('connection reset after the debit → reconciled', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
		const r = await env.client.buy({ product: 'airtime', network: 'MTN', amount: 100, phone: '08161234567' });
		expect(r.path).toBe('reconciled');
		expect(r.amount.naira).toBe('98.00');
		expect(env.counting.posts()).toHaveLength(1);
	});

	test('HTML 500 after the debit → reconciled (cable, matched on IUC + package)', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/cablesub/', kind: 'html_after', count: 1 });
		const r = await env.client.buy({ product: 'cable', provider: 'DSTV', package: 6, iuc: '7023456789' });
		expect(r).toMatchObject({ path: 'reconciled', recipient: '7023456789', details: { package: 6 } });
	});

	test('500 before the debit → not_charged (nothing debited, one POST)', async () => {
		const before = (await debits()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		const e = await env.client.buy(BUY).catch((x) => x);
		expect(e).toBeInstanceOf(VtuError);
		expect(e.code).toBe('not_charged');
		expect(e.message).toMatch(/safe to buy again/);
		expect((await debits()).length).toBe(before);
		expect(env.counting.posts()).toHaveLength(1);
	});

	test('500 before the debit with retryIfNotCharged → one safe re-send, path retried', async () => {
		const before = (await debits()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		const r = await env.client.buy(BUY, { retryIfNotCharged: true });
		expect(r.path).toBe('retried');
		expect((await debits()).length).toBe(before + 1);
		expect(env.counting.posts()).toHaveLength(2);
	});

	test('429 → retried after Retry-After, charged once', async () => {
		const before = (await debits()).length;
		await env.admin.addFault({ endpoint: 'POST /api/epin/', kind: 'rate_limit', count: 1, retryAfterSeconds: 1 });
		const t0 = Date.now();
		const r = await env.make({ timeoutMs: 5000 }).buy({ product: 'exam_pin', exam: 'WAEC', quantity: 1 });
		expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
		expect(r.status).toBe('successful');
		expect(env.counting.posts()).toHaveLength(2);
		expect((await debits()).length).toBe(before + 1);
	});

	test('429 with a Retry-After beyond maxDelayMs → rate_limited, not retried', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/epin/', kind: 'rate_limit', count: 1, retryAfterSeconds: 30 });
		const e = await env.client.buy({ product: 'exam_pin', exam: 'WAEC', quantity: 1 }).catch((x) => x);
		expect(e.code).toBe('rate_limited');
		expect(e.retryAfter).toBe(30);
		expect(env.counting.posts()).toHaveLength(1);
	});

	test('connection refused → retried (never sent), then network error', async () => {
		const c = env.make({ baseUrl: 'http://127.0.0.1:1', retry: { maxAttempts: 2, maxDelayMs: 50 } });
		const e = await c.user.get().catch((x) => x);
		expect(e.code).toBe('network');
		expect(e.mayHaveReachedServer).toBe(false);
		expect(env.counting.requests.filter((q) => q.url.startsWith('http://127.0.0.1:1/'))).toHaveLength(2);
	});

	test(
		'several matching records bought elsewhere → unknown_outcome with candidates; claimed records ' + 'are skipped',
		async () => {
			const req = { product: 'data' as const, network: 'GLO', plan: 16, phone: '08151234567' };
			const sentAt = new Date(Date.now() - 1000);
			// bought by "another process": raw POSTs this process never saw
			const a = await rawBuy(env.client, env.sb.demo.token, req);
			const b = await rawBuy(env.client, env.sb.demo.token, req);
			// a bound that covers both raw purchases whatever the machine's load (with the harness's 1 s, a slow second
			// POST falls outside the window and the first one is adopted alone)
			const fresh = env.make({ reconcile: { waitMs: 0, maxProcessingMs: 60_000 } });
			const e = await fresh.reconcile(req, { sentAt }).catch((x) => x);
			expect(e.code).toBe('unknown_outcome');
			expect(e.candidates.map((x: { id: number }) => x.id).sort()).toEqual([a, b].sort());
			const r = await fresh.reconcile(req, { sentAt, claimed: [{ id: a }] });
			expect(r).toMatchObject({ id: b, path: 'reconciled' });
			// an adopted record is claimed for the whole process: no client of this account adopts it again
			await expect(env.make().reconcile(req, { sentAt, excludeIds: [a], waitMs: 0 })).rejects.toMatchObject({
				code: 'not_charged',
			});
		},
	);

	test('a record of this client is never adopted by its own reconcile', async () => {
		const req = { product: 'data' as const, network: 'AIRTEL', plan: 26, phone: '08121234567' };
		const sentAt = new Date(Date.now() - 1000);
		await env.client.buy(req);
		await expect(env.client.reconcile(req, { sentAt, waitMs: 0 })).rejects.toMatchObject({ code: 'not_charged' });
	});

	test('bulk SMS timeout → reconciled from the history', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/sendsms/', kind: 'timeout_after', count: 1 });
		const [r] = await env.client.sms.send({
			sender: 'Chaos',
			message: 'reconcile me',
			recipients: '08031234567,08051234567',
		});
		expect(r).toMatchObject({ path: 'reconciled', product: 'sms', details: { sender: 'Chaos' } });
		expect(r.ident).toEqual(expect.any(String));
	});

	test('recharge (no detail route, no recipient search) → reconciled from list pages', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/rechargepin/', kind: 'timeout_after', count: 1 });
		const r = await env.client.buy({
			product: 'recharge_card',
			network: 'GLO',
			denomination: 6,
			quantity: 2,
			nameOnCard: 'Chaos',
		});
		expect(r.path).toBe('reconciled');
		expect(r.details.cards).toHaveLength(2);
	});

	test('concurrent identical purchases with one timing out: no double adoption', async () => {
		const req = { product: 'data' as const, network: '9MOBILE', plan: 18, phone: '08091234567' };
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		const c = env.make({ timeoutMs: 3000, reconcile: { waitMs: 2000, pollMs: 100 } });
		const results = await Promise.allSettled([c.buy(req), c.buy(req), c.buy(req)]);
		// The sandbox recorded all three; the two whose answer arrived are adopted directly.
		const records = (await env.admin.transactions({ username: 'demo', product: 'data' })).filter(
			(t) => t.recipient === req.phone,
		);
		expect(records).toHaveLength(3);
		const ok = results
			.filter((x) => x.status === 'fulfilled')
			.map((x) => (x as PromiseFulfilledResult<PurchaseResult>).value);
		expect(ok.filter((r) => r.path === 'direct')).toHaveLength(2);
		// The timed-out one either adopts the one record nobody else owns, or says it cannot tell.
		const rejected = results
			.filter((x) => x.status === 'rejected')
			.map((x) => (x as PromiseRejectedResult).reason.code);
		expect(rejected.every((code) => code === 'unknown_outcome')).toBe(true);
		const ids = ok.map((r) => r.id);
		expect(new Set(ids).size).toBe(ids.length);
		for (const id of ids) expect(records.map((t) => t.id)).toContain(id);
	});
});
