/**
 * One owner per record (client/API.md "Who owns a record"), against the real sandbox over HTTP.
 * "Another process" is a raw POST this process never saw (rawBuy); "another n8n execution" is a second
 * VtuClient of the same account in this process. Faults are per request (X-Sandbox-Fault), so two
 * concurrent purchases never catch each other's fault.
 */
import {
	AccountRegistry,
	VtuClient,
	clearCatalogCache,
	createNodeTransport,
	type Transport,
	type VtuClientOptions,
} from '../../client';
import { rawBuy, startEnv, type Env } from './helpers';

/** A transport that adds fixed headers to POSTs (a per-request fault, an attribution tag). */
function withPostHeaders(headers: Record<string, string>): Transport {
	const inner = createNodeTransport();
	return (req) => inner(req.method === 'POST' ? { ...req, headers: { ...req.headers, ...headers } } : req);
}

let env: Env;
beforeAll(async () => {
	env = await startEnv('seed');
	await env.admin.setConfig({ request_faults: true });
});
afterAll(() => env.close());
beforeEach(() => env.admin.setConfig({ customer_ref: false }));

const client = (post: Record<string, string>, o: Partial<VtuClientOptions> = {}) =>
	new VtuClient({
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		transport: withPostHeaders(post),
		timeoutMs: 5_000,
		// the sandbox creates a record inside the POST: 1 s bounds its processing (maxProcessingMs)
		reconcile: { waitMs: 2_500, pollMs: 100, maxProcessingMs: 1_000 },
		...o,
	});
