/**
 * SMS tariff per site: the catalogue's where published, else the credential's, else learned from the first
 * batch's wallet change and remembered per site; until then the safe side (the highest family tariff), and
 * every plan and quote says where its rate came from.
 */
import { VtuClient, clearCatalogCache } from '../../client';
import { forgetSites } from '../../client/site';
import { learnSmsRate } from '../../client/products/sms/rate';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { type Sandbox, startSandbox } from '../../sandbox/server';
import { countingTransport } from '../client/helpers';

const SMS = { sender: 'Shop', message: 'Sale today', recipients: ['08031234567', '08051234567'] };

let sb: Sandbox;
let admin: SandboxAdmin;
const counting = countingTransport();
const client = (o: Partial<ConstructorParameters<typeof VtuClient>[0]> = {}) =>
	new VtuClient({
		baseUrl: sb.baseUrl,
		token: sb.demo.token,
		transport: counting.transport,
		timeoutMs: 5_000,
		reconcile: { sharedAccount: false },
		...o,
	});

async function open(dialect: 'seed' | 'family') {
	clearCatalogCache();
	forgetSites();
	sb = await startSandbox({ dialect });
	admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
}
afterEach(() => sb.close());

test(
	'family site, no rate anywhere: assumed on the safe side, then learned from the first batch and ' + 'remembered',
	async () => {
		await open('family');
		const c = client();
		const q = await c.quote({ product: 'sms', ...SMS });
		expect(q).toMatchObject({ amount: { naira: '5.00' }, rateSource: 'assumed' });
		expect(q.rateNote).toMatch(/₦2\.50 a page \(standard\) assumed: the site publishes no SMS rate/);
		expect(await c.catalog.sms()).toMatchObject({
			perPage: { naira: '2.50' },
			dndPerPage: { naira: '3.50' },
			sources: { perPage: 'assumed', dndPerPage: 'assumed' },
		});

		const before = await admin.balanceKobo('demo');
		const [r] = await c.sms.send(SMS);
		const charged = before - (await admin.balanceKobo('demo'));
		expect(charged).toBe(360); // the legacy build's ₦1.80 × 2 numbers × 1 page
		expect(q.amount.kobo).toBeGreaterThanOrEqual(charged); // the assumed quote never under-counts a Spend Cap
		expect(r.status).toBe('successful');

		// learned for the standard route only, and by every client of the site in this process
		const other = client();
		const q2 = await other.quote({ product: 'sms', ...SMS });
		expect(q2).toMatchObject({ amount: { naira: '3.60' }, rateSource: 'learned' });
		expect(q2.rateNote).toMatch(/learned from this site's first batch/);
		expect((await other.quote({ product: 'sms', ...SMS, dnd: true })).rateSource).toBe('assumed');

		// once learned, a send reads no wallet around its batch
		counting.reset();
		await other.sms.send(SMS);
		expect(counting.requests.filter((x) => x.url.endsWith('/api/user/'))).toHaveLength(0);
	},
);

test("two sends at once see each other's debit: neither teaches a rate", async () => {
	await open('family');
	const c = client();
	await c.catalog.get();
	const before = await admin.balanceKobo('demo');
	await Promise.all([c.sms.send(SMS), c.sms.send({ ...SMS, message: 'Second' })]);
	expect(before - (await admin.balanceKobo('demo'))).toBe(720);
	expect((await c.quote({ product: 'sms', ...SMS })).rateSource).toBe('assumed');
	// alone, the next send teaches it
	await c.sms.send({ ...SMS, message: 'Third' });
	expect((await c.quote({ product: 'sms', ...SMS })).rateSource).toBe('learned');
});

test('a send of several batches is priced at the learned rate after the first', async () => {
	await open('family');
	const c = client({ smsBatchSize: 1 });
	const plan = await c.sms.plan(SMS);
	expect(plan).toMatchObject({ rateSource: 'assumed', cost: { naira: '5.00' } });
	const res = await c.sms.send(SMS);
	expect(res.map((r) => r.amount.naira)).toEqual(['1.80', '1.80']);
	expect(await c.sms.plan(SMS)).toMatchObject({
		rateSource: 'learned',
		rate: { naira: '1.80' },
		cost: { naira: '3.60' },
	});
});

test('the credential rate is used where the site publishes none, and nothing is learned over it', async () => {
	await open('family');
	const c = client({ smsRates: { perPage: '2.00', dndPerPage: 4 } });
	expect(await c.quote({ product: 'sms', ...SMS })).toMatchObject({
		amount: { naira: '4.00' },
		rateSource: 'credential',
	});
	expect(await c.quote({ product: 'sms', ...SMS, dnd: true })).toMatchObject({
		amount: { naira: '8.00' },
		rateSource: 'credential',
	});
	counting.reset();
	await c.sms.send(SMS);
	expect(counting.requests.filter((x) => x.url.endsWith('/api/user/'))).toHaveLength(0);
	expect((await client().quote({ product: 'sms', ...SMS })).rateSource).toBe('assumed');
});

test("a site's published rate wins over the credential", async () => {
	await open('seed');
	const q = await client({ smsRates: { perPage: '9.00' } }).quote({ product: 'sms', ...SMS });
	expect(q).toMatchObject({ amount: { naira: '3.60' }, rateSource: 'catalogue' });
	expect(q.rateNote).toMatch(/the site's published rate/);
});

test('a credential rate that is not a rate is refused with what to type', async () => {
	await open('family');
	for (const bad of ['abc', '0', '-2', '250', '2.505']) {
		expect(() => client({ smsRates: { perPage: bad } })).toThrow(
			expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/e\.g\. "2\.50"/) }),
		);
	}
});

test('a wallet change that is not a whole per-page rate teaches nothing', () => {
	forgetSites();
	const site = 'https://example.invalid';
	expect(learnSmsRate(site, false, 3, 100_000, 100_000 - 541)).toBeNull(); // 541 kobo over 3 units: not a rate
	expect(learnSmsRate(site, false, 2, 100_000, 100_000 + 360)).toBeNull(); // the wallet grew (funding)
	expect(learnSmsRate(site, false, 1, 100_000, 100_000 - 5_000)).toBeNull(); // ₦50 a page: another purchase
	expect(learnSmsRate(site, false, 2, 100_000, 100_000 - 500)).toBe(250);
});
