/** Family dialect: the real MSORG shapes and quirks the client has to cope with. */
import { FIXTURES } from '../../sandbox/catalog';
import { MTN_1GB_SME, useSandbox } from './helpers';

const env = useSandbox({ dialect: 'family', seed: 7 });

describe('catalogue (family)', () => {
	test('GET /api/user/ nests the user, leaks pin and a password hash, float balance', async () => {
		const r = await env.get('/api/user/');
		expect(r.status).toBe(200);
		const u = r.json.user;
		expect(u).toMatchObject({
			id: 1,
			username: 'demo',
			user_type: 'API',
			Account_Balance: 1000000,
			wallet_balance: '1000000.00',
			pin: '1234',
		});
		expect(typeof u.Account_Balance).toBe('number');
		expect(u.password).toMatch(/^pbkdf2_sha256\$/);
		expect(r.json.username).toBeUndefined();
		expect(r.json.Dataplans.GLO_PLAN.CORPORATE.map((p: any) => p.id)).toEqual([10, 11, 17]);
		expect(r.json.Cableplan.GOTVPLAN[0]).toEqual({
			id: 1,
			cableplan_id: '1',
			cable: 'GOTV',
			package: 'GOtv Smallie',
			plan_amount: '1560.0',
		});
		expect(r.json.Exam.WAEC).toEqual({ amount: '3300.00' });
		expect(r.json.topuppercentage.MTN).toEqual({ VTU: '98', 'Share and Sell': '97' });
		expect(r.json.recharge['9mobile_pin'][0].id).toBe(9);
	});

	test('GET /api/get/network/ returns raw rows: every tier column, int base price, NOT AVAILABLE marker', async () => {
		const r = await env.get('/api/get/network/');
		const plan = r.json.MTN.data_plans.find((p: any) => p.id === 2);
		expect(plan).toMatchObject({
			id: 2,
			network_id: 1,
			plan_size: 1,
			plan_Volume: 'GB',
			plan_amount: 280,
			Affilliate_price: 265,
			TopUser_price: 258,
			api_price: 250,
			plan_type: 'SME',
		});
		expect(Number.isInteger(plan.plan_amount)).toBe(true);
		expect(r.json.MTN.data_plans.find((p: any) => p.id === 5).api_price).toBe(310.5);
		for (const name of ['MTN', 'GLO', 'AIRTEL', '9MOBILE']) {
			expect(r.json[name].data_plans.filter((p: any) => p.month_validate.includes('(NOT AVAILABLE)'))).toHaveLength(1);
		}
	});

	test('seed-only pricing endpoints do not exist (404 page)', async () => {
		for (const p of ['exam', 'airtime', 'sms', 'recharge']) {
			const r = await env.get(`/api/get/${p}/`);
			expect(r.status).toBe(404);
			expect(r.text).toContain('Not Found');
		}
	});
});

