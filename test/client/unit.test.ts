/** Unit tests: money, phones, schemas of both dialects, error classification, redaction. */
import { inspect } from 'node:util';
import {
	VtuError,
	classifyResponse,
	detectNetwork,
	formatNaira,
	formatPhone,
	money,
	normalizePhone,
	parseNaira,
	percentOf,
	planSms,
	smsPages,
	tryNormalizePhone,
	tryParseKobo,
	classifyPhone,
} from '../../client';
import { registerSecret } from '../../client/errors';
import { parseUserPayload } from '../../client/products/user';
import { parseAirtime } from '../../client/products/airtime/catalog';
import { parseCable } from '../../client/products/cable/catalog';
import { parseNetworks } from '../../client/products/data/catalog';
import { parseDiscos } from '../../client/products/electricity/catalog';
import { parseExams } from '../../client/products/exam-pin/catalog';
import { parseRecharge } from '../../client/products/recharge-card/catalog';
import { PRODUCTS, productModule } from '../../client/products';
import { buildIndex } from '../../client/catalog';
import { parsePlainNaira } from '../../client/money';
import { resolveNetwork } from '../../client/products/common';
import { resolveDisco } from '../../client/products/electricity/module';
import { parseSmsSend } from '../../client/products/sms/plan';
import { parseCreateDate } from '../../client/purchase';
import { inTight, precisionMs } from '../../client/purchase/clock';

describe('money', () => {
	test.each([
		[250, 25000],
		['250', 25000],
		['250.5', 25050],
		['₦1,250.50', 125050],
		['N100', 10000],
		['NGN 99.99', 9999],
		[1234.5, 123450],
		[0.1, 10],
		['0.07', 7],
		[' 5 ', 500],
		[1e21, 1e23 > Number.MAX_SAFE_INTEGER ? null : 0],
	])('parseNaira(%p) = %p kobo', (input, kobo) => {
		if (kobo === null) expect(() => parseNaira(input)).toThrow(VtuError);
		else expect(parseNaira(input)).toBe(kobo);
	});
	test.each([['1.234'], ['abc'], [''], [NaN], [Infinity], [-5], ['1,2.3.4'], [{}], [null], [0.1 + 0.2]])(
		'parseNaira(%p) is invalid_input',
		(input) => {
			try {
				parseNaira(input);
				throw new Error('no throw');
			} catch (e) {
				expect((e as VtuError).code).toBe('invalid_input');
				expect((e as VtuError).field).toBe('amount');
			}
		},
	);
	test('server amounts are lenient and round half up', () => {
		expect(tryParseKobo('₦239.0')).toBe(23900);
		expect(tryParseKobo('48.95')).toBe(4895);
		expect(tryParseKobo(1234.565)).toBe(123457);
		expect(tryParseKobo('1000.0')).toBe(100000);
		expect(tryParseKobo(null)).toBeNull();
		expect(tryParseKobo('n/a')).toBeNull();
	});
	test('format', () => {
		expect(formatNaira(25050)).toBe('250.50');
		expect(formatNaira(5)).toBe('0.05');
		expect(formatNaira(-150)).toBe('-1.50');
		expect(formatNaira(123456789, { symbol: true, grouping: true })).toBe('₦1,234,567.89');
		expect(money(100)).toEqual({ kobo: 100, naira: '1.00' });
	});
	test('airtime percent math is exact (half up)', () => {
		expect(percentOf(10000, '98')).toBe(9800);
		expect(percentOf(5500, '97.5')).toBe(5363);
		expect(percentOf(5000, '96.5')).toBe(4825);
		expect(percentOf(333, '33.333')).toBe(111);
		expect(percentOf(5_000_000, 98)).toBe(4_900_000);
	});
});

