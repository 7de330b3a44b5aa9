/**
 * The pace memory (nodes/shared/paceMemory.ts): what a run teaches the next run to the same vendor, on an
 * injected clock (no timed waits). AdaptiveLimit is driven by hand: `sent` with what is out, `answered` with
 * an answer time, as runAdaptive does.
 */
import { AdaptiveLimit, START_CONCURRENCY } from '../../nodes/shared/concurrency';
import {
	beginRun,
	endRun,
	forgetPaces,
	PACE_MEMORY_MAX,
	PACE_MEMORY_TTL_MS,
	paceKey,
	rememberedKeys,
	rememberPace,
	warmStart,
} from '../../nodes/shared/paceMemory';

const SITE = 'https://vtu.example.ng';
const T0 = 1_700_000_000_000;

/** A clean run: `waves` round trips, each sending what the limit allows and every answer after 1 s. */
function cleanRun(ceiling: number, waves: number, start = START_CONCURRENCY): AdaptiveLimit {
	const l = new AdaptiveLimit(ceiling, start);
	for (let w = 0; w < waves; w++) {
		const out = l.current;
		for (let k = 1; k <= out; k++) l.sent(k);
		for (let k = 0; k < out; k++) l.answered(0, 1000);
	}
	return l;
}

beforeEach(() => forgetPaces());

