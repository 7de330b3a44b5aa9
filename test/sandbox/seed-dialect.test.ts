/** Seed dialect: catalogue shapes, every purchase with exact money, business-rule errors, lists and search. */
import { FIXTURES } from '../../sandbox/catalog';
import { MTN_1GB_SME, useSandbox } from './helpers';

const env = useSandbox({ dialect: 'seed', seed: 7 });
const START = 100000000; // demo balance in kobo (₦1,000,000.00)

describe('catalogue (seed)', () => {
	test('GET /api/user/ is flat with a two-decimal balance string plus legacy catalogue keys', async () => {
		const r = await env.get('/api/user/');
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			username: 'demo',
			FullName: 'Demo Merchant',
			Account_Balance: '1000000.00',
			user_type: 'API',
		});
		expect(r.json.user).toBeUndefined();
		expect(r.json.password).toBeUndefined();
		expect(r.json.Dataplans.MTN_PLAN.SME.find((p: any) => p.id === 2)).toMatchObject({
			plan: '1.0GB',
			plan_amount: '250.00',
		});
		expect(r.json.Cableplan.cablename).toEqual([
			{ id: 1, name: 'GOTV' },
			{ id: 2, name: 'DSTV' },
			{ id: 3, name: 'STARTIME' },
		]);
		expect(r.json.recharge.mtn_pin[0]).toEqual({ id: 1, network_name: 'MTN', amount: '100', amount_to_pay: '98.00' });
	});

	test('GET /api/get/network/: tier-priced seed plan objects, family network IDs', async () => {
		const r = await env.get('/api/get/network/');
		expect(Object.keys(r.json)).toEqual(['MTN', 'GLO', 'AIRTEL', '9MOBILE']);
		expect(r.json.MTN.network_info).toEqual({ id: 1, name: 'MTN' });
		expect(r.json.GLO.network_info.id).toBe(2);
		expect(r.json['9MOBILE'].network_info.id).toBe(3);
		expect(r.json.AIRTEL.network_info.id).toBe(4);
		expect(r.json.MTN.data_plans.find((p: any) => p.id === 2)).toEqual({
			id: 2,
			plan_size: '1.0',
			plan_Volume: 'GB',
			plan_amount: '250.00',
			plan_type: 'SME',
			month_validate: '30 days',
		});
		const types = new Set(Object.values(r.json).flatMap((n: any) => n.data_plans.map((p: any) => p.plan_type)));
		expect([...types].sort()).toEqual(['AWOOF', 'CORPORATE GIFTING', 'DATA SHARE', 'GIFTING', 'SME']);
	});

	test('cable, disco and the seed-only pricing endpoints', async () => {
		const cable = await env.get('/api/get/cable/');
		expect(cable.json.GOTV.cable_id).toBe(1);
		expect(cable.json.DSTV.plans[0]).toMatchObject({
			id: 5,
			cablename_id: 2,
			package: 'DStv Padi',
			plan_amount: '3580.00',
		});
		const disco = await env.get('/api/get/disco/');
		expect(disco.json.plans).toHaveLength(12);
		expect(disco.json.plans[0]).toMatchObject({ id: 1, name: 'Ikeja Electric' });
		expect(disco.json.plans[11]).toMatchObject({ id: 12, name: 'Aba Electric' });
		expect((await env.get('/api/get/exam/')).json).toEqual({
			WAEC: { amount: '3300.00' },
			NECO: { amount: '1150.00' },
			NABTEB: { amount: '900.00' },
		});
		expect((await env.get('/api/get/airtime/')).json.GLO).toEqual({ VTU: '97.5', 'Share and Sell': '96' });
		expect((await env.get('/api/get/sms/')).json).toEqual({ rate: '1.80', dnd_rate: '3.50' });
		expect((await env.get('/api/get/recharge/')).json.airtel_pin[3]).toMatchObject({
			id: 16,
			amount: '1000',
			amount_to_pay: '980.00',
		});
	});
});

