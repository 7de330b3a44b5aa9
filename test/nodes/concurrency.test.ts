/**
 * The purchase runner's adaptive pace (nodes/shared/concurrency.ts): the rules on their own, then VTU Airtime
 * in the real n8n engine against the sandbox with a vendor answer time (a `latency` fault on every purchase)
 * and a capacity (config max_in_flight) that queues, refuses with 429 or sheds with 503.
 */
import { AdaptiveLimit, DEFAULT_CEILING, SLOW_START_STEP, START_CONCURRENCY } from '../../nodes/shared/concurrency';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../nodes/shared/runner';
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import type { ConfigPatch } from '../../sandbox/admin-client';
import { paceKey, warmStart } from '../../nodes/shared/paceMemory';
import { processAccounts } from '../../client/purchase';
import { runNode } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const airtime = new VtuAirtime();

const rows = (n: number) =>
	Array.from({ length: n }, (_, k) => ({ phone: `0803${String(1_000_000 + k).slice(-7)}`, amount: 100 }));
const buy = (options: Record<string, unknown>) => ({
	operation: 'buy',
	network: '1',
	airtimeType: 'VTU',
	amount: '={{ $json.amount }}',
	phone: '={{ $json.phone }}',
	options,
});

/** Every purchase answered after `latencyMs`, inside the vendor's slot. */
async function vendor(latencyMs: number, config: ConfigPatch = {}): Promise<void> {
	await env.admin.setConfig(config);
	await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'latency', latencyMs, probability: 1 });
}

/** Debits per phone number: every row bought exactly once. */
async function debitsByPhone(): Promise<Map<string, number>> {
	const txns = await env.admin.transactions({ username: 'demo', product: 'airtime' });
	const m = new Map<string, number>();
	for (const t of txns) m.set(t.recipient, (m.get(t.recipient) ?? 0) + 1);
	return m;
}

describe('AdaptiveLimit', () => {
	test('triples per round trip while answers are clean (slow start), up to the ceiling', () => {
		const l = new AdaptiveLimit(100);
		expect(l.current).toBe(START_CONCURRENCY);
		for (let k = 0; k < 10; k++) l.answered(0, 100); // one round trip of 10 clean answers
		expect(l.current).toBe(30);
		for (let k = 0; k < 30; k++) l.answered(0, 100); // the next round trip
		expect(l.current).toBe(90);
		for (let k = 0; k < 90; k++) l.answered(0, 100);
		expect([l.current, l.peak]).toEqual([100, 100]);
	});

	test('the default ceiling is the most a builder may set, and slow start steps by SLOW_START_STEP', () => {
		expect(DEFAULT_CONCURRENCY).toBe(DEFAULT_CEILING);
		expect(DEFAULT_CEILING).toBeLessThanOrEqual(MAX_CONCURRENCY);
		const l = new AdaptiveLimit(DEFAULT_CEILING);
		l.answered(0, 1000);
		expect(l.current).toBe(START_CONCURRENCY + SLOW_START_STEP);
	});

	test('cuts to 0.7 once per round trip on strain, then grows by one per round trip', () => {
		const l = new AdaptiveLimit(100, 40);
		l.strained(1000, 2000);
		expect(l.current).toBe(28);
		// answers to purchases sent before the cut say nothing new
		l.strained(1500, 2100);
		expect(l.current).toBe(28);
		l.strained(2050, 2200);
		expect(l.current).toBe(19); // 19.6
		// one per answer over the limit: about one more per round trip
		for (let k = 0; k < 20; k++) l.answered(3000, 100);
		expect(l.current).toBe(20);
		expect(l.cuts).toBe(2);
	});

	test('an answer 1.5× slower than the fastest (plus the slack) ends slow start without a cut', () => {
		const l = new AdaptiveLimit(1000, 10);
		l.answered(0, 1000);
		l.answered(0, 1700); // within 1.5 × 1000 ms + 250 ms: still tripling
		expect(l.current).toBe(14);
		l.answered(0, 1800); // the site began to queue: one per round trip from here
		expect([l.current, l.cuts]).toEqual([14, 0]);
		for (let k = 0; k < 14; k++) l.answered(0, 1000);
		expect(l.current).toBe(15);
	});

	test('an answer far slower than the fastest counts as strain (the site is queueing)', () => {
		const l = new AdaptiveLimit(100, 20);
		l.answered(0, 1000);
		l.answered(0, 2100); // within 2 × 1000 ms + 250 ms: no cut (but no more slow start)
		expect(l.cuts).toBe(0);
		l.answered(0, 2300);
		expect(l.cuts).toBe(1);
		expect(l.current).toBe(15); // 22 + 1/22 after two clean answers, × 0.7
	});

	test('an untimed answer (waited for the final status) only grows the pace', () => {
		const l = new AdaptiveLimit(100, 10);
		l.answered(0, 100);
		l.answered(0); // however long it took
		expect([l.current, l.cuts]).toEqual([10 + 2 * SLOW_START_STEP, 0]);
	});

	test('a refusal drops the limit to what is still in flight, at every refusal, and ends slow start', () => {
		const l = new AdaptiveLimit(1000, 1000);
		// a burst of 1,000 against a site holding 50: refusals arrive one after another as the rest drain
		l.refused(999);
		l.refused(600);
		expect(l.current).toBe(600);
		l.refused(50);
		expect([l.current, l.cuts]).toEqual([50, 3]);
		l.refused(70); // more in flight than the limit (sent before it dropped): no rise, no cut
		expect([l.current, l.cuts]).toEqual([50, 3]);
		// no more slow start: one per round trip
		for (let k = 0; k < 55; k++) l.answered(5000, 100);
		expect(l.current).toBe(51);
		l.refused(0);
		expect(l.current).toBe(1);
	});

	test('never below one, never above the ceiling', () => {
		const l = new AdaptiveLimit(3);
		expect(l.current).toBe(3);
		for (let t = 0; t < 10; t++) l.strained(t * 10, t * 10 + 5);
		expect(l.current).toBe(1);
	});
});

