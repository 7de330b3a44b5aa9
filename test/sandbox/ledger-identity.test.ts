/** Money exactness across purchases, refunds and admin flips; settlement modes; BVN/NIN providers. */
import { FIXTURES } from '../../sandbox/catalog';
import { MTN_1GB_SME, eventually, useSandbox } from './helpers';

const env = useSandbox({ dialect: 'seed', seed: 3 });

/** The ledger must explain the balance: each entry's balanceAfter follows from the previous one. */
async function expectLedgerConsistent(username: string) {
	const ledger = await env.admin.ledger(username);
	let bal = 0;
	for (const e of ledger) {
		bal += e.kind === 'debit' ? -e.amountKobo : e.amountKobo;
		expect(e.balanceAfterKobo).toBe(bal);
	}
	expect(await env.admin.balanceKobo(username)).toBe(bal);
	return ledger;
}

describe('ledger', () => {
	test('purchases append debits with txn refs; admin flip to failed refunds exactly once', async () => {
		const { token } = await env.admin.createUser({ username: 'shop', balance: '1000.00' });
		const data = await env.post('/api/data/', MTN_1GB_SME, { token });
		const air = await env.post(
			'/api/topup/',
			{ network: 2, amount: 101, mobile_number: '08051234567', Ported_number: false, airtime_type: 'VTU' },
			{ token },
		);
		expect(await env.admin.balanceKobo('shop')).toBe(100000 - 25000 - 9848);

		const flipped = await env.admin.setStatus('data', data.json.id, 'failed');
		expect(flipped.Status).toBe('failed');
		expect((await env.get(`/api/data/${data.json.id}`, { token })).json.Status).toBe('failed');
		await expect(env.admin.setStatus('data', data.json.id, 'successful')).rejects.toMatchObject({ status: 409 });
		await env.admin.setStatus('data', data.json.id, 'failed'); // idempotent: no second refund

		const ledger = await expectLedgerConsistent('shop');
		expect(ledger.map((e) => [e.kind, e.amountKobo, e.product])).toEqual([
			['fund', 100000, null],
			['debit', 25000, 'data'],
			['debit', 9848, 'airtime'],
			['refund', 25000, 'data'],
		]);
		expect(ledger[1]).toMatchObject({ txnId: data.json.id, ident: data.json.ident });
		expect(ledger[2].ident).toBe(air.json.ident);
		expect(await env.admin.balanceKobo('shop')).toBe(100000 - 9848);
	});

	test('a sent bulk SMS batch is final: its status cannot be flipped (no refund appears)', async () => {
		const sms = await env.post('/api/sendsms/', {
			sender: 'MyShop',
			recetipient: '08031234567',
			message: 'hi',
			DND: false,
		});
		expect(sms.status).toBe(201);
		const before = await env.admin.balanceKobo('demo');
		await expect(env.admin.setStatus('sms', sms.json.id, 'failed')).rejects.toMatchObject({ status: 409 });
		expect(await env.admin.balanceKobo('demo')).toBe(before);
	});

	test('admin transactions list every product with amount and recipient; filters work', async () => {
		await env.post('/api/data/', MTN_1GB_SME);
		await env.post('/api/epin/', { exam_name: 'NECO', quantity: 1 });
		const all = await env.admin.transactions({ username: 'demo' });
		expect(all.map((t) => [t.product, t.amountKobo, t.recipient, t.Status])).toEqual([
			['data', 25000, '08031234567', 'successful'],
			['exam_pin', 115000, 'NECO', 'successful'],
		]);
		expect(await env.admin.transactions({ product: 'exam_pin' })).toHaveLength(1);
		expect(await env.admin.transactions({ username: 'nobody' })).toHaveLength(0);
		expect((await env.admin.transaction('data', 1)).ident).toBe(all[0].ident);
	});

	test('funding adds a ledger entry', async () => {
		const r = await env.admin.fund('demo', '0.05');
		expect(r.balance).toBe('1000000.05');
		const ledger = await expectLedgerConsistent('demo');
		expect(ledger.at(-1)).toMatchObject({ kind: 'fund', amountKobo: 5 });
	});
});

