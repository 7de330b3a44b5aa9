/**
 * The client against every build profile of the family (sandbox/builds.ts): read the catalogue, validate an
 * IUC and a meter, buy every product. Each build is strict where that build is, so what passes here passes
 * on each kind of real site we have evidence of. The client is given no per-site setting: it learns the
 * catalogue routes, the validation form and the MeterType encoding from the site's own answers.
 */
import { VtuClient, clearCatalogCache, type PurchaseResult } from '../../client';
import { forgetSites } from '../../client/site';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { BUILD_NAMES, BUILDS, type BuildName } from '../../sandbox/builds';
import { type Sandbox, startSandbox } from '../../sandbox/server';
import { countingTransport } from '../client/helpers';

describe.each(BUILD_NAMES)('the client against the %s build', (build: BuildName) => {
	let sb: Sandbox;
	let admin: SandboxAdmin;
	let client: VtuClient;
	const counting = countingTransport();
	/** Status of every purchase POST's answer (SMS excluded: its answer is 200 on every build). */
	const purchaseStatuses = new Set<number>();
	beforeAll(async () => {
		clearCatalogCache();
		forgetSites();
		sb = await startSandbox({ build });
		admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
		client = new VtuClient({
			baseUrl: sb.baseUrl,
			token: sb.demo.token,
			timeoutMs: 5_000,
			transport: async (req) => {
				const res = await counting.transport(req);
				if (req.method === 'POST' && !req.url.endsWith('/api/sendsms/') && res.status !== 400 && res.status !== 404)
					purchaseStatuses.add(res.status);
				return res;
			},
			reconcile: { sharedAccount: false },
		});
	});
	afterAll(() => sb.close());

	const charged = async (buy: () => Promise<PurchaseResult>) => {
		const before = await admin.balanceKobo('demo');
		const r = await buy();
		expect(r.status).toBe('successful');
		expect(r.path).toBe('direct'); // answered, not reconciled: the build's status code and shape were understood
		expect(before - (await admin.balanceKobo('demo'))).toBe(r.amount.kobo);
		return r;
	};

	test('catalogue', async () => {
		const cat = await client.catalog.get();
		expect(cat.networks.map((n) => n.name).sort()).toEqual(['9MOBILE', 'AIRTEL', 'GLO', 'MTN']);
		expect(cat.networks.find((n) => n.name === 'MTN')!.plans.find((p) => p.id === 2)).toMatchObject({
			size: '1GB',
			kind: 'SME',
			price: { naira: '250.00' },
		});
		expect(cat.cable.map((c) => c.name)).toEqual(['GOTV', 'DSTV', 'STARTIME']);
		expect(cat.discos[0]).toEqual({ id: 1, name: 'Ikeja Electric' });
		expect(cat.recharge.length).toBeGreaterThan(0);
		expect((await client.user.balance()).kobo).toBe(await admin.balanceKobo('demo'));
	});

	test('IUC and meter validation in the form this build takes', async () => {
		expect(await client.cable.validate({ provider: 'GOTV', iuc: '7012345678' })).toMatchObject({
			valid: true,
			name: expect.any(String),
		});
		expect((await client.cable.validate({ provider: 'DSTV', iuc: '7010000000' })).valid).toBe(false);
		expect(
			await client.electricity.validate({ disco: 'Ikeja Electric', meter: '45012345678', meterType: 'prepaid' }),
		).toMatchObject({ valid: true });
		// the form that answered is remembered: a second check sends one request each
		counting.reset();
		await client.cable.validate({ provider: 'GOTV', iuc: '7012345678' });
		await client.electricity.validate({ disco: 2, meter: '45012345678', meterType: 'postpaid' });
		expect(counting.requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/validateiuc/', '/api/validatemeter/']);
	});

	test('every product', async () => {
		await charged(() => client.data.buy({ network: 'MTN', plan: 2, phone: '08031234567' }));
		await charged(() => client.airtime.buy({ network: 'GLO', amount: 100, phone: '08051234567' }));
		await charged(() => client.cable.buy({ provider: 'GOTV', package: 2, iuc: '7012345678' }));
		counting.reset();
		const bill = await charged(() =>
			client.electricity.buy({ disco: 'Ikeja Electric', meter: '45012345678', meterType: 'prepaid', amount: 1000 }),
		);
		expect(bill.details.token).toEqual(expect.any(String));
		// a build that takes 1/2 refuses "Prepaid" with a 400 (nothing debited: `charged` checked the wallet moved
		// by one purchase), the client sends 1 once, and sends 1 at once from then on
		const bills = () => counting.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/api/billpayment/'));
		const encodings = () => bills().map((r) => JSON.parse(String(r.body)).MeterType);
		expect(encodings()).toEqual(BUILDS[build].meterType === 'name' ? ['Prepaid'] : ['Prepaid', 1]);
		counting.reset();
		await charged(() => client.electricity.buy({ disco: 2, meter: '45012345678', meterType: 'postpaid', amount: 600 }));
		expect(encodings()).toEqual([BUILDS[build].meterType === 'name' ? 'Postpaid' : 2]);
		const exam = await charged(() => client.examPins.buy({ exam: 'WAEC', quantity: 1 }));
		expect(exam.details.pins).toHaveLength(1);
		await charged(() => client.rechargeCards.buy({ network: 'MTN', denomination: 1, quantity: 1, nameOnCard: 'Shop' }));
		// data coupons: /api/data_pin/, or on a build without it (404: no view ran) the build's route, remembered
		const couponPosts = () =>
			counting.requests.filter((r) => r.method === 'POST' && /pin\/$/.test(r.url)).map((r) => new URL(r.url).pathname);
		const route = BUILDS[build].couponPath;
		counting.reset();
		const coupon = await charged(() => client.dataCoupons.buy({ network: 'MTN', plan: 2, quantity: 2 }));
		expect(coupon.details.cards).toHaveLength(2);
		expect(couponPosts()).toEqual([...new Set(['/api/data_pin/', route])]);
		counting.reset();
		await charged(() => client.dataCoupons.buy({ network: 'MTN', plan: 3, quantity: 1, nameOnCard: 'Shop' }));
		expect(couponPosts()).toEqual([route]);
		expect((await client.transactions.list('data_coupon')).items.map((r) => r.id)).toContain(coupon.id);
		const [sms] = await client.sms.send({ sender: 'Shop', message: 'Hello', recipients: ['08031234567'] });
		expect(sms.status).toBe('successful');
		expect([...purchaseStatuses]).toEqual([BUILDS[build].purchaseStatus]);
		const history = await client.sms.history();
		expect(history.items[0]).toMatchObject({ sender: 'Shop', recipients: ['08031234567'] });
	});
});