describe('purchases (family)', () => {
	test('data: ₦-prefixed plan_amount and Python-float balances', async () => {
		const r = await env.post('/api/data/', MTN_1GB_SME);
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			plan_amount: '₦250.0',
			balance_before: '1000000.0',
			balance_after: '999750.0',
			plan_name: '1.0GB',
			Status: 'successful',
		});
		expect((await env.get('/api/user/')).json.user.Account_Balance).toBe(999750);
	});

	test('airtime: ₦ plan_amount, exact percent charge', async () => {
		const r = await env.post('/api/topup/', {
			network: 3,
			amount: '150',
			mobile_number: '08091234567',
			Ported_number: false,
			airtime_type: 'VTU',
		});
		expect(r.json).toMatchObject({
			plan_amount: '₦150',
			paid_amount: '144.75',
			amount: '150.0',
			plan_network: '9MOBILE',
		});
	});

	test('electricity: token carries the "Token : " prefix', async () => {
		const r = await env.post('/api/billpayment/', {
			disco_name: 3,
			amount: 500,
			meter_number: FIXTURES.meter.prepaid,
			MeterType: 'Prepaid',
		});
		expect(r.json.token).toMatch(/^Token : \d{4}(-\d{4}){4}$/);
	});

	test('exam pins: no ident in the family', async () => {
		const r = await env.post('/api/epin/', { exam_name: 'NABTEB', quantity: 1 });
		expect(r.status).toBe(201);
		expect(r.json.ident).toBeUndefined();
		expect(r.json).toMatchObject({ amount: '900.0', pins: [expect.stringMatching(/^\d{12}$/)] });
	});

	test('bulk SMS: 200 with the success text under "error", hard-coded ₦1.80 even for other tiers', async () => {
		const { token } = await env.admin.createUser({ username: 'retail', user_type: 'Smart Earner', balance: '100.00' });
		const r = await env.post(
			'/api/sendsms/',
			{ sender: 'Shop', recetipient: '08031234567,08051234567', message: 'hello', DND: false },
			{ token },
		);
		expect(r.status).toBe(200);
		expect(r.json).toEqual({ error: 'Message succesfully sent ' });
		expect(await env.admin.balanceKobo('retail')).toBe(10000 - 360);
		const hist = await env.get('/api/sendsms/', { token });
		expect(hist.json.results[0]).toMatchObject({ to: '2348031234567,2348051234567', amount: '3.6', total: 2, page: 1 });
		expect((await env.get('/api/sms/', { token })).status).toBe(500);
	});

	test('bulk SMS pages are characters as Python len counts them: 100 emoji is one page, 161 is two', async () => {
		const { token } = await env.admin.createUser({ username: 'emoji', user_type: 'Smart Earner', balance: '100.00' });
		for (const [n, kobo] of [
			[100, 180],
			[161, 360],
		] as const) {
			const before = await env.admin.balanceKobo('emoji');
			const r = await env.post(
				'/api/sendsms/',
				{ sender: 'Shop', recetipient: '08031234567', message: '😀'.repeat(n), DND: false },
				{ token },
			);
			expect(r.status).toBe(200);
			expect(before - (await env.admin.balanceKobo('emoji'))).toBe(kobo);
		}
	});

	test('no user-type rule in the family: every tier uses its token and pays its own price', async () => {
		const { token } = await env.admin.createUser({ username: 'aff', user_type: 'Affilliate', balance: '1000.00' });
		const r = await env.post('/api/data/', MTN_1GB_SME, { token });
		expect(r.status).toBe(201);
		expect(r.json.plan_amount).toBe('₦265.0');
		expect((await env.get('/api/user/', { token })).json.Dataplans.MTN_PLAN.ALL[1].plan_amount).toBe('265.0');
		expect((await env.get('/api/get/cable/', { token })).json.GOTV.plans[0].plan_amount).toBe('1570.00');
	});
});

describe('lists and validation (family)', () => {
	test('?search= is ignored: page 1 of the list comes back', async () => {
		const a = await env.post('/api/data/', MTN_1GB_SME);
		await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '08061111111' });
		const r = await env.get(`/api/data/?search=${a.json.ident}`);
		expect(r.json.count).toBe(2);
		expect(r.json.results.map((t: any) => t.id)).toEqual([2, 1]);
	});

	test('validateiuc takes the name only: an id → 500 page', async () => {
		expect(
			(await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.GOTV}&cablename=GOTV`)).json.invalid,
		).toBe(false);
		const byId = await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.GOTV}&cablename=1`);
		expect(byId.status).toBe(500);
		expect(byId.headers.get('content-type')).toMatch(/text\/html/);
	});

	test('validatemeter accepts name or id', async () => {
		expect(
			(await env.get(`/api/validatemeter/?meternumber=${FIXTURES.meter.postpaid}&disconame=2&mtype=Postpaid`)).json
				.name,
		).toBe('NGOZI EZE');
		expect(
			(
				await env.get(
					`/api/validatemeter/?meternumber=${FIXTURES.meter.postpaid}&disconame=Eko%20Electric&mtype=Postpaid`,
				)
			).json.name,
		).toBe('NGOZI EZE');
	});
});
