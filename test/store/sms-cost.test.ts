/**
 * Bulk SMS in the storefront on a site that publishes no SMS rate (the family build): the vendor's charge
 * is what the books record as its cost (profit = price − what the vendor charged), and the rate the client
 * learns from the wallet change is the vendor's, not another customer's order that moved the wallet too; a
 * settled SMS is final, so the follower does not read it again.
 * The merchant sandbox over HTTP (through a proxy that parks a request until the test lets it go), real SQLite.
 */
import { clearCatalogCache, VtuClient } from '../../client';
import { forgetSites } from '../../client/site';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { audit, Books } from '../../store/ledger';
import { Storefront } from '../../store/orders';
import { HoldProxy } from '../bot/journeys-kit';
import { countingTransport } from '../client/helpers';
import { sqliteBackend, type Backend } from './backends';

const FAMILY_RATE = 180; // the legacy build's ₦1.80 a page
const DATA = { product: 'data' as const, network: 'MTN', plan: 3, phone: '08161234567' };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `0803${String(1_000_000 + i)}`);
const sms = (message: string, n: number) => ({
	product: 'sms' as const,
	sender: 'SHOP',
	message,
	recipients: numbers(n),
});

let sb: Sandbox;
let admin: SandboxAdmin;
let proxy: HoldProxy;
let backend: Backend;
beforeEach(async () => {
	clearCatalogCache();
	forgetSites();
	sb = await startSandbox({ port: 0, dialect: 'family' });
	admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	proxy = await new HoldProxy(sb.baseUrl).start();
	backend = await sqliteBackend();
});
afterEach(async () => {
	await proxy.close();
	await sb.close();
	await backend.stop();
});

async function shop() {
	const counting = countingTransport();
	const client = new VtuClient({
		baseUrl: proxy.baseUrl,
		token: sb.demo.token,
		transport: counting.transport,
		timeoutMs: 20_000,
		reconcile: { sharedAccount: false, waitMs: 0, pollMs: 50, maxProcessingMs: 1_000 },
	});
	const opened = await (await backend.fresh()).open();
	const books = new Books(opened.db);
	await books.init();
	for (const c of ['c1', 'c2']) {
		await books.createCustomer(c);
		await books.recordPayment({ provider: 'paystack', reference: `f-${c}`, customerId: c, amount: 500_000, fee: 0 });
	}
	const store = new Storefront({ books, client, pricing: { markupPercent: 10 } });
	const vendorCost = async (orderId: string) =>
		Number(
			(await books.db.selectFrom('transfers').select('amount').where('id', '=', `cost:${orderId}`).executeTakeFirst())
				?.amount,
		);
	return { client, books, store, opened, vendorCost, counting };
}

test('the history cannot name the send: the books record what the wallet change showed, not the quote', async () => {
	const { client, books, store, opened, vendorCost } = await shop();
	const job = sms('Shop opens at 8', 2);
	expect((await client.quote(job)).rateSource).toBe('assumed'); // ₦2.50 a page: more than the vendor takes
	await admin.addFault({ endpoint: 'GET /api/sendsms/', kind: 'error_before' }); // no record names the send
	const before = await admin.balanceKobo(sb.demo.username);
	const out = await store.placeOrder('c1', 'o1', job);
	const charged = before - (await admin.balanceKobo(sb.demo.username));
	expect([out.state, charged]).toEqual(['settled', 2 * FAMILY_RATE]);
	expect(await vendorCost('o1')).toBe(charged); // the profit is the price less what the vendor took
	expect((await audit(books.db)).problems).toEqual([]);
	await opened.close();
});

test("another customer's order while the send is out teaches no SMS rate: the next job is priced right", async () => {
	const { client, books, store, opened, vendorCost } = await shop();
	const dataCost = (await client.quote(DATA)).amount.kobo;
	// a whole-naira order beside a 100-unit send divides into a "rate" per page: the mistake this guards against
	expect([dataCost % 100, (100 * FAMILY_RATE + dataCost) / 100 <= 2_000]).toEqual([0, true]);
	const held = proxy.hold('POST', '/api/sendsms/');
	const first = store.placeOrder('c1', 's1', sms('Sale today', 100));
	await held.reached; // the send is out: its wallet reads are around it
	expect((await store.placeOrder('c2', 'd1', DATA)).state).toBe('settled');
	held.lift();
	expect((await first).state).toBe('settled');
	expect(await vendorCost('s1')).toBe(100 * FAMILY_RATE);
	// the next job: at the vendor's own rate, or still the assumed one; never one made of the data order
	const q = await client.quote(sms('Sale tomorrow', 3));
	expect([3 * FAMILY_RATE, 3 * 250]).toContain(q.amount.kobo);
	expect((await audit(books.db)).problems).toEqual([]);
	await opened.close();
});

test('a settled bulk SMS is final: following it reads nothing from the vendor', async () => {
	const { store, opened, counting } = await shop();
	expect((await store.placeOrder('c1', 's1', sms('Sale today', 2))).state).toBe('settled');
	counting.reset();
	// the follower passes over settled orders for BOT_REFUND_WATCH_HOURS: an SMS record never turns failed (the
	// site debits it once sent; its rows carry no status), so it is not read again, page after page, every pass
	expect(await store.follow('s1')).toMatchObject({ state: 'settled' });
	expect(counting.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([]);
	await opened.close();
});
