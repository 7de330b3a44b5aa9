/** Data coupons through the registry: priced, checked, bought once, reconciled on a lost answer (both dialects). */
import { VtuError } from '../../client';
import { DIALECTS, startEnv, type Env } from './helpers';

const COUPON = { product: 'data_coupon' as const, network: 'MTN', plan: 2, quantity: 3, nameOnCard: 'Ade Stores' };

describe.each(DIALECTS)('data coupons (%s dialect)', (dialect) => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv(dialect, { timeoutMs: 3000, reconcile: { waitMs: 1000, pollMs: 100 } });
	});
	afterAll(() => env.close());
	beforeEach(async () => {
		await env.admin.clearFaults();
		env.counting.reset();
	});
	const debits = async () => (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit');

	test('a quote prices the plan per coupon and shows the body: network by name, data_plan, quantity', async () => {
		const q = await env.client.quote(COUPON);
		const plan = (await env.client.catalog.dataPlans('MTN')).find((p) => p.id === 2)!;
		expect(q.amount.kobo).toBe(plan.price.kobo * 3);
		expect(q.request).toEqual({ network: 'MTN', data_plan: 2, quantity: 3, name_on_card: 'Ade Stores' });
		expect(env.counting.posts()).toHaveLength(0);
	});

	test('bought with one POST; the pins are in the result and the wallet moved by its amount', async () => {
		const before = await env.admin.balanceKobo('demo');
		const r = await env.client.dataCoupons.buy({ network: 'mtn', plan: 2, quantity: 3, nameOnCard: 'Ade Stores' });
		expect(r).toMatchObject({ product: 'data_coupon', status: 'successful', path: 'direct', recipient: 'Ade Stores' });
		expect(r.details).toMatchObject({ network: 'MTN', plan: 2, quantity: 3 });
		expect(r.details.cards).toHaveLength(3);
		expect(before - (await env.admin.balanceKobo('demo'))).toBe(r.amount.kobo);
		expect(env.counting.posts().map((p) => new URL(p.url).pathname)).toEqual(['/api/data_pin/']);
		const listed = await env.client.transactions.list('data_coupon');
		expect(listed.items.find((x) => x.id === r.id)?.details.cards).toHaveLength(3);
	});

	test('a lost answer after the debit is reconciled from the records: charged once, never sent twice', async () => {
		const before = (await debits()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data_pin/', kind: 'timeout_after', count: 1 });
		const r = await env.client.buy({ ...COUPON, plan: 1, quantity: 2 });
		expect(r.path).toBe('reconciled');
		expect(r.details.cards).toHaveLength(2);
		const d = await debits();
		expect(d.length).toBe(before + 1);
		expect(d[d.length - 1].txnId).toBe(r.id);
		expect(env.counting.posts()).toHaveLength(1);
	});

	test.each([
		[{ plan: 9999 }, 'plan', /not a MTN data plan/],
		[{ network: 'GLO' }, 'plan', /not a GLO data plan \(it is MTN\)/],
		[{ quantity: 0 }, 'quantity', /quantity/],
		[{ quantity: 40 }, 'quantity', /quantity/],
		[{ nameOnCard: 'x'.repeat(51) }, 'nameOnCard', /50/],
	])('bad input %j is invalid_input on %s and buys nothing', async (change, field, text) => {
		const e = await env.client.buy({ ...COUPON, ...change }).catch((x: unknown) => x);
		expect(e).toBeInstanceOf(VtuError);
		expect(e).toMatchObject({ code: 'invalid_input', field });
		expect((e as Error).message).toMatch(text);
		expect(env.counting.posts()).toHaveLength(0);
	});
});