describe('purchases (seed)', () => {
	test('data: 201 record, API price ₦250.00 debited exactly', async () => {
		const r = await env.post('/api/data/', MTN_1GB_SME);
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			network: 1,
			plan: 2,
			mobile_number: '08031234567',
			Ported_number: false,
			Status: 'successful',
			balance_before: '1000000.00',
			balance_after: '999750.00',
			plan_network: 'MTN',
			plan_name: '1.0GB',
			plan_amount: '250.00',
		});
		expect(r.json.ident).toMatch(/^Data[0-9a-f]{9}-\d+$/);
		expect(r.json.create_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
		expect(await env.admin.balanceKobo('demo')).toBe(START - 25000);
	});

	test('data: "true"/"false" strings for Ported_number; ported skips the prefix check', async () => {
		const glo = { ...MTN_1GB_SME, mobile_number: '08051234567' };
		const wrong = await env.post('/api/data/', { ...glo, Ported_number: 'false' });
		expect(wrong.status).toBe(400);
		expect(wrong.json).toEqual({ error: ['Please check entered number is not MTN user'] });
		const ported = await env.post('/api/data/', { ...glo, Ported_number: 'true' });
		expect(ported.status).toBe(201);
		expect(ported.json.Ported_number).toBe(true);
	});

	test('data: DRF field errors, plan/network mismatch, unavailable plan, 234 numbers', async () => {
		const empty = await env.post('/api/data/', {});
		expect(empty.status).toBe(400);
		expect(empty.json).toEqual({
			network: ['This field is required.'],
			plan: ['This field is required.'],
			mobile_number: ['This field is required.'],
			Ported_number: ['This field is required.'],
		});
		const pk = await env.post('/api/data/', { ...MTN_1GB_SME, plan: 999 });
		expect(pk.json).toEqual({ plan: ['Invalid pk "999" - object does not exist.'] });
		const mismatch = await env.post('/api/data/', { ...MTN_1GB_SME, plan: 10 });
		expect(mismatch.json).toEqual({ error: ['invalid plan id 10 for MTN, check here for available plan list'] });
		const na = await env.post('/api/data/', { ...MTN_1GB_SME, plan: 9 });
		expect(na.json.error[0]).toMatch(/not available/i);
		const intl = await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '2348031234567' });
		expect(intl.status).toBe(400);
		expect(intl.json.error[0]).toMatch(/invalid mobile number/);
		expect(await env.admin.balanceKobo('demo')).toBe(START);
	});

	test('insufficient balance and never-funded accounts: 400, nothing debited', async () => {
		const { token } = await env.admin.createUser({ username: 'poor', balance: '100.00' });
		const r = await env.post('/api/data/', MTN_1GB_SME, { token });
		expect(r.status).toBe(400);
		expect(r.json.error[0]).toBe(
			"You can't purchase this plan due to insufficient balance N100.00 Kindly Fund your Wallet",
		);
		expect(r.json.error[0]).toMatch(/insufficien/);
		const { token: t2 } = await env.admin.createUser({ username: 'never' });
		const n = await env.post('/api/data/', MTN_1GB_SME, { token: t2 });
		expect(n.json.error[0]).toMatch(/No Wallet Funding Record Found/);
		expect(await env.admin.balanceKobo('poor')).toBe(10000);
	});

	test('airtime: charge = amount × tier percent, rounded half up to the kobo', async () => {
		// GLO VTU for API users is 97.5 %: ₦101 × 0.975 = ₦98.475 → ₦98.48.
		const r = await env.post('/api/topup/', {
			network: 2,
			amount: 101,
			mobile_number: '08051234567',
			Ported_number: false,
			airtime_type: 'VTU',
		});
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			airtime_type: 'VTU',
			network: 2,
			paid_amount: '98.48',
			amount: '101.00',
			plan_amount: 'N101',
			plan_network: 'GLO',
			balance_before: '1000000.00',
			balance_after: '999901.52',
			Status: 'successful',
			Ported_number: false,
		});
		const sns = await env.post('/api/topup/', {
			network: 1,
			amount: '200',
			mobile_number: '08031234567',
			Ported_number: false,
			airtime_type: 'Share and Sell',
		});
		expect(sns.json.paid_amount).toBe('194.00');
		expect(await env.admin.balanceKobo('demo')).toBe(START - 9848 - 19400);
	});

	test('airtime: minimums, bad type, and the missing airtime_type 500', async () => {
		const base = { network: 1, mobile_number: '08031234567', Ported_number: false };
		expect((await env.post('/api/topup/', { ...base, amount: 49, airtime_type: 'VTU' })).json).toEqual({
			error: ['minimum airtime topup is N50'],
		});
		expect((await env.post('/api/topup/', { ...base, amount: 99, airtime_type: 'Share and Sell' })).json).toEqual({
			error: ['minimum airtime topup is N100'],
		});
		expect((await env.post('/api/topup/', { ...base, amount: 100, airtime_type: 'Gift' })).json).toEqual({
			airtime_type: ['"Gift" is not a valid choice.'],
		});
		const crash = await env.post('/api/topup/', { ...base, amount: 100 });
		expect(crash.status).toBe(500);
		expect(crash.text).toContain('Server Error (500)');
		expect(await env.admin.balanceKobo('demo')).toBe(START);
	});

	test('cable: tier price, customer name from the IUC, invalid card refused', async () => {
		const r = await env.post('/api/cablesub/', { cablename: 1, cableplan: 2, smart_card_number: FIXTURES.iuc.GOTV });
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			cablename: 1,
			cableplan: 2,
			package: 'GOtv Jinja',
			plan_amount: '3280.00',
			paid_amount: '3280.00',
			smart_card_number: FIXTURES.iuc.GOTV,
			customer_name: 'ADEBAYO OLUWASEUN',
			balance_after: '996720.00',
			Status: 'successful',
		});
		const alias = await env.post('/api/cablesub/', { cablename: 2, plan: 5, smart_card_number: FIXTURES.iuc.DSTV });
		expect(alias.status).toBe(201); // the seed document's `plan` works as an alias
		const mismatch = await env.post('/api/cablesub/', {
			cablename: 1,
			cableplan: 5,
			smart_card_number: FIXTURES.iuc.GOTV,
		});
		expect(mismatch.json.error[0]).toMatch(/invalid plan id 5 for GOTV/);
		const invalid = await env.post('/api/cablesub/', {
			cablename: 1,
			cableplan: 1,
			smart_card_number: FIXTURES.iuc.invalid,
		});
		expect(invalid.json).toEqual({ error: ['INVALID IUC/SMARTCARD'] });
		const letters = await env.post('/api/cablesub/', { cablename: 1, cableplan: 1, smart_card_number: '70AB' });
		expect(Object.keys(letters.json)).toEqual(['smart_card_number']);
	});

	test(
		'electricity: token for prepaid (plain in seed), "" for postpaid, MeterType 1/2 accepted, ' + 'minimum N500',
		async () => {
			const r = await env.post('/api/billpayment/', {
				disco_name: 1,
				amount: '1000.50',
				meter_number: FIXTURES.meter.prepaid,
				MeterType: 1,
				Customer_Phone: '08031234567',
			});
			expect(r.status).toBe(201);
			expect(r.json).toMatchObject({
				package: 'Ikeja Electric',
				disco_name: 1,
				amount: '1000.50',
				paid_amount: '1000.50',
				MeterType: 'Prepaid',
				customer_name: 'BOLA AHMED',
				Customer_Phone: '08031234567',
				balance_after: '998999.50',
			});
			expect(r.json.token).toMatch(/^\d{4}(-\d{4}){4}$/);
			const post = await env.post('/api/billpayment/', {
				disco_name: 2,
				amount: 600,
				meter_number: FIXTURES.meter.postpaid,
				MeterType: 'Postpaid',
			});
			expect(post.json).toMatchObject({ package: 'Eko Electric', token: '', MeterType: 'Postpaid' });
			expect(
				(
					await env.post('/api/billpayment/', {
						disco_name: 1,
						amount: 499,
						meter_number: FIXTURES.meter.prepaid,
						MeterType: 'Prepaid',
					})
				).json,
			).toEqual({ error: ['BELOW MINIMUM AMOUNT ALLOWED (N500)'] });
			expect(
				(
					await env.post('/api/billpayment/', {
						disco_name: 1,
						amount: 900,
						meter_number: FIXTURES.meter.prepaid,
						MeterType: '3',
					})
				).json,
			).toEqual({ MeterType: ['"3" is not a valid choice.'] });
			expect(await env.admin.balanceKobo('demo')).toBe(START - 100050 - 60000);
		},
	);

	test('exam pins: quantity × tier price, pins and raw data, max 5 (seed adds ident)', async () => {
		const r = await env.post('/api/epin/', { exam_name: 'WAEC', quantity: 2 });
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			exam_name: 'WAEC',
			quantity: 2,
			amount: '6600.00',
			previous_balance: '1000000.00',
			after_balance: '993400.00',
			Status: 'successful',
		});
		expect(r.json.pins).toHaveLength(2);
		expect(r.json.pins[0]).toMatch(/^\d{12}$/);
		expect(r.json.data).toContain(r.json.pins[1]);
		expect(r.json.ident).toMatch(/^Exam/);
		expect((await env.get(`/api/epin/${r.json.id}`)).json.pins).toEqual(r.json.pins);
		expect((await env.post('/api/epin/', { exam_name: 'NECO', quantity: 6 })).json).toEqual({
			error: [' MAXIMUM of 5 quantity per transaction'],
		});
	});

	test('recharge cards: denomination row id, data_pin rows, max 39', async () => {
		const r = await env.post('/api/rechargepin/', {
			network: 1,
			network_amount: 1,
			quantity: 3,
			name_on_card: 'Shop A',
		});
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			network: 1,
			network_amount: 1,
			quantity: 3,
			amount: '294.00',
			network_name: 'MTN',
			name_on_card: 'Shop A',
		});
		expect(r.json.data_pin).toHaveLength(3);
		const row = r.json.data_pin[0];
		expect(row).toMatchObject({
			model: 'vtuapp.rechargepin',
			fields: { amount: '100', network: 'MTN', available: false },
		});
		expect(row.fields.load_code).toBe(`*555*${row.fields.pin}#`);
		expect(
			(await env.post('/api/rechargepin/', { network: 1, network_amount: 1, quantity: 40, name_on_card: 'x' })).json,
		).toEqual({ error: [' MAXIMUM of 39 quantity per transaction'] });
		expect(
			(await env.post('/api/rechargepin/', { network: 2, network_amount: 1, quantity: 1, name_on_card: 'x' })).json
				.error[0],
		).toMatch(/invalid network_amount/);
	});

	test('bulk SMS: split on commas, invalid counted, pages × valid × rate (201 record in seed)', async () => {
		const message = 'x'.repeat(161); // 2 pages
		const r = await env.post('/api/sendsms/', {
			sender: 'MyShop',
			recetipient: '08031234567,2348051234567,123, 08031234567',
			message,
			DND: false,
		});
		expect(r.status).toBe(201);
		expect(r.json).toMatchObject({
			sendername: 'MyShop',
			to: '2348031234567,2348051234567',
			page: 2,
			unit: '1.80',
			amount: '7.20',
			total: 2,
			invalid: 2,
			DND: false,
			Status: 'successful',
			balance_after: '999992.80',
		});
		const dnd = await env.post('/api/sendsms/', {
			sender: 'MyShop',
			recetipient: '08031234567',
			message: 'y'.repeat(2000),
			DND: true,
		});
		expect(dnd.json).toMatchObject({ page: 6, amount: '21.00' }); // truncated to 905 chars → 6 pages × ₦3.50
		expect(dnd.json.message).toHaveLength(905);
		expect(
			(await env.post('/api/sendsms/', { sender: 'MyShop', recetipient: '123,456', message: 'hi', DND: false })).json,
		).toEqual({ error: 'No valid Number found' });
		expect(
			Object.keys(
				(await env.post('/api/sendsms/', { sender: 'ABCDEFGHIJKL', recetipient: '08031234567', message: 'hi' })).json,
			),
		).toEqual(['sender']);
		const hist = await env.get('/api/sendsms/');
		expect(hist.json.count).toBe(2);
		expect(Object.keys(hist.json.results[0]).sort()).toEqual([
			'DND',
			'amount',
			'create_date',
			'id',
			'ident',
			'message',
			'page',
			'sendername',
			'to',
			'total',
			'unit',
		]);
		expect((await env.get('/api/sms/')).json.results[1].ident).toBe(r.json.ident);
	});
});