const debits = async () => (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit').length;
const byTag = async (tag: string) =>
	(await env.admin.transactions({ username: 'demo' })).filter((t) => t.tag === tag).map((t) => t.id);

test(
	'two executions in one process: X gets a 500 before any charge while Y buys the same → X ' +
		"not_charged, never Y's record",
	async () => {
		const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110006' };
		const before = await debits();
		const y = client({ 'x-sandbox-fault': 'latency:300', 'x-sandbox-tag': 'Y' }).buy(req);
		const x = client({ 'x-sandbox-fault': 'error_before', 'x-sandbox-tag': 'X' })
			.buy(req)
			.catch((e) => e);
		const [ry, ex] = await Promise.all([y, x]);
		expect(ry.path).toBe('direct');
		expect(ex.code).toBe('not_charged');
		expect(await debits()).toBe(before + 1);
	},
);

test(
	'declared single buyer (sharedAccount: false): 500 after the debit, one candidate → reconciled ' +
		'to its own record',
	async () => {
		const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110007' };
		const r = await client(
			{ 'x-sandbox-fault': 'html_after', 'x-sandbox-tag': 'solo' },
			{ reconcile: { waitMs: 2_500, pollMs: 100, sharedAccount: false } },
		).buy(req);
		expect(r.path).toBe('reconciled');
		expect(await byTag('solo')).toEqual([r.id]);
	},
);

test(
	'shared account (the default): a lone record another process may have bought → unknown_outcome ' +
		'with it, never adopted',
	async () => {
		const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110008' };
		const other = await rawBuy(env.client, env.sb.demo.token, req);
		const e = await client({ 'x-sandbox-fault': 'error_before' }, { reconcile: { waitMs: 300, pollMs: 100 } })
			.buy(req)
			.catch((x) => x);
		expect(e.code).toBe('unknown_outcome');
		expect(e.message).toMatch(/sharedAccount/);
		expect(e.candidates.map((c: { id: number }) => c.id)).toEqual([other]);
	},
);

test(
	'identical exam pins (no recipient): the real record is among the candidates when older ' + 'identical ones exist',
	async () => {
		const req = { product: 'exam_pin' as const, exam: 'NECO', quantity: 2 };
		await rawBuy(env.client, env.sb.demo.token, req);
		await rawBuy(env.client, env.sb.demo.token, req);
		// the POST answers after the client's timeout; the record appears while reconcile re-reads
		const e = await client({ 'x-sandbox-fault': 'latency:900', 'x-sandbox-tag': 'late-pin' }, { timeoutMs: 300 })
			.buy(req)
			.catch((x) => x);
		const mine = await byTag('late-pin');
		expect(mine).toHaveLength(1);
		expect(e.code).toBe('unknown_outcome');
		expect(e.candidates.map((c: { id: number }) => c.id)).toContain(mine[0]);
	},
);

test(
	'after a restart, a claimed record teaches the server clock: an identical older record falls ' + 'outside the window',
	async () => {
		const req = { product: 'exam_pin' as const, exam: 'NABTEB', quantity: 3 };
		await rawBuy(env.client, env.sb.demo.token, req);
		const oldAt = Date.now();
		// another order's record with the time its POST was sent, as a journal keeps it
		const clockSentAt = Date.now();
		const clockRec = await env.client.transactions.get(
			'exam_pin',
			await rawBuy(env.client, env.sb.demo.token, { product: 'exam_pin', exam: 'WAEC', quantity: 1 }),
		);
		// the scenario needs the old record a few seconds before the next send (a clock condition, not a timing assertion)
		while (Date.now() < oldAt + 4_000) await new Promise((r) => setTimeout(r, 100));
		const sentAt = new Date();
		const real = await rawBuy(env.client, env.sb.demo.token, req);

		clearCatalogCache();
		// a fresh process: no claims, no clock
		const fresh = client(
			{},
			{ accounts: new AccountRegistry(), reconcile: { waitMs: 0, pollMs: 100, skewMs: 1_500, sharedAccount: false } },
		);
		// without a clock every timezone is allowed: both identical records could be it
		const e = await fresh.reconcile(req, { sentAt }).catch((x) => x);
		expect(e.code).toBe('unknown_outcome');
		expect(e.candidates).toHaveLength(2);
		const restarted = client(
			{},
			{ accounts: new AccountRegistry(), reconcile: { waitMs: 0, pollMs: 100, skewMs: 1_500, sharedAccount: false } },
		);
		const r = await restarted.reconcile(req, {
			sentAt,
			claimed: [{ id: clockRec.id, createdAt: clockRec.createdAt, sentAt: clockSentAt }],
		});
		expect(r).toMatchObject({ id: real, path: 'reconciled' });
	},
);

describe('customer_ref (opt-in; the sandbox echoes it behind a switch)', () => {
	beforeEach(() => env.admin.setConfig({ customer_ref: true }));

	test(
		'a record carrying our reference is ours even on a shared account with an identical record ' + 'beside it',
		async () => {
			const req = {
				product: 'recharge_card' as const,
				network: 'MTN',
				denomination: 1,
				quantity: 1,
				nameOnCard: 'Same',
			};
			const opts = { customerRef: true, reconcile: { waitMs: 2_500, pollMs: 100, sharedAccount: true } };
			await client({}, opts).buy(req); // a direct answer shows the site echoes customer_ref
			await rawBuy(env.client, env.sb.demo.token, req); // another process, same order, no reference
			const r = await client({ 'x-sandbox-fault': 'html_after', 'x-sandbox-tag': 'ref-mine' }, opts).buy(req);
			expect(r.path).toBe('reconciled');
			expect(await byTag('ref-mine')).toEqual([r.id]);
			expect((r.raw as { customer_ref: string }).customer_ref).toMatch(/^[\w-]{16}$/);
		},
	);

	test(
		"500 before the debit beside another process's identical record → not_charged (its reference is " + 'not ours)',
		async () => {
			const req = {
				product: 'recharge_card' as const,
				network: 'MTN',
				denomination: 1,
				quantity: 1,
				nameOnCard: 'Same',
			};
			const opts = {
				customerRef: true,
				reconcile: { waitMs: 1_000, pollMs: 100, maxProcessingMs: 1_000, sharedAccount: true },
			};
			await client({}, opts).buy(req);
			await rawBuy(env.client, env.sb.demo.token, req);
			const e = await client({ 'x-sandbox-fault': 'error_before' }, opts)
				.buy(req)
				.catch((x) => x);
			expect(e.code).toBe('not_charged');
		},
	);

	test(
		'resolved later without its reference: a slow-vendor record carrying our ref stays a candidate, ' +
			'never not_charged',
		async () => {
			const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110010' };
			const opts = {
				customerRef: true,
				timeoutMs: 300,
				reconcile: { waitMs: 300, pollMs: 100, maxProcessingMs: 3_000 },
			};
			await client({}, opts).buy(req); // a direct answer: the site echoes customer_ref
			// the vendor finishes (debit + record) 1.5 s after the POST: after the client timed out and stopped reading
			const c = client({ 'x-sandbox-fault': 'slow:1500', 'x-sandbox-tag': 'slow-ref' }, opts);
			const e = await c.buy(req).catch((x) => x);
			expect(e.code).toBe('unknown_outcome');
			const { request, sentAt, resolvableAfter, customerRef } = e.details;
			// conditions: the record exists and the proof has become possible
			while ((await byTag('slow-ref')).length === 0 || Date.now() < Date.parse(resolvableAfter))
				await new Promise((r) => setTimeout(r, 100));
			const mine = await byTag('slow-ref');
			// the fixed interface { sentAt, waitMs: 0 } does not say which ref was sent: the record may be ours
			const later = await c.reconcile(request, { sentAt, waitMs: 0 }).catch((x) => x);
			expect(later.code).toBe('unknown_outcome');
			expect(later.candidates.map((r: { id: number }) => r.id)).toEqual(mine);
			// with the reference passed back (details.customerRef) it is proven ours
			expect(customerRef).toMatch(/^[\w-]{16}$/);
			const r = await c.reconcile(request, { sentAt, customerRef, waitMs: 0 });
			expect(r).toMatchObject({ id: mine[0], path: 'reconciled' });
		},
	);

	test("buy(req, { customerRef }): the caller's reference is sent, and proves the record of a lost answer", async () => {
		const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110010' };
		const c = client({ 'X-Sandbox-Fault': 'reset_after' }, { reconcile: { waitMs: 0, sharedAccount: true } });
		// another buyer's identical record first: without the reference a shared account could not tell them apart
		const twin = await rawBuy(env.client, env.sb.demo.token, req);
		const r = await c.buy(req, { customerRef: 'ord-crash19-a' });
		expect(r).toMatchObject({ path: 'reconciled', raw: { customer_ref: 'ord-crash19-a' } });
		expect(r.id).not.toBe(twin);
	});

	test(
		'buy(req, { customerRef }) refuses a bad reference, and a reference for several SMS batches, ' + 'sending nothing',
		async () => {
			const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110011' };
			const before = (await env.admin.transactions()).length;
			for (const bad of ['two words', '', 'x'.repeat(65), 7 as unknown as string])
				await expect(client({}).buy(req, { customerRef: bad })).rejects.toMatchObject({
					code: 'invalid_input',
					field: 'customerRef',
				});
			const sms = { sender: 'Shop', message: 'Hello', recipients: ['08031110012', '08031110013'] };
			await expect(
				client({}, { smsBatchSize: 1 }).sms.send(sms, { customerRef: 'ord-crash19-b' }),
			).rejects.toMatchObject({
				code: 'invalid_input',
				message: expect.stringMatching(/customerRef names one POST, but this send needs 2 batches/),
			});
			expect((await env.admin.transactions()).length).toBe(before);
		},
	);

	test('the sandbox stores the reference only behind its switch', async () => {
		const req = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08031110009' };
		const on = await client({}, { customerRef: true }).buy(req);
		await env.admin.setConfig({ customer_ref: false });
		const off = await client({}, { customerRef: true }).buy(req);
		expect(typeof (on.raw as Record<string, unknown>).customer_ref).toBe('string');
		expect((off.raw as Record<string, unknown>).customer_ref).toBeUndefined();
	});
});
