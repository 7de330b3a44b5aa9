/**
 * Slow vendor: a purchase's POST answers only when the vendor finishes, and its debit and record happen
 * then, not at POST time. Capacity: at most N purchases in flight, the others queue.
 * Waits are conditions (the request is in flight, the record exists), never sleeps.
 */
import { eventually, MTN_1GB_SME, useSandbox } from './helpers';

describe('slow vendor', () => {
	const env = useSandbox({ seed: 9 });

	const inFlight = (n: number) => eventually(async () => expect((await env.admin.capacity()).inFlight).toBe(n), 20_000);

	test('config slow_vendor: no record, no debit while the vendor works; both when the POST answers', async () => {
		await env.admin.setConfig({ slow_vendor: { share: 1, minMs: 3000, maxMs: 3000 } });
		const balance = await env.admin.balanceKobo('demo');
		const post = env.post('/api/data/', MTN_1GB_SME);
		await inFlight(1);
		expect(await env.admin.transactions()).toEqual([]);
		expect(await env.admin.balanceKobo('demo')).toBe(balance);
		expect((await env.get('/api/data/')).json.count).toBe(0);
		const r = await post;
		expect(r.status).toBe(201);
		const txns = await env.admin.transactions();
		expect(txns).toHaveLength(1);
		expect(txns[0].id).toBe(r.json.id);
		expect(await env.admin.balanceKobo('demo')).toBe(balance - 250_00);
		expect((await env.admin.ledger('demo')).filter((e) => e.kind === 'debit')).toHaveLength(1);
	});

	test('the vendor finishes even when the client gave up: the record appears later', async () => {
		await env.admin.setConfig({ slow_vendor: { share: 1, minMs: 1500, maxMs: 1500 } });
		const ac = new AbortController();
		const post = fetch(`${env.sb.baseUrl}/api/data/`, {
			method: 'POST',
			signal: ac.signal,
			body: JSON.stringify(MTN_1GB_SME),
			headers: { authorization: `Token ${env.sb.demo.token}`, 'content-type': 'application/json' },
		}).catch((e: Error) => e);
		await inFlight(1);
		ac.abort();
		expect(await post).toMatchObject({ name: 'AbortError' });
		expect(await env.admin.transactions()).toEqual([]);
		await eventually(async () => expect(await env.admin.transactions()).toHaveLength(1), 20_000);
		expect((await env.get('/api/data/')).json.results[0].mobile_number).toBe(MTN_1GB_SME.mobile_number);
	});

	test('the `slow` fault (admin rule or X-Sandbox-Fault: slow:<ms>) slows exactly that purchase', async () => {
		await env.admin.setConfig({ request_faults: true });
		const slow = env.post('/api/data/', MTN_1GB_SME, { headers: { 'x-sandbox-fault': 'slow:2000' } });
		await inFlight(1);
		const quick = await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '08031234568' });
		expect(quick.status).toBe(201);
		expect((await env.admin.transactions()).map((t) => t.recipient)).toEqual(['08031234568']);
		expect((await slow).status).toBe(201);
		const log = await env.admin.faultLog();
		expect(log).toEqual([
			expect.objectContaining({ kind: 'slow', httpStatus: 201, product: 'data', debitedKobo: 250_00 }),
		]);

		await env.admin.addFault({ endpoint: 'POST /api/epin/', kind: 'slow', latencyMs: 1000, count: 1 });
		const pin = env.post('/api/epin/', { exam_name: 'NECO', quantity: 1 });
		await inFlight(1);
		expect(await env.admin.transactions({ product: 'exam_pin' })).toEqual([]);
		expect((await pin).status).toBe(201);
	});

	test('a wallet spent while the vendor worked: the slow purchase is refused at finish, nothing debited', async () => {
		await env.admin.createUser({ username: 'small', balance: '300.00' });
		const { token } = await env.admin.getUser('small');
		await env.admin.setConfig({ request_faults: true });
		const slow = env.post('/api/data/', MTN_1GB_SME, { token, headers: { 'x-sandbox-fault': 'slow:1500' } });
		await inFlight(1);
		expect((await env.post('/api/data/', MTN_1GB_SME, { token })).status).toBe(201);
		const r = await slow;
		expect(r.status).toBe(400);
		expect(r.json.error[0]).toMatch(/^insufficient balance/);
		expect(await env.admin.transactions({ username: 'small' })).toHaveLength(1);
		expect(await env.admin.balanceKobo('small')).toBe(50_00);
	});

	test('bad settings are refused', async () => {
		await expect(env.admin.setConfig({ slow_vendor: { minMs: 5000, maxMs: 1000 } })).rejects.toMatchObject({
			status: 400,
		});
		await expect(env.admin.setConfig({ slow_vendor: { share: 2 } })).rejects.toMatchObject({ status: 400 });
		await expect(env.admin.setConfig({ max_in_flight: 0 })).rejects.toMatchObject({ status: 400 });
	});
});

describe('capacity (max_in_flight)', () => {
	const env = useSandbox({ seed: 10 });

	test('at most N purchases in flight; the rest queue and are served in turn', async () => {
		await env.admin.setConfig({ max_in_flight: 2, slow_vendor: { share: 1, minMs: 1500, maxMs: 1500 } });
		const phones = ['08031234561', '08031234562', '08031234563', '08031234564', '08031234565'];
		const posts = phones.map((p) => env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: p }));
		await eventually(async () => expect(await env.admin.capacity()).toMatchObject({ inFlight: 2, queued: 3 }), 20_000);
		// reads are never queued
		expect((await env.get('/api/data/')).status).toBe(200);
		const answers = await Promise.all(posts);
		expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
		expect(await env.admin.capacity()).toMatchObject({
			max_in_flight: 2,
			inFlight: 0,
			queued: 0,
			peakInFlight: 2,
			queuedTotal: 3,
		});
		expect(await env.admin.transactions()).toHaveLength(5);
	});

	test('unlimited by default', async () => {
		expect((await env.admin.getConfig()).max_in_flight).toBeNull();
		await env.admin.setConfig({ slow_vendor: { share: 1, minMs: 1500, maxMs: 1500 } });
		const posts = ['08031234561', '08031234562', '08031234563'].map((p) =>
			env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: p }),
		);
		await eventually(async () => expect((await env.admin.capacity()).inFlight).toBe(3), 20_000);
		await Promise.all(posts);
		expect((await env.admin.capacity()).queuedTotal).toBe(0);
	});
});