describe('adaptive pace against the sandbox', () => {
	test('Concurrency not set: grows past the starting pace while a slow vendor keeps up', async () => {
		await vendor(400);
		const r = await runNode(airtime, { parameters: buy({}), input: rows(90), creds: env.creds() });
		expect(r.error).toBeUndefined();
		expect(r.items.filter((o) => o.json.status === 'successful')).toHaveLength(90);
		const cap = await env.admin.capacity();
		expect(cap.peakInFlight).toBeGreaterThan(START_CONCURRENCY);
		expect(cap.peakInFlight).toBeLessThanOrEqual(DEFAULT_CONCURRENCY);
		expect([...(await debitsByPhone()).values()].every((n) => n === 1)).toBe(true);
		expect((await debitsByPhone()).size).toBe(90);
	});

	test('a vendor that queues beyond 4 in flight: the pace backs off instead of piling up', async () => {
		await vendor(300, { max_in_flight: 4 });
		const r = await runNode(airtime, { parameters: buy({}), input: rows(60), creds: env.creds() });
		expect(r.error).toBeUndefined();
		expect(r.items.filter((o) => o.json.status === 'successful')).toHaveLength(60);
		const cap = await env.admin.capacity();
		// grown to the ceiling, 56 would wait; the pace slows down as soon as answers take twice the fastest
		expect(cap.peakQueued).toBeLessThan(30);
		const debits = await debitsByPhone();
		expect(debits.size).toBe(60);
		expect([...debits.values()].every((n) => n === 1)).toBe(true);
	});

	test('429 beyond 3 in flight: refused rows wait and go again, none fails, none is bought twice', async () => {
		await vendor(200, { max_in_flight: 3, over_capacity: 'refuse_429' });
		const r = await runNode(airtime, { parameters: buy({ concurrency: 30 }), input: rows(30), creds: env.creds() });
		expect(r.error).toBeUndefined();
		expect(r.items.filter((o) => o.json.status === 'successful')).toHaveLength(30);
		const cap = await env.admin.capacity();
		expect(cap.refusedTotal).toBeGreaterThan(0);
		const debits = await debitsByPhone();
		expect(debits.size).toBe(30);
		expect([...debits.values()].every((n) => n === 1)).toBe(true);
	});

	test('503 beyond 3 in flight: never re-sent by the pace; each shed row is proven not charged', async () => {
		await vendor(200, { max_in_flight: 3, over_capacity: 'refuse_503' });
		const before = await env.balance();
		const r = await runNode(airtime, {
			parameters: buy({ concurrency: 20 }),
			input: rows(20),
			// a 1 s processing bound lets reconciliation prove "not charged" within the test
			creds: { ...env.creds(), vendorProcessingSeconds: 1 } as ReturnType<typeof env.creds>,
			continueOnFail: true,
		});
		expect(r.error).toBeUndefined();
		const bought = r.items.filter((o) => o.json.status === 'successful');
		const shed = r.items.filter((o) => o.json.code === 'not_charged');
		const cap = await env.admin.capacity();
		expect(cap.refusedTotal).toBe(shed.length);
		expect(bought.length + shed.length).toBe(20);
		expect(shed.length).toBeGreaterThan(0);
		// the ledger: exactly the rows the node calls bought, once each
		const debits = await debitsByPhone();
		expect(debits.size).toBe(bought.length);
		expect([...debits.values()].every((n) => n === 1)).toBe(true);
		const txns = await env.admin.transactions({ username: 'demo', product: 'airtime' });
		expect(await env.balance()).toBe(before - txns.reduce((sum, t) => sum + t.amountKobo, 0));
	});

	test('the next run to the same vendor starts at the learned pace; a warm start meeting 429s cuts', async () => {
		await vendor(300);
		const cold = await runNode(airtime, { parameters: buy({}), input: rows(40), creds: env.creds() });
		expect(cold.error).toBeUndefined();
		expect((await env.admin.capacity()).peakInFlight).toBeLessThanOrEqual(30); // 10, then 30
		const learned = warmStart(paceKey(env.sb.baseUrl))!;
		expect(learned).toBeGreaterThan(START_CONCURRENCY);

		// the same workflow again: its first round trip already sends the whole run (40 ≤ learned)
		await env.admin.reset();
		processAccounts().clear();
		await vendor(300);
		const warm = await runNode(airtime, { parameters: buy({}), input: rows(40), creds: env.creds() });
		expect(warm.items.filter((o) => o.json.status === 'successful')).toHaveLength(40);
		expect((await env.admin.capacity()).peakInFlight).toBe(Math.min(learned, 40));

		// the site now refuses beyond 3: the warm start is cut at the first refusals, nothing fails or is bought twice
		await env.admin.reset();
		processAccounts().clear();
		await vendor(200, { max_in_flight: 3, over_capacity: 'refuse_429' });
		const strained = await runNode(airtime, { parameters: buy({}), input: rows(40), creds: env.creds() });
		expect(strained.error).toBeUndefined();
		expect(strained.items.filter((o) => o.json.status === 'successful')).toHaveLength(40);
		expect((await env.admin.capacity()).refusedTotal).toBeGreaterThan(0);
		const debits = await debitsByPhone();
		expect(debits.size).toBe(40);
		expect([...debits.values()].every((n) => n === 1)).toBe(true);
		// and the memory is lowered: the next run starts below where this one did
		expect(warmStart(paceKey(env.sb.baseUrl))!).toBeLessThan(40);
	});
});
