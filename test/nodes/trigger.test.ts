/** VTU Transaction Trigger: real PollContext ('trigger' mode, persisted static data) and a manual run. */
import { VtuClient } from '../../client';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import {
	type PollSettings,
	type TriggerState,
	VtuTransactionTrigger,
	pollOnce,
} from '../../nodes/VtuTransactionTrigger/VtuTransactionTrigger.node';
import { countingTransport } from '../client/helpers';
import { activeTrigger, runNode, runTriggerManually } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const trigger = new VtuTransactionTrigger();
const data = new VtuData();

async function buyData(phone = '08031234567') {
	const r = await runNode(data, { parameters: { operation: 'buy', network: 1, plan: 2, phone }, creds: env.creds() });
	expect(r.error).toBeUndefined();
	return r.items[0].json as { id: number; ident: string; status: string };
}
/** Buys n data plans straight through the client (faster than n node runs); their IDs, oldest first. */
async function buyMany(n: number): Promise<number[]> {
	const client = new VtuClient({ baseUrl: env.sb.baseUrl, token: env.sb.demo.token });
	const ids: number[] = [];
	for (let i = 0; i < n; i++)
		ids.push((await client.buy({ product: 'data', network: 'MTN', plan: 2, phone: `0803${String(5000000 + i)}` })).id!);
	return ids;
}
const events = (out: Awaited<ReturnType<ReturnType<typeof activeTrigger>['poll']>>) =>
	(out?.[0] ?? []).map((i) => `${i.json.event}:${i.json.ident}:${i.json.status}`);

