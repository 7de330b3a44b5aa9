/**
 * The seller's prices and the owner's report, on SQLite and Postgres: rules per product, plan type, plan
 * and tier with the configured markup as fallback; orders against the merchant sandbox over HTTP priced by
 * them; and the report's figures reconciled with the ledger's own account totals and the vendor's records.
 */
import { audit, Books, OWNER } from '../../store/ledger';
import { Storefront } from '../../store/orders';
import { applyMarkup, parseMarkup, PriceTable, priceKeyOf } from '../../store/prices';
import { addDays, buildReport, dayBounds, lagosDay, reportCsv } from '../../store/report';
import type { OpenedDb } from '../../store/db';
import { startEnv, type Env } from '../client/helpers';
import { backendNames, startBackend, type Backend } from './backends';

const DATA = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08161234567' };

test('markups as the owner types them, and the lookup order', () => {
	expect(parseMarkup('5%')).toEqual({ percent: '5' });
	expect(parseMarkup('2.5%')).toEqual({ percent: '2.5' });
	expect(parseMarkup('₦20')).toEqual({ fixedKobo: 2000 });
	expect(parseMarkup('+1,000.50')).toEqual({ fixedKobo: 100_050 });
	expect(parseMarkup('0%')).toEqual({});
	for (const bad of ['101%', 'five', '-5%', '₦2.555', '']) expect(parseMarkup(bad)).toBeNull();
	expect(applyMarkup(25_000, { percent: '2.5', fixedKobo: 100 })).toBe(25_000 + 625 + 100);
	const rules = [
		{ product: '*', scope: '', tier: 'regular' as const, percent: '1' },
		{ product: 'data', scope: '', tier: 'regular' as const, percent: '3' },
		{ product: 'data', scope: 'type:MTN SME', tier: 'regular' as const, percent: '5' },
		{ product: 'data', scope: 'plan:7', tier: 'regular' as const, fixedKobo: 5_000 },
		{ product: 'data', scope: '', tier: 'reseller' as const, percent: '2' },
	];
	const regular = new PriceTable(rules, 'regular', { percent: '10' });
	const reseller = new PriceTable(rules, 'reseller', { percent: '10' });
	const sme = { product: 'data', type: 'mtn  sme', plan: '3' };
	expect(regular.price(sme, 10_000)).toMatchObject({ price: 10_500, margin: 500 });
	expect(regular.price({ ...sme, plan: '7' }, 10_000).price).toBe(15_000);
	expect(regular.price({ product: 'data', type: 'GLO GIFTING' }, 10_000).price).toBe(10_300);
	expect(regular.price({ product: 'airtime', type: 'MTN' }, 10_000).price).toBe(10_100);
	// a reseller's own rule first (even a less specific one), then the regular rules
	expect(reseller.price(sme, 10_000).price).toBe(10_200);
	expect(reseller.price({ product: 'airtime' }, 10_000).price).toBe(10_100);
	expect(new PriceTable([], 'reseller', { percent: '10' }).price(sme, 10_000)).toMatchObject({
		price: 11_000,
		rule: null,
	});
	// bulk SMS (units = numbers × pages): an sms rule's naira per unit; an every-product rule's or the fallback's once
	const sms = { product: 'sms', units: 3 };
	const perPage = new PriceTable([{ product: 'sms', scope: '', tier: 'regular', fixedKobo: 100 }], 'regular', {});
	expect(perPage.price(sms, 540)).toMatchObject({ price: 840, margin: 300 });
	expect(regular.price(sms, 540).price).toBe(545); // the every-product rule: 1 % of the cost
	const perOrder = [{ product: '*', scope: '', tier: 'regular' as const, fixedKobo: 5_000 }];
	expect(new PriceTable(perOrder, 'regular', {}).price(sms, 540).price).toBe(5_540);
	expect(new PriceTable([], 'regular', { percent: '10', fixedKobo: 5_000 }).price(sms, 540).price).toBe(5_594);
	expect(dayBounds('2026-11-24')).toEqual({ from: '2026-11-23T23:00:00.000Z', to: '2026-11-24T23:00:00.000Z' });
	expect(lagosDay(new Date('2026-11-24T23:30:00Z'))).toBe('2026-11-25');
	expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
	expect(() => dayBounds('2026-02-30')).toThrow(/YYYY-MM-DD/);
});

