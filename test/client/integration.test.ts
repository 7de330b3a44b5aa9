/** The client against the real sandbox over HTTP, the same suite in both dialects. */
import { VtuError, type PurchaseResult } from '../../client';
import { DIALECTS, startEnv, type Env } from './helpers';

const FIX = {
	iuc: { GOTV: '7012345678', DSTV: '7023456789', invalid: '7010000000' },
	meter: { prepaid: '45012345678', invalid: '45010000000' },
	bvn: { valid: '22212345678', invalid: '22210000000' },
	nin: { valid: '12345678901', invalid: '12345670000' },
};

describe.each(DIALECTS)('client against the %s sandbox', (dialect) => {
	let env: Env;
	beforeAll(async () => {
		env = await startEnv(dialect);
	});
	afterAll(() => env.close());
	const c = () => env.client;

	const expectCharged = async (r: PurchaseResult, before: number) => {
		const after = await env.admin.balanceKobo('demo');
		expect(before - after).toBe(r.amount.kobo);
		if (r.balanceBefore && r.balanceAfter) expect(r.balanceBefore.kobo - r.balanceAfter.kobo).toBe(r.amount.kobo);
	};

	test('profile', async () => {
		const p = await c().user.get();
		expect(p).toMatchObject({ username: 'demo', userType: 'API', isApiUser: true });
		expect(p.balance.kobo).toBe(await env.admin.balanceKobo('demo'));
		expect((await c().user.balance()).kobo).toBe(p.balance.kobo);
	});

	test('catalogue: prices for the API tier, cached once', async () => {
		env.counting.reset();
		const [cat, plans] = await Promise.all([
			c().catalog.get(),
			c().catalog.dataPlans('MTN'),
			...Array.from({ length: 50 }, () => c().catalog.get()),
		]);
		expect(env.counting.requests.filter((r) => r.url.endsWith('/api/get/network/'))).toHaveLength(1);
		expect(cat.networks.map((n) => n.name).sort()).toEqual(['9MOBILE', 'AIRTEL', 'GLO', 'MTN']);
		expect(plans.find((p) => p.id === 2)).toMatchObject({
			size: '1GB',
			kind: 'SME',
			price: { naira: '250.00' },
			available: true,
		});
		expect(plans.find((p) => p.id === 5)!.price.naira).toBe('310.50');
		expect(plans.find((p) => p.id === 9)!.available).toBe(false);
		expect(cat.cable.map((x) => x.name)).toEqual(['GOTV', 'DSTV', 'STARTIME']);
		expect(cat.discos[0]).toEqual({ id: 1, name: 'Ikeja Electric' });
		expect(cat.exams.find((e) => e.exam === 'WAEC')!.price.naira).toBe('3300.00');
		expect(cat.airtime.find((a) => a.network === 'GLO')).toEqual({
			network: 'GLO',
			vtuPercent: '97.5',
			shareAndSellPercent: '96',
		});
		expect(cat.sms).toEqual(
			dialect === 'seed'
				? {
						perPage: { kobo: 180, naira: '1.80' },
						dndPerPage: { kobo: 350, naira: '3.50' },
						sources: { perPage: 'catalogue', dndPerPage: 'catalogue' },
					}
				: {
						perPage: { kobo: 250, naira: '2.50' },
						dndPerPage: { kobo: 350, naira: '3.50' },
						sources: { perPage: 'assumed', dndPerPage: 'assumed' },
					},
		);
		expect(cat.recharge.find((r) => r.id === 13)).toMatchObject({
			network: 'AIRTEL',
			networkId: 4,
			faceValue: { kobo: 10000 },
			price: { kobo: 9800 },
		});
		expect(await c().catalog.dataPlans(2)).toHaveLength(8);
	});

	test('data', async () => {
		const before = await env.admin.balanceKobo('demo');
		const q = await c().quote({ product: 'data', network: 'MTN', plan: 2, phone: '+234 803 123 4567' });
		expect(q).toMatchObject({
			amount: { naira: '250.00' },
			recipient: '08031234567',
			request: { network: 1, plan: 2, mobile_number: '08031234567', Ported_number: false },
		});
		const r = await c().data.buy({ network: 'MTN', plan: 2, phone: '+234 803 123 4567' });
		expect(r).toMatchObject({
			product: 'data',
			status: 'successful',
			path: 'direct',
			amount: { naira: '250.00' },
			recipient: '08031234567',
			details: { plan: 2, network: 'MTN' },
		});
		expect(r.id).toEqual(expect.any(Number));
		expect(r.ident).toEqual(expect.any(String));
		await expectCharged(r, before);
		// ported: a GLO prefix on MTN is allowed and sent as Ported_number true
		const p = await c().data.buy({ network: 'MTN', plan: 1, phone: '08051234567', ported: true });
		expect(p.details.ported).toBe(true);
	});

	test('airtime VTU and Share and Sell, exact percent', async () => {
		const before = await env.admin.balanceKobo('demo');
		const r = await c().airtime.buy({ network: 'GLO', amount: '55', phone: '0805 123 4567' });
		expect(r.amount.naira).toBe('53.63');
		expect(r.details).toMatchObject({ faceValue: { kobo: 5500 }, type: 'VTU' });
		await expectCharged(r, before);
		const q = await c().airtime.quote({
			network: '9MOBILE',
			amount: 100,
			phone: '08091234567',
			type: 'Share and Sell',
		});
		const s = await c().airtime.buy({ network: '9MOBILE', amount: 100, phone: '08091234567', type: 'Share and Sell' });
		expect(s.amount).toEqual(q.amount);
		expect(s.amount.naira).toBe('95.00');
	});

	test('cable: validate then buy', async () => {
		const v = await c().cable.validate({ provider: 'GOTV', iuc: FIX.iuc.GOTV });
		expect(v).toMatchObject({ valid: true, name: 'ADEBAYO OLUWASEUN' });
		expect((await c().cable.validate({ provider: 'dstv', iuc: FIX.iuc.invalid })).valid).toBe(false);
		const before = await env.admin.balanceKobo('demo');
		const r = await c().cable.buy({ provider: 'GOTV', package: 2, iuc: FIX.iuc.GOTV });
		expect(r).toMatchObject({
			status: 'successful',
			recipient: FIX.iuc.GOTV,
			amount: { naira: '3280.00' },
			details: { package: 2, packageName: 'GOtv Jinja', customerName: 'ADEBAYO OLUWASEUN' },
		});
		await expectCharged(r, before);
	});

	test('electricity: validate then buy; token without prefix', async () => {
		const v = await c().electricity.validate({ disco: 'Ikeja', meter: FIX.meter.prepaid, meterType: 'prepaid' });
		expect(v).toMatchObject({ valid: true, name: 'BOLA AHMED' });
		expect(v.address).toBeTruthy();
		expect((await c().electricity.validate({ disco: 2, meter: FIX.meter.invalid, meterType: 'postpaid' })).valid).toBe(
			false,
		);
		const before = await env.admin.balanceKobo('demo');
		const r = await c().electricity.buy({
			disco: 'Ikeja Electric',
			meter: FIX.meter.prepaid,
			meterType: 'prepaid',
			amount: 1500,
			phone: '08031234567',
		});
		expect(r.details.token).toMatch(/^[\d-]+$/);
		expect(r.details.meterType).toBe('prepaid');
		expect(r.recipient).toBe(FIX.meter.prepaid);
		await expectCharged(r, before);
	});

	test('exam pins', async () => {
		const before = await env.admin.balanceKobo('demo');
		const r = await c().examPins.buy({ exam: 'NECO', quantity: 3 });
		expect(r).toMatchObject({
			product: 'exam_pin',
			amount: { naira: '3450.00' },
			details: { exam: 'NECO', quantity: 3 },
		});
		expect(r.details.pins).toHaveLength(3);
		if (dialect === 'family') expect(r.ident).toBeNull();
		await expectCharged(r, before);
		expect((await c().examPins.get(r.id!)).details.pins).toEqual(r.details.pins);
	});

	test('recharge cards', async () => {
		const before = await env.admin.balanceKobo('demo');
		const r = await c().rechargeCards.buy({
			network: 'AIRTEL',
			denomination: 14,
			quantity: 3,
			nameOnCard: 'Mama Shop',
		});
		const cards = r.details.cards as Array<{ pin: string; serial: string; loadCode: string; amount: { kobo: number } }>;
		expect(cards).toHaveLength(3);
		expect(cards[0].loadCode).toContain(cards[0].pin);
		expect(cards[0].amount.kobo).toBe(20000);
		await expectCharged(r, before);
	});

	test('bulk SMS: plan, send (batches), history', async () => {
		const plan = await c().sms.plan({
			sender: 'Shop',
			message: 'x'.repeat(170),
			recipients: '08031234567,0805 123 4567, 0803-123-4567, 12345',
		});
		// the family publishes no SMS rate: until a batch shows it, the plan assumes the highest family tariff and says so
		const first =
			dialect === 'seed'
				? { cost: { naira: '7.20' }, rateSource: 'catalogue' }
				: { cost: { naira: '10.00' }, rateSource: 'assumed' };
		expect(plan).toMatchObject({
			recipients: ['08031234567', '08051234567'],
			invalid: ['12345'],
			duplicates: 1,
			pages: 2,
			...first,
		});
		const before = await env.admin.balanceKobo('demo');
		const small = env.make({ smsBatchSize: 1 });
		const res = await small.sms.send({
			sender: 'Shop',
			message: 'x'.repeat(170),
			recipients: '08031234567,0805 123 4567',
		});
		expect(res).toHaveLength(2);
		for (const r of res) {
			expect(r).toMatchObject({
				product: 'sms',
				status: 'successful',
				amount: { naira: '3.60' },
				details: { pages: 2, sender: 'Shop' },
			});
			expect(r.ident).toEqual(expect.any(String));
		}
		expect(res[0].ident).not.toBe(res[1].ident);
		expect(before - (await env.admin.balanceKobo('demo'))).toBe(720);
		const again = await c().sms.plan({
			sender: 'Shop',
			message: 'x'.repeat(170),
			recipients: '08031234567,08051234567',
		});
		expect(again).toMatchObject({ cost: { naira: '7.20' }, rateSource: dialect === 'seed' ? 'catalogue' : 'learned' });
		const h = await c().sms.history();
		expect(h.items[0]).toMatchObject({
			sender: 'Shop',
			recipients: ['08051234567'],
			pages: 2,
			amount: { naira: '3.60' },
		});
		const one = await c().buy({
			product: 'sms',
			sender: 'Shop',
			message: 'hi',
			recipients: ['08031234567'],
			dnd: true,
		});
		expect(one.amount.naira).toBe('3.50');
	});

	test('identity: BVN and NIN', async () => {
		const b = await c().identity.validateBvn(FIX.bvn.valid);
		expect(b).toMatchObject({
			valid: true,
			kind: 'bvn',
			number: FIX.bvn.valid,
			firstName: 'Olumide',
			lastName: 'Bankole',
			middleName: 'Adeyemi',
			phone: '08031112222',
		});
		expect(b.provider).toBeTruthy();
		expect((await c().identity.validateBvn(FIX.bvn.invalid)).valid).toBe(false);
		const n = await c().identity.validateNin(FIX.nin.valid);
		expect(n).toMatchObject({ valid: true, kind: 'nin', firstName: 'Amina' });
		expect((await c().identity.validateNin(FIX.nin.invalid)).valid).toBe(false);
	});

	test('transactions: get, findByIdent, list, refresh (successful → failed), waitForFinal', async () => {
		const r = await c().data.buy({ network: 'AIRTEL', plan: 27, phone: '08021234567' });
		expect((await c().transactions.get('data', r.id!)).ident).toBe(r.ident);
		expect((await c().transactions.findByIdent('data', r.ident!)).id).toBe(r.id);
		const page = await c().transactions.list('data');
		expect(page.items[0].id).toBe(r.id);
		expect(page.count).toBeGreaterThan(0);
		await env.admin.setStatus('data', r.id!, 'failed');
		const fresh = await c().transactions.refresh(r);
		expect(fresh.status).toBe('failed');
		expect(fresh.details).toMatchObject({ previousStatus: 'successful', refunded: true });
		await expect(c().transactions.get('data', 999999)).rejects.toMatchObject({ code: 'not_found' });
		await expect(c().transactions.findByIdent('data', 'nope-123')).rejects.toMatchObject({ code: 'not_found' });

		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 300, finalStatus: 'successful' } });
		try {
			const p = await c().data.buy(
				{ network: 'MTN', plan: 1, phone: '08031234567' },
				{ waitForFinal: { timeoutMs: 5000, intervalMs: 100 } },
			);
			expect(p.status).toBe('successful');
			const q = await c().rechargeCards.buy({ network: 'MTN', denomination: 1, quantity: 1 });
			expect(q.status).toBe('processing');
			const f = await c().transactions.waitForFinal(q, { timeoutMs: 5000, intervalMs: 100 });
			expect(f.status).toBe('successful');
		} finally {
			await env.admin.setConfig({ settle: { mode: 'immediate' } });
		}
	});

	test('server refusals: insufficient balance and a server-side rule', async () => {
		const { token } = await env.admin.createUser({ username: `poor_${dialect}`, balance: '100.00' });
		const poor = env.make({ token });
		await expect(poor.data.buy({ network: 'MTN', plan: 4, phone: '08031234567' })).rejects.toMatchObject({
			code: 'insufficient_balance',
			httpStatus: 400,
		});
		const { token: t2 } = await env.admin.createUser({ username: `unfunded_${dialect}` });
		await expect(
			env.make({ token: t2 }).data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }),
		).rejects.toMatchObject({
			code: 'invalid_input',
			serverMessage: expect.stringMatching(/No Wallet Funding Record/),
		});
	});

	test('401 and 403 texts', async () => {
		const bad = env.make({ token: 'f'.repeat(40) });
		const e401 = await bad.user.get().catch((e) => e);
		expect(e401).toBeInstanceOf(VtuError);
		expect(e401.code).toBe('auth');
		expect(e401.message).toMatch(/Invalid token/);
		const { token } = await env.admin.createUser({
			username: `wl_${dialect}`,
			balance: '1000',
			whitelist: ['10.9.9.9'],
		});
		const e403 = await env
			.make({ token })
			.user.get()
			.catch((e) => e);
		expect(e403.code).toBe('forbidden');
		expect(e403.message).toMatch(/whitelist/i);
		expect(e403.message).toMatch(/user type API/);
		expect(e403.message).toMatch(/not whitelisted/); // quotes the server
	});
});