describe('prices per user type', () => {
	test('each tier sees and pays its own price (user-type rule off)', async () => {
		await env.admin.setConfig({ enforce_user_type: false });
		const expected: Record<string, string> = {
			'Smart Earner': '280.00',
			Affilliate: '265.00',
			TopUser: '258.00',
			API: '250.00',
		};
		for (const [i, [user_type, price]] of Object.entries(expected).entries()) {
			const { token } = await env.admin.createUser({
				username: `tier${i}`,
				user_type: user_type as never,
				balance: '1000.00',
			});
			const plans = await env.get('/api/get/network/', { token });
			expect(plans.json.MTN.data_plans.find((p: any) => p.id === 2).plan_amount).toBe(price);
			const r = await env.post('/api/data/', MTN_1GB_SME, { token });
			expect(r.json.plan_amount).toBe(price);
			expect((await env.get('/api/user/', { token })).json.user_type).toBe(user_type);
			expect(await env.admin.balanceKobo(`tier${i}`)).toBe(100000 - Math.round(Number(price) * 100));
		}
		const sms = await env.get('/api/get/sms/', { token: (await env.admin.getUser('tier0')).token });
		expect(sms.json).toEqual({ rate: '2.00', dnd_rate: '4.00' });
	});
});

describe('lists, pagination and search (seed)', () => {
	test('15 per page, newest first, next/previous links, invalid page', async () => {
		for (let i = 0; i < 17; i++)
			await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: `080312345${String(i).padStart(2, '0')}` });
		const p1 = await env.get('/api/data/');
		expect(p1.json.count).toBe(17);
		expect(p1.json.results).toHaveLength(15);
		expect(p1.json.results[0].mobile_number).toBe('08031234516');
		expect(p1.json.results[14].mobile_number).toBe('08031234502');
		expect(p1.json.previous).toBeNull();
		expect(p1.json.next).toBe(`${env.sb.baseUrl}/api/data/?page=2`);
		const p2 = await env.get('/api/data/?page=2');
		expect(p2.json.results.map((t: any) => t.mobile_number)).toEqual(['08031234501', '08031234500']);
		expect(p2.json.next).toBeNull();
		expect(p2.json.previous).toBe(`${env.sb.baseUrl}/api/data/`);
		const p3 = await env.get('/api/data/?page=3');
		expect(p3.status).toBe(404);
		expect(p3.json).toEqual({ detail: 'Invalid page.' });
		expect((await env.get('/api/topup/')).json).toEqual({ count: 0, next: null, previous: null, results: [] });
	});

	test('?search= filters by ident, id or recipient and returns an unpaginated list', async () => {
		const a = await env.post('/api/data/', MTN_1GB_SME);
		await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '08069999999' });
		await env.post('/api/data/', MTN_1GB_SME);
		const byIdent = await env.get(`/api/data/?search=${a.json.ident}`);
		expect(byIdent.json).toEqual([a.json]);
		const byPhone = await env.get('/api/data/?search=08031234567');
		expect(byPhone.json.map((t: any) => t.id)).toEqual([3, 1]);
		expect((await env.get('/api/data/?search=2')).json.map((t: any) => t.id)).toEqual([2]);
		expect((await env.get('/api/data/?search=nope')).json).toEqual([]);
	});
});

