/** Every fault kind over real sockets, what it debits, the fault log, matching and determinism. */
import { request } from 'node:http';
import { startSandbox } from '../../sandbox/server';
import { MTN_1GB_SME, eventually, useSandbox } from './helpers';

const env = useSandbox({ dialect: 'seed', seed: 11 });
const START = 100000000;

const buy = () => env.post('/api/data/', MTN_1GB_SME);

describe('fault kinds', () => {
	test('latency delays the answer, which is otherwise normal', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'latency', latencyMs: 250, count: 1 });
		const t0 = Date.now();
		const r = await env.get('/api/user/');
		// A lower bound only: load can make the answer later, never earlier.
		expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
		expect(r.status).toBe(200);
		expect(await env.admin.faults()).toEqual([]); // count 1: spent
		expect((await env.get('/api/user/')).status).toBe(200);
		expect((await env.admin.faultLog()).map((e) => [e.kind, e.request, e.httpStatus])).toEqual([
			['latency', 'GET /api/user/', 200],
		]);
	});

	test('rate_limit: 429, Retry-After header and DRF throttle text; nothing bought', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'rate_limit', retryAfterSeconds: 7, count: 1 });
		const r = await buy();
		expect(r.status).toBe(429);
		expect(r.headers.get('retry-after')).toBe('7');
		expect(r.json).toEqual({ detail: 'Request was throttled. Expected available in 7 seconds.' });
		expect(await env.admin.balanceKobo('demo')).toBe(START);
		expect((await buy()).status).toBe(201);
	});

	test('error_before: 500 HTML and nothing debited or recorded', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		const r = await buy();
		expect(r.status).toBe(500);
		expect(r.text).toContain('<h1>Server Error (500)</h1>');
		expect(await env.admin.transactions()).toHaveLength(0);
		expect(await env.admin.balanceKobo('demo')).toBe(START);
	});

	test('refuse_field: a DRF field error naming the field; nothing debited or recorded; needs its field', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'refuse_field', field: 'mobile_number', count: 1 });
		const r = await buy();
		expect(r.status).toBe(400);
		expect(r.json).toEqual({ mobile_number: ['Enter a valid value.'] });
		expect(await env.admin.transactions()).toHaveLength(0);
		expect(await env.admin.balanceKobo('demo')).toBe(START);
		expect((await env.admin.faultLog()).map((e) => [e.kind, e.httpStatus, e.debitedKobo])).toEqual([
			['refuse_field', 400, 0],
		]);
		expect((await buy()).status).toBe(201); // one-shot: the same number is bought next time
		await expect(env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'refuse_field' })).rejects.toMatchObject({
			status: 400,
		});
	});

	test('timeout_after: debited and recorded, no answer until the client gives up', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		const t0 = Date.now();
		const res = fetch(`${env.sb.baseUrl}/api/data/`, {
			method: 'POST',
			body: JSON.stringify(MTN_1GB_SME),
			signal: AbortSignal.timeout(400),
			headers: { authorization: `Token ${env.sb.demo.token}`, 'content-type': 'application/json' },
		});
		await expect(res).rejects.toThrow(/abort|timeout/i);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
		const txns = await env.admin.transactions({ username: 'demo' });
		expect(txns).toHaveLength(1);
		expect(txns[0]).toMatchObject({ product: 'data', Status: 'successful', amountKobo: 25000 });
		expect(await env.admin.balanceKobo('demo')).toBe(START - 25000);
		const log = await env.admin.faultLog();
		expect(log[0]).toMatchObject({
			kind: 'timeout_after',
			request: 'POST /api/data/',
			httpStatus: null,
			product: 'data',
			txnId: 1,
			debitedKobo: 25000,
			username: 'demo',
		});
	});

	test('reset_after: debited, then the connection is destroyed', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
		await expect(
			env.post('/api/topup/', {
				network: 1,
				amount: 100,
				mobile_number: '08031234567',
				Ported_number: false,
				airtime_type: 'VTU',
			}),
		).rejects.toThrow(/fetch failed|socket|other side closed/i);
		expect(await env.admin.balanceKobo('demo')).toBe(START - 9800);
		expect((await env.admin.transactions({ product: 'airtime' }))[0].Status).toBe('successful');
	});

	test('html_after: debited, then a 500 HTML page', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'html_after', count: 1 });
		const r = await buy();
		expect(r.status).toBe(500);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);
		expect(await env.admin.balanceKobo('demo')).toBe(START - 25000);
		// The client would reconcile through the list: the record is there.
		expect((await env.get('/api/data/')).json.results[0]).toMatchObject({
			Status: 'successful',
			mobile_number: '08031234567',
		});
	});

	test('flip_later: answers successful (even in processing mode), flips to failed with a refund', async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 5000 } });
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'flip_later', latencyMs: 150, count: 1 });
		const r = await buy();
		expect(r.status).toBe(201);
		expect(r.json.Status).toBe('successful');
		await eventually(async () => expect((await env.get(`/api/data/${r.json.id}`)).json.Status).toBe('failed'));
		// Debited when it answered, refunded at the flip (the ledger keeps the order, whatever the machine's speed).
		expect(await env.admin.balanceKobo('demo')).toBe(START);
		const ledger = await env.admin.ledger('demo');
		expect(ledger.map((e) => [e.kind, e.amountKobo])).toEqual([
			['fund', START],
			['debit', 25000],
			['refund', 25000],
		]);
	});
});