describe('phones', () => {
	test.each([
		['08031234567', '08031234567'],
		['8031234567', '08031234567'],
		['2348031234567', '08031234567'],
		['+234 803 123 4567', '08031234567'],
		['0803-123-4567', '08031234567'],
		['(0803) 123.4567', '08031234567'],
		['+2340803 123 4567', '08031234567'],
		['09161234567', '09161234567'],
	])('normalise %p', (a, b) => expect(normalizePhone(a)).toBe(b));
	test.each([['0803123456'], ['080312345678'], ['06031234567'], ['abc'], [''], ['+1 803 123 4567'], ['0203123456']])(
		'reject %p',
		(a) => {
			expect(tryNormalizePhone(a)).toBeNull();
			expect(() => normalizePhone(a)).toThrow(/Nigerian mobile number/);
		},
	);
	test.each([
		['08031234567', 'MTN'],
		['07025123456', 'MTN'],
		['07026123456', 'MTN'],
		['07041234567', 'MTN'],
		['09161234567', 'MTN'],
		['08051234567', 'GLO'],
		['09151234567', 'GLO'],
		['08021234567', 'AIRTEL'],
		['09121234567', 'AIRTEL'],
		['08091234567', '9MOBILE'],
		['09081234567', '9MOBILE'],
		['07027123456', null],
		['08001234567', null],
	])('network of %p is %p', (p, n) => expect(detectNetwork(p)).toBe(n));
	test('format', () => {
		expect(formatPhone('+2348031234567')).toBe('0803 123 4567');
		expect(formatPhone('nope')).toBe('nope');
	});
});

describe('sms planning', () => {
	test('pages follow the family boundaries', () => {
		expect([1, 160, 161, 304, 305, 454, 455, 605, 606, 755, 756, 905].map((n) => smsPages('x'.repeat(n)))).toEqual([
			1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
		]);
	});
	test('normalises, dedupes, lists invalid, prices exactly, batches', () => {
		const rates = { perPage: money(180), dndPerPage: money(350) };
		const p = planSms(
			{
				sender: 'Shop1',
				message: 'x'.repeat(200),
				recipients: '08031234567, +2348031234567,0805 123 4567,123, 0909-123-4567',
			},
			rates,
			2,
		);
		expect(p.recipients).toEqual(['08031234567', '08051234567', '09091234567']);
		expect(p.invalid).toEqual(['123']);
		expect(p.duplicates).toBe(1);
		expect(p.pages).toBe(2);
		expect(p.cost).toEqual(money(3 * 2 * 180));
		expect(p.batches).toEqual([['08031234567', '08051234567'], ['09091234567']]);
		expect(planSms({ sender: 'A', message: 'hi', recipients: ['08031234567'], dnd: true }, rates).cost.kobo).toBe(350);
	});
	test("pages count characters like the site's Python len (an emoji is one), never UTF-16 units", () => {
		expect(smsPages('😀'.repeat(100))).toBe(1);
		expect(smsPages('😀'.repeat(160))).toBe(1);
		expect(smsPages('😀'.repeat(161))).toBe(2);
		expect(smsPages('₦'.repeat(905))).toBe(6);
	});
	test(
		'refused numbers carry their reason; toll-free, premium and fixed-line ranges are refused; ' +
			'Unicode characters listed',
		() => {
			const rates = { perPage: money(180), dndPerPage: money(350) };
			const p = planSms(
				{
					sender: 'Shop1',
					message: 'Pay ₦500 now 😀',
					recipients: ['08031234567', ' ', '0803ABC4567', '0803123', '08001234567', '07001234567', '07111234567'],
				},
				rates,
			);
			expect(p.recipients).toEqual(['08031234567']);
			expect(p.rejected).toEqual([
				{ input: '0803ABC4567', reason: 'letters' },
				{ input: '0803123', reason: 'wrong length' },
				{ input: '08001234567', reason: 'not a Nigerian mobile prefix' },
				{ input: '07001234567', reason: 'not a Nigerian mobile prefix' },
				{ input: '07111234567', reason: 'not a Nigerian mobile prefix' },
			]);
			expect(p.invalid).toEqual(p.rejected.map((r) => r.input));
			expect(p.unicode).toEqual(['₦', '😀']);
			expect(
				planSms({ sender: 'A', message: 'Plain {GSM} text, N500 [ok] €', recipients: '08031234567' }, rates).unicode,
			).toEqual([]);
		},
	);
	test.each([
		['', 'blank'],
		['abc', 'letters'],
		['0803123', 'wrong length'],
		['080312345678', 'wrong length'],
		['08001234567', 'not a Nigerian mobile prefix'],
		['07001234567', 'not a Nigerian mobile prefix'],
		['07027123456', 'not a Nigerian mobile prefix'],
		['+234 800 123 4567', 'not a Nigerian mobile prefix'],
	])('classifyPhone(%p) → %p, consistent with detectNetwork', (input, problem) => {
		expect(classifyPhone(input)).toEqual({ problem });
	});
	test('classifyPhone accepts exactly the numbers detectNetwork knows', () => {
		for (const p of [
			'08031234567',
			'07025123456',
			'09161234567',
			'08051234567',
			'09121234567',
			'09081234567',
			'+2348031234567',
		]) {
			expect(classifyPhone(p)).toEqual({ phone: tryNormalizePhone(p), network: detectNetwork(p) });
		}
	});
});

