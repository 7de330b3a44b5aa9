/**
 * Choice fields are looked up by own properties only: names every JS object inherits ("constructor",
 * "toString", "__proto__", …) are refused with the family's 400 field error, never a ₦0 purchase or a 500.
 * And the admin key is random per start unless one is given.
 */
import { SandboxAdmin, SandboxAdminError } from '../../sandbox/admin-client';
import { startSandbox } from '../../sandbox/server';
import { useSandbox } from './helpers';

const INHERITED = [
	'constructor',
	'toString',
	'valueOf',
	'hasOwnProperty',
	'__proto__',
	'__defineGetter__',
	'isPrototypeOf',
];

describe.each(['seed', 'family'] as const)('strict choice lookups (%s dialect)', (dialect) => {
	const env = useSandbox({ dialect, seed: 3 });
	const base = { network: 1, amount: 100, mobile_number: '08031234567', Ported_number: false };

	async function expectNothingBought(): Promise<void> {
		expect(await env.admin.transactions()).toEqual([]);
		expect((await env.admin.ledger()).filter((e) => e.kind !== 'fund')).toEqual([]);
	}

	test.each(INHERITED)('airtime_type %j → 400 "not a valid choice", nothing debited', async (name) => {
		const r = await env.post('/api/topup/', { ...base, airtime_type: name });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ airtime_type: [`"${name}" is not a valid choice.`] });
		await expectNothingBought();
	});

	test('airtime "constructor" with amount 0 is refused, not a ₦0.00 successful purchase', async () => {
		const r = await env.post('/api/topup/', { ...base, amount: 0, airtime_type: 'constructor' });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ airtime_type: ['"constructor" is not a valid choice.'] });
		await expectNothingBought();
	});

	test.each(INHERITED)('exam_name %j → 400 "not a valid choice", not a 500', async (name) => {
		const r = await env.post('/api/epin/', { exam_name: name, quantity: 1 });
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ exam_name: [`"${name}" is not a valid choice.`] });
		await expectNothingBought();
	});

	test.each(INHERITED)('MeterType %j (a choice with aliases) → 400', async (name) => {
		const r = await env.post('/api/billpayment/', {
			disco_name: 1,
			amount: 1000,
			meter_number: '45012345678',
			MeterType: name,
		});
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ MeterType: [`"${name}" is not a valid choice.`] });
		await expectNothingBought();
	});

	test('the real choices still buy (VTU airtime, WAEC pin, MeterType alias "1")', async () => {
		expect((await env.post('/api/topup/', { ...base, airtime_type: 'VTU' })).status).toBe(201);
		expect((await env.post('/api/epin/', { exam_name: 'WAEC', quantity: 1 })).status).toBe(201);
		const bill = await env.post('/api/billpayment/', {
			disco_name: 1,
			amount: 1000,
			meter_number: '45012345678',
			MeterType: '1',
		});
		expect(bill.status).toBe(201);
		expect((await env.admin.transactions()).map((t) => t.product).sort()).toEqual([
			'airtime',
			'electricity',
			'exam_pin',
		]);
	});
});

describe('admin key', () => {
	test('random per start: two sandboxes of the same seed have different keys, neither accepts the other', async () => {
		const a = await startSandbox({ seed: 1 });
		const b = await startSandbox({ seed: 1 });
		try {
			expect(a.adminKey).toMatch(/^adm_[0-9a-f]{32}$/);
			expect(b.adminKey).not.toBe(a.adminKey);
			// same seed → same demo token (the seed still fixes merchant data), but not the admin key
			expect(b.demo.token).toBe(a.demo.token);
			const wrong = new SandboxAdmin(a.baseUrl, b.adminKey);
			await expect(wrong.getConfig()).rejects.toMatchObject({ status: 401 });
			await expect(wrong.getConfig()).rejects.toBeInstanceOf(SandboxAdminError);
			expect((await new SandboxAdmin(a.baseUrl, a.adminKey).getConfig()).dialect).toBe('seed');
		} finally {
			await a.close();
			await b.close();
		}
	});

	test('a given key is used as is; an empty one is refused', async () => {
		const sb = await startSandbox({ adminKey: 'my-fixed-admin-key' });
		try {
			expect(sb.adminKey).toBe('my-fixed-admin-key');
			expect((await new SandboxAdmin(sb.baseUrl, 'my-fixed-admin-key').getConfig()).dialect).toBe('seed');
		} finally {
			await sb.close();
		}
		await expect(startSandbox({ adminKey: ' ' })).rejects.toThrow('adminKey must not be empty');
	});
});