describe('fault rules', () => {
	test('endpoint matching: method + path (slash-insensitive), "POST *", "*"', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/topup', kind: 'error_before' });
		expect((await buy()).status).toBe(201);
		expect((await env.post('/api/topup/', {})).status).toBe(500);
		await env.admin.clearFaults();
		await env.admin.addFault({ endpoint: 'POST *', kind: 'rate_limit' });
		expect((await env.get('/api/user/')).status).toBe(200);
		expect((await buy()).status).toBe(429);
		await env.admin.clearFaults();
		await env.admin.addFault({ endpoint: 'GET /api/data/:id', kind: 'error_before' });
		expect((await env.get('/api/data/')).status).toBe(200);
		expect((await env.get('/api/data/1')).status).toBe(500);
		await env.admin.clearFaults();
		await env.admin.addFault({ endpoint: '*', kind: 'rate_limit' });
		expect((await env.get('/api/get/disco/')).status).toBe(429);
		// The admin API is never faulted.
		expect(await env.admin.faults()).toHaveLength(1);
	});

	test('count spends hits and removes the rule; remove by id; clear', async () => {
		const f = await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', count: 2 });
		expect(f).toMatchObject({ id: 1, remaining: 2, probability: 1 });
		expect((await env.get('/api/user/')).status).toBe(500);
		expect((await env.admin.faults())[0]).toMatchObject({ remaining: 1, hits: 1 });
		expect((await env.get('/api/user/')).status).toBe(500);
		expect(await env.admin.faults()).toEqual([]);
		expect((await env.get('/api/user/')).status).toBe(200);
		const g = await env.admin.addFault({ endpoint: '*', kind: 'latency' });
		await env.admin.removeFault(g.id);
		expect(await env.admin.faults()).toEqual([]);
		expect((await env.admin.faultLog()).map((e) => e.httpStatus)).toEqual([500, 500]);
	});

	test('probability rolls come from the seeded RNG: same seed, same pattern', async () => {
		const run = async () => {
			await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', probability: 0.5 });
			const out: number[] = [];
			for (let i = 0; i < 40; i++) out.push((await env.get('/api/user/')).status);
			return out;
		};
		const a = await run();
		await env.admin.reset();
		const b = await run();
		expect(b).toEqual(a);
		const hits = a.filter((s) => s === 500).length;
		expect(hits).toBeGreaterThan(8);
		expect(hits).toBeLessThan(32);
		expect((await env.admin.faultLog()).length).toBe(hits);
	});
});

test('close() does not wait for a held timeout_after socket', async () => {
	const sb = await startSandbox({ seed: 5 });
	sb.state.faults.add({ endpoint: 'POST /api/data/', kind: 'timeout_after' });
	const pending = new Promise<string>((resolve) => {
		const req = request(
			`${sb.baseUrl}/api/data/`,
			{
				method: 'POST',
				headers: { authorization: `Token ${sb.demo.token}`, 'content-type': 'application/json' },
			},
			() => resolve('answered'),
		);
		req.on('error', () => resolve('closed'));
		req.end(JSON.stringify(MTN_1GB_SME));
	});
	await eventually(() => expect(sb.state.txns.data).toHaveLength(1)); // debited before the hold
	// The held socket never answers by itself: close() resolving at all shows it does not wait for it.
	await sb.close();
	expect(await pending).toBe('closed');
});