describe('schemas: profile', () => {
	test('flat seed profile with string balance', () => {
		const { profile } = parseUserPayload({
			username: 'u',
			FullName: 'F',
			Account_Balance: '1234.50',
			user_type: 'API',
			Phone: '0803',
			email: 'e',
		});
		expect(profile).toMatchObject({
			username: 'u',
			userType: 'API',
			isApiUser: true,
			balance: { kobo: 123450, naira: '1234.50' },
		});
	});
	test('nested family profile with float balance and leaks', () => {
		const { profile, root } = parseUserPayload({
			user: {
				id: 1,
				username: 'u',
				FullName: 'F',
				Account_Balance: 1234.5,
				user_type: 'Smart Earner',
				password: 'pbkdf2$x',
				pin: '1234',
			},
			Exam: {},
		});
		expect(profile.balance.kobo).toBe(123450);
		expect(profile.isApiUser).toBe(false);
		expect(root.Exam).toEqual({});
		expect(JSON.stringify(profile)).not.toMatch(/pbkdf2|1234"/);
	});
	test('garbage is bad_response, not a crash', () => {
		expect(() => parseUserPayload({ nope: 1 })).toThrow(expect.objectContaining({ code: 'bad_response' }));
		expect(() => parseUserPayload('<html>')).toThrow(expect.objectContaining({ code: 'bad_response' }));
	});
});

describe('schemas: catalogue', () => {
	const familyNet = {
		MTN: {
			network_info: { id: 1, name: 'MTN' },
			data_plans: [
				{
					id: 7,
					network_id: 1,
					plan_size: 1.0,
					plan_Volume: 'GB',
					plan_amount: 280,
					Affilliate_price: 265,
					TopUser_price: 258,
					api_price: 250,
					plan_type: 'SME',
					month_validate: '30 days',
				},
				{
					id: 9,
					network_id: 1,
					plan_size: 10.0,
					plan_Volume: 'GB',
					plan_amount: 2800,
					api_price: 2500,
					plan_type: 'CG',
					month_validate: '30 days (NOT AVAILABLE)',
				},
			],
		},
		'9MOBILE': { network_info: { id: 3, name: '9MOBILE' }, data_plans: [] },
	};
	test('family plan rows: price column per user type', () => {
		const api = parseNetworks(familyNet, 'API');
		expect(api[0].plans[0]).toMatchObject({
			id: 7,
			size: '1GB',
			kind: 'SME',
			price: { kobo: 25000 },
			available: true,
			label: '1GB SME ₦250.00 (30 days)',
		});
		expect(api[0].plans[1]).toMatchObject({ kind: 'CORPORATE GIFTING', available: false, validity: '30 days' });
		expect(parseNetworks(familyNet, 'Affilliate')[0].plans[0].price.kobo).toBe(26500);
		expect(parseNetworks(familyNet, 'TopUser')[0].plans[0].price.kobo).toBe(25800);
		expect(parseNetworks(familyNet, 'Smart Earner')[0].plans[0].price.kobo).toBe(28000);
	});
	test('seed plan rows: two-decimal strings', () => {
		const n = parseNetworks(
			{
				GLO: {
					network_info: { id: 2, name: 'GLO' },
					data_plans: [
						{
							id: 12,
							plan_size: '1.35',
							plan_Volume: 'GB',
							plan_amount: '460.00',
							plan_type: 'GIFTING',
							month_validate: '14 days',
						},
					],
				},
			},
			'API',
		);
		expect(n[0].plans[0]).toMatchObject({ size: '1.35GB', price: { kobo: 46000 }, networkId: 2 });
	});
	test('cable: get/cable and legacy Cableplan', () => {
		const a = parseCable({
			GOTV: { cable_id: 1, plans: [{ id: 1, cablename_id: 1, package: 'GOtv Smallie', plan_amount: '1560.00' }] },
		});
		expect(a[0].packages[0]).toMatchObject({ id: 1, providerId: 1, provider: 'GOTV', price: { kobo: 156000 } });
		const b = parseCable({
			GOTVPLAN: [{ id: 2, cableplan_id: '2', cable: 'GOTV', package: 'Jinja', plan_amount: '₦3280.0' }],
			STARTIMEPLAN: [],
			cablename: [
				{ id: 1, name: 'GOTV' },
				{ id: 3, name: 'STARTIME' },
			],
		});
		expect(b.find((x) => x.name === 'GOTV')!.packages[0].price.kobo).toBe(328000);
	});
	test('discos: plans and disko', () => {
		expect(parseDiscos({ plans: [{ id: 1, name: 'Ikeja Electric', p_id: 'x', commission: 1 }] })).toEqual([
			{ id: 1, name: 'Ikeja Electric' },
		]);
		expect(parseDiscos({ disko: [{ id: 2, name: 'Eko Electric' }] })).toEqual([{ id: 2, name: 'Eko Electric' }]);
	});
	test('exams: newer object and older list', () => {
		expect(parseExams({ WAEC: { amount: '3300.00' } })[0]).toEqual({ exam: 'WAEC', price: money(330000) });
		expect(parseExams([{ exam_name: 'NECO', amount: 1150 }])[0]).toEqual({ exam: 'NECO', price: money(115000) });
	});
	test('airtime: newer object and older list', () => {
		expect(parseAirtime({ GLO: { VTU: '97.5', 'Share and Sell': 96 } }, new Map())).toEqual([
			{ network: 'GLO', vtuPercent: '97.5', shareAndSellPercent: '96' },
		]);
		expect(parseAirtime([{ network: 1, percent: 98, percent_s: 97 }], new Map([[1, 'MTN']]))).toEqual([
			{ network: 'MTN', vtuPercent: '98', shareAndSellPercent: '97' },
		]);
	});
	test('recharge: legacy mtn_pin rows', () => {
		const r = parseRecharge(
			{ mtn: 500, mtn_pin: [{ id: 1, network_name: 'MTN', amount: '100', amount_to_pay: '98.00' }] },
			new Map([['MTN', 1]]),
		);
		expect(r[0]).toMatchObject({
			id: 1,
			networkId: 1,
			network: 'MTN',
			faceValue: { kobo: 10000 },
			price: { kobo: 9800 },
		});
	});
});

describe('schemas: purchase records', () => {
	test('data (family: ₦ prefix, string balances)', () => {
		const r = PRODUCTS.data.parse(
			{
				id: 5,
				ident: 'Data9b8951f68-352',
				network: 1,
				plan: 7,
				mobile_number: '08031234567',
				Ported_number: false,
				Status: 'Successful',
				balance_before: '1000.0',
				balance_after: '761.0',
				plan_network: 'MTN',
				plan_name: '1.0GB',
				plan_amount: '₦239.0',
				create_date: '2026-02-04T17:34:29.451977',
				api_response: 'ok',
			},
			'direct',
		);
		expect(r).toMatchObject({
			id: 5,
			status: 'successful',
			amount: { kobo: 23900 },
			balanceBefore: { kobo: 100000 },
			recipient: '08031234567',
			message: 'ok',
			details: { plan: 7, planName: '1.0GB' },
		});
	});
	test('airtime charge = paid_amount, face value from amount', () => {
		const r = PRODUCTS.airtime.parse(
			{
				id: 1,
				ident: 'x',
				airtime_type: 'VTU',
				network: 1,
				paid_amount: '98.0',
				amount: '100.0',
				plan_amount: 'N100',
				mobile_number: '08031234567',
				Status: 'processing',
				create_date: '2026-01-01T00:00:00',
			},
			'direct',
		);
		expect(r.amount.kobo).toBe(9800);
		expect((r.details.faceValue as { kobo: number }).kobo).toBe(10000);
		expect(r.status).toBe('processing');
	});
	test('electricity token prefix stripped', () => {
		const r = PRODUCTS.electricity.parse(
			{
				id: 2,
				ident: 'B1',
				amount: '1000.0',
				paid_amount: '990.0',
				meter_number: '45012345678',
				token: 'Token : 1234-5678',
				MeterType: 'Prepaid',
				Status: 'successful',
				create_date: null,
			},
			'direct',
		);
		expect(r.details.token).toBe('1234-5678');
		expect(r.details.meterType).toBe('prepaid');
	});
	test('epin: previous_balance/after_balance, no ident, pins list', () => {
		const r = PRODUCTS.exam_pin.parse(
			{
				id: 3,
				exam_name: 'WAEC',
				quantity: 2,
				Status: 'successful',
				amount: '6600.0',
				previous_balance: '10000.0',
				after_balance: '3400.0',
				pins: ['1', '2'],
				data: 'x',
			},
			'direct',
		);
		expect(r).toMatchObject({
			ident: null,
			balanceBefore: { kobo: 1_000_000 },
			balanceAfter: { kobo: 340_000 },
			details: { pins: ['1', '2'], exam: 'WAEC' },
		});
	});
	test('recharge data_pin rows → cards', () => {
		const r = PRODUCTS.recharge_card.parse(
			{
				id: 4,
				network: 1,
				network_amount: 1,
				quantity: 1,
				amount: '98.0',
				Status: 'successful',
				data_pin: [
					{
						model: 'vtuapp.rechargepin',
						pk: 9,
						fields: { pin: '555', serial: 'SN1', amount: '100', load_code: '*555*555#', network: 'MTN' },
					},
				],
			},
			'direct',
		);
		expect(r.details.cards).toEqual([{ pin: '555', serial: 'SN1', loadCode: '*555*555#', amount: money(10000) }]);
	});
	test('unknown Status or missing id → bad_response', () => {
		expect(() => PRODUCTS.data.parse({ id: 1, Status: 'weird' }, 'direct')).toThrow(
			expect.objectContaining({ code: 'bad_response' }),
		);
		expect(() => PRODUCTS.data.parse({ Status: 'successful' }, 'direct')).toThrow(
			expect.objectContaining({ code: 'bad_response' }),
		);
		expect(() => PRODUCTS.data.parse([], 'direct')).toThrow(expect.objectContaining({ code: 'bad_response' }));
	});
	test('raw never carries a user password or pin', () => {
		const r = PRODUCTS.data.parse(
			{ id: 1, Status: 'successful', user: { username: 'u', password: 'hash', pin: '1234' } },
			'direct',
		);
		expect(JSON.stringify(r.raw)).not.toMatch(/hash|1234/);
	});
	test('legacy bulk SMS 200 {"error":"Message succesfully sent "} is success', () => {
		const plan = planSms(
			{ sender: 'A', message: 'hi', recipients: '08031234567' },
			{ perPage: money(180), dndPerPage: money(350) },
		);
		const { result, needsEnrichment } = parseSmsSend(
			{ error: 'Message succesfully sent ' },
			plan,
			plan.recipients,
			money(180),
			'direct',
		);
		expect(result.status).toBe('successful');
		expect(needsEnrichment).toBe(true);
		expect(() =>
			parseSmsSend(
				{ error: 'insufficient balance, your current balance N1.0' },
				plan,
				plan.recipients,
				money(180),
				'direct',
			),
		).toThrow(expect.objectContaining({ code: 'insufficient_balance' }));
	});
	test('create_date parsing', () => {
		expect(parseCreateDate('2026-02-04T17:34:29.451977')).toEqual({
			ms: Date.UTC(2026, 1, 4, 17, 34, 29, 451),
			absolute: false,
		});
		expect(parseCreateDate('2026-02-04T17:34:29+01:00')!.ms).toBe(Date.UTC(2026, 1, 4, 16, 34, 29));
		expect(parseCreateDate('yesterday')).toBeNull();
	});
});

describe('error classification', () => {
	const c = (status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
		classifyResponse('POST', '/api/data/', status, headers, body);
	test('401 → auth quoting detail', () => {
		const e = c(401, '{"detail":"Invalid token."}');
		expect(e.code).toBe('auth');
		expect(e.message).toMatch(/Invalid token\./);
	});
	test('403 → forbidden explaining both causes', () => {
		const e = c(403, '{"detail":"Your IP address 1.2.3.4 is not whitelisted"}');
		expect(e.code).toBe('forbidden');
		expect(e.message).toMatch(/whitelist/i);
		expect(e.message).toMatch(/user type API/);
		expect(e.message).toMatch(/1\.2\.3\.4 is not whitelisted/);
	});
	test.each([
		['{"error":["invalid plan id 9 for MTN, check here"]}', 'invalid_input', undefined],
		['{"error":"Share and sell not available"}', 'invalid_input', undefined],
		['{"plan":["Invalid pk \\"9\\" - object does not exist."]}', 'invalid_input', 'plan'],
		['{"mobile_number":["This field is required."]}', 'invalid_input', 'phone'],
		[
			'{"error":["You can\'t purchase this plan due to insufficient balance N100 Kindly Fund your Wallet"]}',
			'insufficient_balance',
			undefined,
		],
		['{"error":"insufficient balance, your current balance N1.0"}', 'insufficient_balance', undefined],
	])('400 %s → %s', (body, code, field) => {
		const e = c(400, body);
		expect(e.code).toBe(code);
		expect(e.field).toBe(field);
		expect(e.serverMessage).toBeTruthy();
	});
	test('404 (empty and HTML) → not_found', () => {
		expect(c(404, '').code).toBe('not_found');
		expect(c(404, '<!doctype html><h1>Not Found</h1>', { 'content-type': 'text/html' }).code).toBe('not_found');
	});
	test('429 → rate_limited with retryAfter', () => {
		const e = c(429, '{"detail":"Request was throttled. Expected available in 7 seconds."}', { 'retry-after': '7' });
		expect(e.code).toBe('rate_limited');
		expect(e.retryAfter).toBe(7);
	});
	test('5xx and HTML → server', () => {
		expect(c(500, '<!doctype html><title>Server Error (500)</title>', { 'content-type': 'text/html' }).code).toBe(
			'server',
		);
		expect(c(502, 'Bad gateway', {}).code).toBe('server');
	});
	test('301 → bad_response explaining the redirect', () => {
		const e = c(301, '', { location: '/api/data/' });
		expect(e.code).toBe('bad_response');
		expect(e.message).toMatch(/redirect/);
	});
	test('unparseable 400 → bad_response with status and snippet', () => {
		const e = c(400, 'garbage{');
		expect(e.code).toBe('bad_response');
		expect(e.httpStatus).toBe(400);
		expect(e.snippet).toBe('garbage{');
	});
});

describe('redaction', () => {
	test('registered secrets and Token headers never survive in an error', () => {
		const tok = 'deadbeef'.repeat(5);
		registerSecret(tok);
		const e = new VtuError('server', `boom ${tok} Authorization: Token abcdefabcdef1234`, {
			serverMessage: tok,
			details: { h: { Authorization: `Token ${tok}` } },
		});
		const all = [e.message, JSON.stringify(e), inspect(e, { depth: 10 }), String(e.stack)].join('\n');
		expect(all).not.toContain(tok);
		expect(all).not.toContain('abcdefabcdef1234');
	});
});

describe('plain amounts (purchase inputs) and unambiguous decorations (server values)', () => {
	test.each([
		[100, 10000],
		['100', 10000],
		['100.50', 10050],
		[' 100 ', 10000],
		[0.5, 50],
		['0.05', 5],
		[1234.5, 123450],
	])('parsePlainNaira(%p) = %p kobo', (v, k) => expect(parsePlainNaira(v)).toBe(k));
	test.each([
		[' 1 0 0 ', /not a naira amount/],
		['₦100', /plain number: type 100 /],
		['1,250.50', /plain number: type 1250\.50 /],
		['1,5', /not a naira amount/],
		['100.005', /more than two decimals.*100\.00/],
		[-1, /negative/],
		['1e2', /not a naira amount/],
		[Infinity, /not a naira amount/],
		[{ a: 1 }, /not an object/],
		[[100], /not a list/],
		[true, /not true/],
		['99999999999999', /far too large/],
	])('parsePlainNaira(%p) is invalid_input', (v, msg) => {
		expect(() => parsePlainNaira(v, 'amount')).toThrow(msg);
		expect(() => parsePlainNaira(v, 'amount')).toThrow(
			expect.objectContaining({ code: 'invalid_input', field: 'amount' }),
		);
	});
	test('server-side money keeps the site decorations but never guesses', () => {
		expect(tryParseKobo('₦1,250,000.5')).toBe(125_000_050);
		expect(tryParseKobo('N100')).toBe(10000);
		expect(tryParseKobo(' 1 0 0 ')).toBeNull();
		expect(tryParseKobo('1,5')).toBeNull();
		expect(tryParseKobo('12,50')).toBeNull();
	});
});

describe('names: a site that spells discos its own way', () => {
	const profile = {
		username: 'u',
		fullName: '',
		email: '',
		phone: '',
		userType: 'API',
		isApiUser: true,
		balance: money(0),
	};
	const idx = buildIndex(
		{
			networks: [
				{ id: 1, name: 'MTN', plans: [] },
				{ id: 6, name: 'T2', plans: [] },
			],
			cable: [],
			discos: [
				{ id: 10, name: 'IKEDC' },
				{ id: 11, name: 'Abuja Electricity Distribution Company (AEDC)' },
				{ id: 12, name: 'Eko Electric Prepaid' },
				{ id: 13, name: 'Eko Electric Postpaid' },
				{ id: 14, name: 'Kano' },
				{ id: 15, name: 'KEDCO' },
			],
			exams: [],
			airtime: [],
			sms: { perPage: money(180), dndPerPage: money(350) },
			recharge: [],
		},
		profile,
		0,
	);
	const disco = (v: unknown) => resolveDisco(idx, v);
	test("aliases reach the site's own names", () => {
		expect(disco('Ikeja Electric').id).toBe(10);
		expect(disco('ikeja').id).toBe(10);
		expect(disco('AEDC').id).toBe(11);
		expect(disco('Abuja').id).toBe(11);
		expect(disco('eko electric prepaid').id).toBe(12);
		expect(resolveNetwork(idx, '9mobile').id).toBe(6);
		expect(resolveNetwork(idx, 'Etisalat').id).toBe(6);
	});
	test('an exact name wins over an alias; two entries for one alias are ambiguous', () => {
		expect(disco('Kano').id).toBe(14);
		expect(disco('KEDCO').id).toBe(15);
		expect(() => disco('Kano Electric')).toThrow(
			/fits several entries on this site: Kano \(14\), KEDCO \(15\)\. Type the id/,
		);
	});
	test('no prefixes, no cities that are not aliases', () => {
		expect(() => disco('Eko')).toThrow(/disco "Eko" is not an electricity company/);
		expect(() => disco('Ik')).toThrow(/Type one of: IKEDC \(10\)/);
		expect(() => disco('Abakaliki')).toThrow(expect.objectContaining({ code: 'invalid_input', field: 'disco' }));
	});
	test('product names are own keys only', () => {
		for (const p of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', undefined, 7]) {
			expect(() => productModule(p)).toThrow(expect.objectContaining({ code: 'invalid_input', field: 'product' }));
		}
		expect(productModule('data').path).toBe('/api/data/');
	});
});

describe('node transport', () => {
	test("sends the body with its byte length and leaves the caller's (shared) headers object as it was", async () => {
		const { createServer } = await import('node:http');
		const { createNodeTransport } = await import('../../client');
		const seen: { length?: string; body: string }[] = [];
		const server = createServer((req, res) => {
			let body = '';
			req.setEncoding('utf8');
			req.on('data', (c: string) => (body += c));
			req.on('end', () => {
				seen.push({ length: req.headers['content-length'], body });
				res.setHeader('Content-Type', 'application/json');
				res.end('{"ok":true}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const { port } = server.address() as import('node:net').AddressInfo;
			const send = createNodeTransport();
			// frozen: a transport that wrote Content-Length into it would throw here
			const headers = Object.freeze({ Accept: 'application/json', 'Content-Type': 'application/json' });
			const url = `http://127.0.0.1:${port}/api/data/`;
			const bodies = ['{"name":"₦ Ọ̀yọ́"}', '{"n":1}'];
			for (const body of bodies) {
				const res = await send({ method: 'POST', url, headers, body, timeoutMs: 30_000 });
				expect(res.status).toBe(200);
			}
			const get = await send({ method: 'GET', url, headers, timeoutMs: 30_000 });
			expect(get.body).toBe('{"ok":true}');
			expect(seen).toEqual([
				{ length: String(Buffer.byteLength(bodies[0])), body: bodies[0] },
				{ length: String(Buffer.byteLength(bodies[1])), body: bodies[1] },
				{ length: undefined, body: '' },
			]);
			expect(Object.keys(headers)).toEqual(['Accept', 'Content-Type']);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});
});

describe('tight window arithmetic (client/purchase/clock.ts)', () => {
	test('a create_date counts from its precision: seconds, tenths, microseconds, minutes', () => {
		expect(precisionMs('2026-11-24T16:53:28')).toBe(1_000);
		expect(precisionMs('2026-11-24 16:53:28.4')).toBe(100);
		expect(precisionMs('2026-11-24T16:53:28.488000')).toBe(1);
		expect(precisionMs('2026-11-24T16:53')).toBe(60_000);
	});

	test('a date shown to the second may still be inside a window that starts within that second', () => {
		const lo = Date.UTC(2026, 10, 24, 16, 53, 28, 500);
		const w = { lo, hi: lo + 1_000 };
		expect(inTight(w, '2026-11-24T16:53:28')).toBe(true); // true time up to .999
		expect(inTight(w, '2026-11-24T16:53:28.400000')).toBe(false); // shown to the µs: before the window
		expect(inTight(w, '2026-11-24T16:53:29.600000')).toBe(false); // after it
		expect(inTight(w, null)).toBe(true); // no date: cannot be excluded
	});
});
