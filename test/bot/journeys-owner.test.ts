/**
 * Journey: the owner of a storefront. The owner changes a price in chat and is shown the new margin; a
 * customer reads it in /prices and pays it; after a day's orders (one failed by the vendor and refunded)
 * the owner reads /report for today, and the CSV file's rows add up to the orders, the sales and the
 * profit the message states, which are the vendor's real charges against the customers' prices.
 */
import { naira } from '../../bot/orders';
import { lagosDay } from '../../store/report';
import type { VtuBot } from '../../bot/bot';
import type { FakeUser } from './fake-telegram';
import { lastDocument, useBotEnv } from './harness';
import { openShop, type Shop } from './journeys-kit';
import { pattern, text, NAIRA } from './texts';

const env = useBotEnv();

async function say(app: VtuBot, u: FakeUser, words: string): Promise<string> {
	await env.send(app, env.tg.textUpdate(u, words));
	return env.tg.lastText(u.id)!;
}

async function fund(s: Shop, u: FakeUser, kobo: number): Promise<void> {
	const { account } = await s.start(u);
	await s.transfer(account, kobo);
	await env.tg.waitForText(u.id, pattern('sf-payment-landed', { amount: naira(kobo), balance: NAIRA }));
}

async function buyData(s: Shop, u: FakeUser): Promise<string> {
	for (const step of ['/data', /^MTN$/, /^1GB SME /, '0803 123 4567'])
		await env.send(s.app, typeof step === 'string' ? env.tg.textUpdate(u, step) : env.tg.buttonUpdate(u, step));
	await env.send(s.app, env.tg.buttonUpdate(u, /^pay:y$/));
	return env.tg.lastText(u.id)!;
}

type Row = { type: string; reference: string; customer: string; amount: number; cost: number; profit: number };

/** The report CSV's rows and totals, in kobo. */
function parseCsv(csv: string): { rows: Row[]; totals: Record<string, number> } {
	const [head, ...lines] = csv.trim().split('\n');
	expect(head).toBe('time,type,reference,customer,amount_naira,vendor_cost_naira,fee_naira,profit_naira,note');
	const kobo = (s: string) => Math.round(Number(s || '0') * 100);
	const rows: Row[] = [];
	const totals: Record<string, number> = {};
	for (const l of lines) {
		const c = l.split(',');
		if (c[1] === 'total') totals[c[2]] = kobo(c[4]);
		else
			rows.push({
				type: c[1],
				reference: c[2],
				customer: c[3],
				amount: kobo(c[4]),
				cost: kobo(c[5]),
				profit: kobo(c[7]),
			});
	}
	return { rows, totals };
}

test('the owner sets a price, sees the margin; a customer sees and pays it; /report and its CSV add up', async () => {
	const s = await openShop(env);
	const owner = env.admin1;
	await fund(s, env.alice, 500_000);
	await fund(s, env.bob, 500_000);

	// a customer may not set prices; the owner may, and sees the margin against the vendor's cost
	expect(await say(s.app, env.alice, '/setprice data MTN SME 5%')).toBe(text('admin-only'));
	const set = (await say(s.app, owner, '/setprice data MTN SME 5%')).split('\n');
	expect(set[0]).toBe(text('setprice-set', { rule: 'data MTN SME (regular)', markup: '5%' }));
	const margin = { name: '1GB SME (30 days)', cost: '₦250.00', price: '₦262.50', margin: '₦12.50' };
	expect(set).toContain(text('setprice-margin', margin));

	// the customer's price list shows it, and the order is taken at it
	const list = (await say(s.app, env.alice, '/prices')).split('\n');
	expect(list[0]).toBe(text('prices-head'));
	const mtn = list.indexOf(text('prices-section-data', { network: 'MTN' }));
	expect(list.slice(mtn)).toContain(text('prices-line', { name: '1GB SME (30 days)', price: '₦262.50' }));
	const receipt = await buyData(s, env.alice);
	expect(receipt).toMatch(pattern('sf-receipt', { gets: /.+/, price: '₦262.50', ref: /\S+/, balance: '₦4,737.50' }));

	// Bob: one order delivered, one failed by the vendor (refunded at once)
	expect(await buyData(s, env.bob)).toMatch(
		pattern('sf-receipt', { gets: /.+/, price: '₦262.50', ref: /\S+/, balance: NAIRA }),
	);
	await env.admin.setConfig({ settle: { mode: 'immediate', delayMs: 0, finalStatus: 'failed' } });
	expect(await buyData(s, env.bob)).toMatch(
		pattern('sf-refunded-now', { gets: /.+/, price: '₦262.50', balance: NAIRA }),
	);

	expect(await say(s.app, env.alice, '/report')).toBe(text('admin-only'));
	const summary = await say(s.app, owner, '/report');
	const doc = lastDocument(env, owner.id)!;
	expect(doc.caption).toMatch(pattern('report-csv', { rows: /\d+/ }));
	const { rows, totals } = parseCsv(doc.content);
	checkRows(rows, totals);
	const orders = rows.filter((r) => r.type === 'order');
	expect(orders.map((r) => [r.customer, r.amount])).toEqual(
		expect.arrayContaining([
			[String(env.alice.id), 26_250],
			[String(env.bob.id), 26_250],
		]),
	);
	// the vendor's cost in the report is what the vendor's ledger debited
	const debited = (await env.demoLedger()).filter((e) => e.kind === 'debit').reduce((n, e) => n + e.amountKobo, 0);
	expect(orders.reduce((n, r) => n + r.cost, 0)).toBe(debited);
	expect(summary).toBe(
		text('owner-summary', {
			title: text('owner-summary-day', { day: lagosDay(new Date()) }),
			orders: orders.length,
			sales: naira(totals.sales),
			cost: naira(totals.vendor_cost),
			refunds: naira(totals.refunds - totals.vendor_refunds), // the message nets the vendor's refund
			profit: naira(totals.profit),
			payments: 2,
			paidIn: '₦10,000.00',
			fees: '₦0.00',
			net: naira(totals.net),
		}),
	);
	// the profit is the margin the owner was shown, once per delivered order
	expect(totals.profit).toBe(2 * 1_250);
	await s.balanced();
});

/** Every total of the CSV is the sum of its rows. */
function checkRows(rows: Row[], totals: Record<string, number>): void {
	const sum = (type: string, f: (r: Row) => number) =>
		rows.filter((r) => r.type === type).reduce((n, r) => n + f(r), 0);
	expect(sum('order', (r) => r.amount)).toBe(totals.sales);
	expect(sum('order', (r) => r.cost)).toBe(totals.vendor_cost);
	expect(-sum('refund', (r) => r.amount)).toBe(totals.refunds);
	expect(-sum('refund', (r) => r.cost)).toBe(totals.vendor_refunds);
	expect(sum('order', (r) => r.profit) + sum('refund', (r) => r.profit)).toBe(totals.profit);
	expect(sum('payment', (r) => r.amount)).toBe(totals.paid_in);
	for (const r of rows.filter((x) => x.type === 'order')) expect(r.profit).toBe(r.amount - r.cost);
}