describe('validation endpoints (seed)', () => {
	test('validateiuc by name or id; anonymous allowed; unknown cable → 500', async () => {
		expect((await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.GOTV}&cablename=GOTV`)).json).toEqual({
			invalid: false,
			name: 'ADEBAYO OLUWASEUN',
		});
		expect(
			(await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.DSTV}&cablename=2`, { token: null })).json,
		).toEqual({ invalid: false, name: 'CHIOMA OKAFOR' });
		expect(
			(await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.invalid}&cablename=GOTV`)).json.invalid,
		).toBe(true);
		expect(
			(await env.get(`/api/validateiuc/?smart_card_number=${FIXTURES.iuc.STARTIME}&cablename=STARTIMES`)).json.name,
		).toBe('IBRAHIM MUSA');
		expect((await env.get('/api/validateiuc/?smart_card_number=1&cablename=TSTV')).status).toBe(500);
		expect((await env.get('/api/validateiuc/?smart_card_number=1&cablename=GOTV', { token: 'bad' })).status).toBe(401);
	});

	test('validatemeter by disco name or id', async () => {
		const byName = await env.get(
			`/api/validatemeter/?meternumber=${FIXTURES.meter.prepaid}&disconame=Ikeja%20Electric&mtype=Prepaid`,
		);
		expect(byName.json).toMatchObject({ invalid: false, name: 'BOLA AHMED' });
		expect(byName.json.address).not.toBe('');
		const byId = await env.get(`/api/validatemeter/?meternumber=${FIXTURES.meter.prepaid}&disconame=1&mtype=Prepaid`);
		expect(byId.json).toEqual(byName.json);
		expect(
			(await env.get(`/api/validatemeter/?meternumber=${FIXTURES.meter.invalid}&disconame=1&mtype=Prepaid`)).json,
		).toEqual({ invalid: true, name: 'INVALID METER NUMBER', address: '' });
	});
});