describe('pace memory', () => {
	test('nothing learned: no warm start; a clean run teaches the next step from what the site held', () => {
		expect(warmStart(paceKey(SITE), T0)).toBeUndefined();
		const l = cleanRun(1000, 2); // 10 out, then 30 out: the limit is now 90
		expect([l.heldClean, l.current]).toEqual([30, 90]);
		rememberPace(paceKey(SITE), l, T0);
		expect(warmStart(paceKey(SITE), T0 + 1000)).toBe(90);
	});

	test('never more than three times what the site held, even when the limit grew past it', () => {
		// a run of 20 items: the limit grows by 2 per answer, but at most 10 were ever out
		const l = new AdaptiveLimit(1000);
		for (let k = 1; k <= 10; k++) l.sent(k);
		for (let k = 0; k < 20; k++) l.answered(0, 1000);
		expect(l.current).toBe(50);
		rememberPace(paceKey(SITE), l, T0);
		expect(warmStart(paceKey(SITE), T0)).toBe(30);
	});

	test('after slow start ended (answers began to slow), what the site held, not three times it', () => {
		const l = new AdaptiveLimit(1000, 40);
		for (let k = 1; k <= 40; k++) l.sent(k);
		l.answered(0, 1000);
		l.answered(0, 1800); // 1.5× the fastest plus the slack: the site began to queue
		rememberPace(paceKey(SITE), l, T0);
		expect(warmStart(paceKey(SITE), T0)).toBe(40);
	});

	test('never above the ceiling the run had', () => {
		rememberPace(paceKey(SITE), cleanRun(50, 4), T0);
		expect(warmStart(paceKey(SITE), T0)).toBe(50);
	});

	test('expires 15 minutes after the last run to that vendor; each run starts the time again', () => {
		rememberPace(paceKey(SITE), cleanRun(1000, 2), T0);
		expect(warmStart(paceKey(SITE), T0 + PACE_MEMORY_TTL_MS)).toBe(90);
		// a smaller clean run 10 minutes later keeps the level and restarts the clock
		rememberPace(paceKey(SITE), cleanRun(1000, 1), T0 + 10 * 60_000);
		expect(warmStart(paceKey(SITE), T0 + 10 * 60_000 + PACE_MEMORY_TTL_MS)).toBe(90);
		expect(warmStart(paceKey(SITE), T0 + 10 * 60_000 + PACE_MEMORY_TTL_MS + 1)).toBeUndefined();
		expect(rememberedKeys()).toEqual([]);
		expect(PACE_MEMORY_TTL_MS).toBeGreaterThanOrEqual(10 * 60_000);
		expect(PACE_MEMORY_TTL_MS).toBeLessThanOrEqual(30 * 60_000);
	});

	test('a run that saw strain lowers the memory to where its last cut left the limit', () => {
		rememberPace(paceKey(SITE), cleanRun(1000, 4), T0); // 10, 30, 90, 270 out: 810 learned
		expect(warmStart(paceKey(SITE), T0)).toBe(810);
		// the next run starts at 810 and meets 429s: the site holds 50
		const l = new AdaptiveLimit(1000, 810);
		for (let k = 1; k <= 810; k++) l.sent(k);
		l.refused(300);
		l.refused(50);
		for (let k = 0; k < 60; k++) l.answered(0, 1000); // grows by about one afterwards
		expect(l.current).toBe(51);
		rememberPace(paceKey(SITE), l, T0 + 60_000);
		expect(warmStart(paceKey(SITE), T0 + 60_000)).toBe(50);
		// a strained run never raises it: cut at 0.7 of 100 = 70 > 50 keeps 50
		const m = new AdaptiveLimit(1000, 100);
		m.sent(100);
		m.strained(0, 1);
		rememberPace(paceKey(SITE), m, T0 + 120_000);
		expect(warmStart(paceKey(SITE), T0 + 120_000)).toBe(50);
	});

	test('a strained first run is remembered at its cut level (below the usual start too)', () => {
		const l = new AdaptiveLimit(1000);
		for (let k = 1; k <= 10; k++) l.sent(k);
		l.refused(3);
		rememberPace(paceKey(SITE), l, T0);
		expect(warmStart(paceKey(SITE), T0)).toBe(3);
	});

	test('a run that sent nothing teaches nothing', () => {
		rememberPace(paceKey(SITE), new AdaptiveLimit(1000), T0);
		expect(warmStart(paceKey(SITE), T0)).toBeUndefined();
	});

	test('one memory per origin: another host, port or scheme is another vendor; the path is not', () => {
		rememberPace(paceKey('https://a.example.ng/api'), cleanRun(1000, 2), T0);
		expect(warmStart(paceKey('https://a.example.ng'), T0)).toBe(90);
		expect(warmStart(paceKey('https://A.EXAMPLE.NG:443/other/'), T0)).toBe(90);
		expect(warmStart(paceKey('https://b.example.ng'), T0)).toBeUndefined();
		expect(warmStart(paceKey('https://a.example.ng:8443'), T0)).toBeUndefined();
		expect(warmStart(paceKey('http://a.example.ng'), T0)).toBeUndefined();
		expect(paceKey('not a url')).toBeUndefined();
		rememberPace(undefined, cleanRun(1000, 2), T0); // no key: nothing stored
		expect(rememberedKeys()).toEqual(['https://a.example.ng']);
	});

	test('no secret in a key: user info, query and path of the base URL are dropped', () => {
		const token = 'tok_9f8e7d6c5b4a';
		const key = paceKey(`https://user:${token}@vtu.example.ng:8080/api/?token=${token}#${token}`);
		expect(key).toBe('https://vtu.example.ng:8080');
		rememberPace(key, cleanRun(1000, 1), T0);
		expect(rememberedKeys().join(' ')).not.toContain(token);
	});

	test('bounded: past PACE_MEMORY_MAX vendors the least recently run is forgotten', () => {
		for (let k = 0; k <= PACE_MEMORY_MAX; k++) rememberPace(`https://v${k}.example.ng`, cleanRun(1000, 1), T0 + k);
		expect(rememberedKeys()).toHaveLength(PACE_MEMORY_MAX);
		expect(warmStart('https://v0.example.ng', T0 + PACE_MEMORY_MAX)).toBeUndefined();
		expect(warmStart(`https://v${PACE_MEMORY_MAX}.example.ng`, T0 + PACE_MEMORY_MAX)).toBe(30);
	});

	test('runs at once share the learned pace (never below the cold start); a finished run frees its share', () => {
		const key = paceKey(SITE);
		expect(beginRun(key, START_CONCURRENCY, T0)).toBeUndefined(); // nothing learned: cold, but counted
		endRun(key);
		rememberPace(key, cleanRun(1000, 3), T0); // 10, 30, 90 out: learned 270
		expect(beginRun(key, START_CONCURRENCY, T0)).toBe(270);
		expect(beginRun(key, START_CONCURRENCY, T0)).toBe(135); // a second execution while the first runs
		expect(beginRun(key, START_CONCURRENCY, T0)).toBe(90);
		endRun(key);
		endRun(key);
		expect(beginRun(key, START_CONCURRENCY, T0)).toBe(135); // one still running
		endRun(key);
		endRun(key);
		expect(beginRun(key, START_CONCURRENCY, T0)).toBe(270);
		endRun(key);
		rememberPace(paceKey('https://small.example.ng'), cleanRun(1000, 1), T0); // learned 30
		const small = paceKey('https://small.example.ng');
		expect([beginRun(small, 10, T0), beginRun(small, 10, T0), beginRun(small, 10, T0)]).toEqual([30, 15, 10]);
	});
});