describe.each(backendNames())('seller prices and the report on %s', (name) => {
	let backend: Backend;
	let env: Env;
	const opened: OpenedDb[] = [];
	beforeAll(async () => {
		backend = await startBackend(name);
		env = await startEnv('family', { timeoutMs: 5000, reconcile: { waitMs: 0, pollMs: 50, maxProcessingMs: 0 } });
	}, 120_000);
	afterAll(async () => {
		for (const o of opened) await o.close();
		await env?.close();
		await backend?.stop();
	});

	async function shop() {
		const o = await (await backend.fresh()).open();
		opened.push(o);
		const books = new Books(o.db);
		await books.init();
		for (const c of ['c1', 'c2']) {
			await books.createCustomer(c);
			await books.recordPayment({
				provider: 'paystack',
				reference: `fund-${c}`,
				customerId: c,
				amount: 500_000,
				fee: 150,
			});
		}
		const store = new Storefront({ books, client: env.client, pricing: { markupPercent: 10 } });
		return { books, store, prices: store.prices };
	}

	test('orders are priced by the rules: plan type, tier, removal back to the fallback', async () => {
		const { books, store, prices } = await shop();
		const key = await priceKeyOf(env.client.catalog, DATA);
		expect(key).toEqual({ product: 'data', type: 'MTN SME', plan: '3' });
		const cost = (await env.client.quote(DATA)).amount.kobo;
		await prices.set({ product: 'data', scope: 'type:MTN SME', tier: 'regular', percent: '5' }, 'owner');
		await prices.set({ product: 'data', scope: '', tier: 'reseller', fixedKobo: 1_000 }, 'owner');
		await prices.setTier('c2', 'reseller');
		expect(await prices.tierOf('c1')).toBe('regular');
		expect(await prices.tierOf('c2')).toBe('reseller');
		const a = await store.placeOrder('c1', 'o1', DATA);
		const b = await store.placeOrder('c2', 'o2', DATA);
		expect([a.state, b.state]).toEqual(['settled', 'settled']);
		expect(a.price).toBe(cost + Math.round(cost * 0.05));
		expect(b.price).toBe(cost + 1_000);
		// a price the customer was not shown is refused before anything is held
		await expect(store.placeOrder('c1', 'o3', DATA, { price: a.price + 1 })).rejects.toMatchObject({
			code: 'invalid_input',
		});
		expect(await books.orderState('o3')).toBe('none');
		expect(await prices.remove('data', 'type:MTN SME', 'regular')).toBe(true);
		expect(await prices.remove('data', 'type:MTN SME', 'regular')).toBe(false);
		const c = await store.placeOrder('c1', 'o4', DATA, { price: store.priceFor(cost) });
		expect(c.price).toBe(store.priceFor(cost));
		expect((await audit(books.db)).problems).toEqual([]);
		// percent and fixed are checked where they are stored
		await expect(
			prices.set({ product: 'data', scope: '', tier: 'regular', percent: '150' }, 'x'),
		).rejects.toMatchObject({ code: 'invalid_input' });
	});

	test('bulk SMS is priced per page to each number by an sms rule, and charged what it was priced', async () => {
		const { books, store, prices } = await shop();
		const SMS = {
			product: 'sms' as const,
			sender: 'SHOP',
			recipients: ['08031234567', '0805 123 4567', '08031234567'],
		};
		const short = { ...SMS, message: 'Open at 8' };
		const long = { ...SMS, message: 'x'.repeat(200) }; // two pages
		expect(await priceKeyOf(env.client.catalog, short)).toEqual({ product: 'sms', units: 2 });
		expect(await priceKeyOf(env.client.catalog, long)).toEqual({ product: 'sms', units: 4 });
		await prices.set({ product: 'sms', scope: '', tier: 'regular', fixedKobo: 100 }, 'owner');
		const cost = (await env.client.quote(long)).amount.kobo;
		expect(await store.priceOf('c1', long, cost)).toBe(cost + 4 * 100);
		const o = await store.placeOrder('c1', 's1', long, { price: cost + 400 });
		expect([o.state, o.price]).toEqual(['settled', cost + 400]);
		expect((await books.walletBalance('c1')).available).toBe(500_000 - cost - 400);
		expect((await audit(books.db)).problems).toEqual([]);
	});

	test("the report's totals reconcile with the ledger, the orders and the vendor's records", async () => {
		const { books, store } = await shop();
		const out = [
			await store.placeOrder('c1', 'r1', DATA),
			await store.placeOrder('c2', 'r2', { ...DATA, phone: '08161234568' }),
		];
		await env.admin.setConfig({ settle: { mode: 'immediate', delayMs: 0, finalStatus: 'failed' } });
		const failed = await store.placeOrder('c1', 'r3', { ...DATA, phone: '08161234569' });
		await env.admin.setConfig({ settle: { mode: 'immediate', delayMs: 0, finalStatus: 'successful' } });
		expect(failed.state).toBe('refunded');
		await books.adjust('c2', 2_500, 'goodwill', 'adj-1');
		await books.adjust('c2', -500, 'bank reversal', 'adj-2');
		await books.recordPayment({ provider: 'paystack', reference: 'stray', customerId: null, amount: 7_000, fee: 70 });
		const today = lagosDay(new Date());
		const r = await buildReport(books.db, dayBounds(addDays(today, -1)).from, dayBounds(addDays(today, 1)).to);
		// against the ledger's accounts, which the report does not read
		const acct = async (id: string) =>
			books.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
		expect(r.sales).toBe((await acct(OWNER.sales)).credits_posted);
		const vc = await acct(OWNER.vendorCost);
		expect(r.vendorCost - r.vendorRefunds).toBe(vc.debits_posted - vc.credits_posted);
		expect(r.refunds).toBe((await acct(OWNER.refunds)).debits_posted);
		expect(r.fees).toBe((await acct(OWNER.fees)).debits_posted);
		expect(r.manual).toBe(2_000);
		const a = await audit(books.db);
		expect(a.problems).toEqual([]);
		expect(r.paidIn).toBe(a.paidIn + 7_000);
		expect(r.sales).toBe(a.spent);
		expect(r.refunds).toBe(a.refunded);
		// against the orders and what the vendor charged for each (its own records)
		expect(r.orders).toBe(3);
		expect(r.payments).toBe(3);
		for (const o of [...out, failed]) {
			const row = r.rows.find((x) => x.kind === 'order' && x.reference === o.orderId)!;
			expect(row.amount).toBe(o.price);
			expect(row.vendorCost).toBe(o.result!.amount.kobo);
			expect(row.profit).toBe(o.price - o.result!.amount.kobo);
		}
		const refundRow = r.rows.find((x) => x.kind === 'refund')!;
		expect(refundRow).toMatchObject({ reference: 'r3', customer: 'c1', amount: -failed.price });
		expect(r.profit).toBe(r.rows.reduce((s, x) => s + x.profit, 0));
		expect(r.net).toBe(r.profit - r.fees);
		// the CSV carries every row and the same totals
		const csv = reportCsv(r).trim().split('\n');
		expect(csv[0]).toBe('time,type,reference,customer,amount_naira,vendor_cost_naira,fee_naira,profit_naira,note');
		expect(csv.filter((l) => /^[^,]+,(order|refund|payment|credit|debit),/.test(l))).toHaveLength(r.rows.length);
		expect(csv).toContain(`${r.to},total,profit,,${(r.profit / 100).toFixed(2)},,,,`);
		const profits = csv
			.filter((l) => /,(order|refund),/.test(l))
			.reduce((s, l) => s + Math.round(Number(l.split(',')[7]) * 100), 0);
		expect(profits).toBe(r.profit);
		// a period with nothing in it
		const empty = await buildReport(books.db, dayBounds('2020-01-01').from, dayBounds('2020-01-01').to);
		expect(empty).toMatchObject({ orders: 0, sales: 0, profit: 0, rows: [] });
	});
});