describe('settlement modes', () => {
	test('processing → successful after delayMs (electricity token appears only then)', async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 150, finalStatus: 'successful' } });
		const r = await env.post('/api/billpayment/', {
			disco_name: 1,
			amount: 1000,
			meter_number: FIXTURES.meter.prepaid,
			MeterType: 'Prepaid',
		});
		expect(r.json).toMatchObject({ Status: 'processing', token: '' });
		expect((await env.get(`/api/billpayment/${r.json.id}`)).json.Status).toBe('processing');
		await eventually(async () =>
			expect((await env.get(`/api/billpayment/${r.json.id}`)).json.Status).toBe('successful'),
		);
		const after = await env.get(`/api/billpayment/${r.json.id}`);
		expect(after.json.token).toMatch(/^\d{4}-/);
		expect(await env.admin.balanceKobo('demo')).toBe(100000000 - 100000);
	});

	test('processing → failed refunds', async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 100, finalStatus: 'failed' } });
		const r = await env.post('/api/data/', MTN_1GB_SME);
		expect(r.json.Status).toBe('processing');
		expect(await env.admin.balanceKobo('demo')).toBe(100000000 - 25000);
		await eventually(async () => expect((await env.get(`/api/data/${r.json.id}`)).json.Status).toBe('failed'));
		expect(await env.admin.balanceKobo('demo')).toBe(100000000);
		const ledger = await expectLedgerConsistent('demo');
		expect(ledger.at(-1)).toMatchObject({ kind: 'refund', amountKobo: 25000, txnId: r.json.id });
	});

	test('immediate mode with finalStatus failed answers failed and refunds at once', async () => {
		await env.admin.setConfig({ settle: { mode: 'immediate', finalStatus: 'failed' } });
		const r = await env.post('/api/data/', MTN_1GB_SME);
		expect(r.json).toMatchObject({ Status: 'failed', balance_before: '1000000.00', balance_after: '999750.00' });
		expect(await env.admin.balanceKobo('demo')).toBe(100000000);
	});
});

describe('identity (BVN / NIN)', () => {
	test('premblyish: found BVN, normalised, fee debited with a ledger entry', async () => {
		const r = await env.get(`/api/validatebvn/?bvn=${FIXTURES.bvn.valid}`);
		expect(r.status).toBe(200);
		expect(r.json).toMatchObject({
			invalid: false,
			name: 'OLUMIDE ADEYEMI BANKOLE',
			first_name: 'Olumide',
			middle_name: 'Adeyemi',
			last_name: 'Bankole',
			phone: '08031112222',
			provider: 'premblyish',
		});
		expect(r.json.raw).toMatchObject({
			status: true,
			response_code: '00',
			data: { bvn: FIXTURES.bvn.valid, firstName: 'Olumide', phoneNumber1: '08031112222' },
		});
		expect(await env.admin.balanceKobo('demo')).toBe(100000000 - 5000);
		const ledger = await expectLedgerConsistent('demo');
		expect(ledger.at(-1)).toMatchObject({ kind: 'debit', amountKobo: 5000, product: 'identity' });
	});

	test('switching to dojahish changes the raw answer, not the normalised fields', async () => {
		const a = (await env.get(`/api/validatenin/?nin=${FIXTURES.nin.valid}`)).json;
		await env.admin.setConfig({ identity_provider: 'dojahish', identity_fee: '25' });
		const b = (await env.get(`/api/validatenin/?nin=${FIXTURES.nin.valid}`)).json;
		expect(a.raw.data).toMatchObject({
			nin: FIXTURES.nin.valid,
			firstname: 'Amina',
			surname: 'Yusuf',
			telephoneno: '08093334444',
		});
		expect(b.raw).toEqual({
			entity: {
				nin: FIXTURES.nin.valid,
				first_name: 'Amina',
				middle_name: 'Bello',
				last_name: 'Yusuf',
				phone_number: '08093334444',
			},
		});
		const pick = ({ invalid, name, first_name, last_name, middle_name, phone }: any) => ({
			invalid,
			name,
			first_name,
			last_name,
			middle_name,
			phone,
		});
		expect(pick(b)).toEqual(pick(a));
		expect(b.provider).toBe('dojahish');
		expect(await env.admin.balanceKobo('demo')).toBe(100000000 - 5000 - 2500);
	});

	test('not found → invalid true (fee still charged); bad format → 400, no fee', async () => {
		const nf = await env.get(`/api/validatebvn/?bvn=${FIXTURES.bvn.invalid}`);
		expect(nf.json).toMatchObject({ invalid: true, provider: 'premblyish', raw: { status: false } });
		await env.admin.setConfig({ identity_provider: 'dojahish' });
		expect((await env.get(`/api/validatenin/?nin=${FIXTURES.nin.invalid}`)).json).toMatchObject({
			invalid: true,
			raw: { error: 'NIN not found' },
		});
		const bad = await env.get('/api/validatebvn/?bvn=123');
		expect(bad.status).toBe(400);
		expect(bad.json.error).toMatch(/11 digits/);
		expect(await env.admin.balanceKobo('demo')).toBe(100000000 - 10000);
	});
});