describe('VTU Transaction Trigger', () => {
	test('first poll remembers; new transaction emitted once; re-polls emit nothing', async () => {
		const old = await buyData();
		const t = activeTrigger(trigger, { product: 'data', watch: 'recent' }, env.creds());
		expect(await t.poll()).toBeNull();
		const fresh = await buyData('08031234568');
		expect(events(await t.poll())).toEqual([`new:${fresh.ident}:successful`]);
		expect(await t.poll()).toBeNull();
		expect(await t.poll()).toBeNull();
		const state = t.staticData['node:VTU'] as { t: Record<string, unknown> };
		expect(Object.keys(state.t)).toEqual(expect.arrayContaining([old.ident, fresh.ident]));
	});

	test('processing → successful, then successful → failed (reversal), each emitted exactly once', async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 3_600_000, finalStatus: 'successful' } });
		const t = activeTrigger(trigger, { product: 'data', watch: 'recent' }, env.creds());
		expect(await t.poll()).toBeNull();
		const p = await buyData();
		expect(p.status).toBe('processing');
		expect(events(await t.poll())).toEqual([`new:${p.ident}:processing`]);
		await env.admin.setStatus('data', p.id, 'successful');
		const done = await t.poll();
		expect(events(done)).toEqual([`completed:${p.ident}:successful`]);
		expect(done![0][0].json).toMatchObject({ previousStatus: 'processing', transition: 'processing → successful' });
		expect(await t.poll()).toBeNull();
		await env.admin.setStatus('data', p.id, 'failed');
		const rev = await t.poll();
		expect(events(rev)).toEqual([`reversed:${p.ident}:failed`]);
		expect(await t.poll()).toBeNull();
		expect(await t.poll()).toBeNull();
	});

	test('more new transactions between two polls than Pages to Scan holds: all emitted once (catch-up)', async () => {
		const t = activeTrigger(trigger, { product: 'data', watch: 'recent', options: { pages: 1 } }, env.creds());
		expect(await t.poll()).toBeNull();
		const bought: string[] = [];
		for (let i = 0; i < 40; i++) bought.push((await buyData(`0806123${String(4000 + i)}`)).ident); // 15 per page
		const out = events(await t.poll());
		expect(out.sort()).toEqual(bought.map((id) => `new:${id}:successful`).sort());
		expect(await t.poll()).toBeNull();
	});

	test(
		'a reversal of a transaction far beyond Pages to Scan is emitted once (re-check of watched ' + 'transactions)',
		async () => {
			const t = activeTrigger(trigger, { product: 'data', watch: 'recent', options: { pages: 1 } }, env.creds());
			expect(await t.poll()).toBeNull();
			const old = await buyData('08031234500');
			expect(events(await t.poll())).toEqual([`new:${old.ident}:successful`]);
			await buyMany(60); // 4 pages of newer transactions on top of it
			expect(events(await t.poll())).toHaveLength(60);
			await env.admin.setStatus('data', old.id, 'failed');
			const rev = await t.poll();
			expect(events(rev)).toEqual([`reversed:${old.ident}:failed`]);
			expect(rev![0][0].json).toMatchObject({ previousStatus: 'successful', transition: 'successful → failed' });
			expect(await t.poll()).toBeNull();
			expect(await t.poll()).toBeNull();
		},
	);

	describe('re-check of older watched transactions (pollOnce)', () => {
		const settings = (now: number): PollSettings => ({
			product: 'data',
			watch: 'recent',
			idents: [],
			events: ['new', 'completed', 'failed', 'reversed', 'otherChange'],
			pages: 1,
			maxTracked: 5000,
			emitExisting: false,
			refreshLimit: 20,
			watchHours: 24,
			now,
		});
		const listReads = (c: ReturnType<typeof countingTransport>) =>
			c.requests.filter((r) => r.method === 'GET' && r.url.endsWith('/api/data/')).length;
		const ev = (out: Array<Record<string, unknown>>) => out.map((e) => `${e.event}:${e.id}`);

		test('bounded per poll, goes on where the last poll stopped, every reversal emitted once', async () => {
			const counting = countingTransport();
			const client = new VtuClient({
				baseUrl: env.sb.baseUrl,
				token: env.sb.demo.token,
				transport: counting.transport,
			});
			const state = { v: 1 } as TriggerState;
			const t0 = Date.UTC(2026, 10, 23, 8, 0);
			expect(await pollOnce(client, state, settings(t0))).toEqual([]);
			const ids = await buyMany(400); // 27 pages of 15
			expect(await pollOnce(client, state, settings(t0 + 60_000))).toHaveLength(400); // catch-up to the watermark
			await env.admin.setStatus('data', ids[0], 'failed'); // the oldest: page 27
			await env.admin.setStatus('data', ids[200], 'failed'); // page 14

			counting.reset();
			expect(ev(await pollOnce(client, state, settings(t0 + 120_000)))).toEqual([`reversed:${ids[200]}`]);
			expect(listReads(counting)).toBe(1 + 20); // Pages to Scan + the re-check budget
			expect(state.sweep).toBe(22);

			counting.reset();
			expect(ev(await pollOnce(client, state, settings(t0 + 180_000)))).toEqual([`reversed:${ids[0]}`]);
			expect(listReads(counting)).toBe(1 + 6); // pages 22-27: the oldest watched transaction reached
			expect(state.sweep).toBeUndefined();

			for (let n = 0; n < 3; n++) expect(await pollOnce(client, state, settings(t0 + (4 + n) * 60_000))).toEqual([]);
		});

		test('transactions unchanged for longer than Watch Changes For are not re-read', async () => {
			const counting = countingTransport();
			const client = new VtuClient({
				baseUrl: env.sb.baseUrl,
				token: env.sb.demo.token,
				transport: counting.transport,
			});
			const state = { v: 1 } as TriggerState;
			const t0 = Date.UTC(2026, 10, 23, 8, 0);
			await pollOnce(client, state, settings(t0));
			const ids = await buyMany(40);
			expect(await pollOnce(client, state, settings(t0))).toHaveLength(40);
			const later = t0 + 25 * 3_600_000;
			await env.admin.setStatus('data', ids[39], 'failed'); // on page 1: seen by the scan, whatever its age
			counting.reset();
			expect(ev(await pollOnce(client, state, settings(later)))).toEqual([`reversed:${ids[39]}`]);
			expect(listReads(counting)).toBe(1);
			// the reversed one changed just now: watched again, and on page 1
			counting.reset();
			expect(await pollOnce(client, state, settings(later + 60_000))).toEqual([]);
			expect(listReads(counting)).toBe(1);
		});
	});

	test('given references only, with an event filter', async () => {
		const a = await buyData('08031234561');
		const b = await buyData('08031234562');
		const t = activeTrigger(
			trigger,
			{ product: 'data', watch: 'idents', idents: `${a.ident}`, events: ['reversed'] },
			env.creds(),
		);
		expect(await t.poll()).toBeNull();
		await env.admin.setStatus('data', b.id, 'failed'); // not watched
		expect(await t.poll()).toBeNull();
		await env.admin.setStatus('data', a.id, 'failed');
		expect(events(await t.poll())).toEqual([`reversed:${a.ident}:failed`]);
		expect(await t.poll()).toBeNull();
	});

	test('static data stays bounded', async () => {
		for (let n = 0; n < 25; n++) await buyData(`080312345${String(n).padStart(2, '0')}`);
		const t = activeTrigger(
			trigger,
			{ product: 'data', watch: 'recent', options: { maxTracked: 20, pages: 2 } },
			env.creds(),
		);
		expect(await t.poll()).toBeNull();
		const state = t.staticData['node:VTU'] as { t: Record<string, unknown>; maxId: number };
		expect(Object.keys(state.t).length).toBeLessThanOrEqual(20);
		expect(state.maxId).toBe(25);
		expect(JSON.stringify(state).length).toBeLessThan(2000);
	});

	test('manual mode ("Test step") returns the current transactions instead of nothing', async () => {
		const empty = await runTriggerManually(trigger, {
			parameters: { product: 'data', watch: 'recent' },
			creds: env.creds(),
		});
		expect(empty.items).toHaveLength(1);
		expect(empty.items[0].json.message).toMatch(/No data transactions yet/);
		const a = await buyData();
		const r = await runTriggerManually(trigger, {
			parameters: { product: 'data', watch: 'recent' },
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ event: 'current', sample: true, ident: a.ident, status: 'successful' });
	});
});
