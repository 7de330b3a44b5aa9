/**
 * Capacity with over_capacity refuse_429 / refuse_503: a purchase beyond max_in_flight is answered at once,
 * before the site does anything with it (no debit, no record). Waits are conditions, never sleeps.
 */
import { eventually, MTN_1GB_SME, useSandbox } from './helpers';

describe('over_capacity', () => {
	const env = useSandbox({ seed: 11 });

	async function overflow(over: 'refuse_429' | 'refuse_503') {
		await env.admin.setConfig({
			max_in_flight: 1,
			over_capacity: over,
			slow_vendor: { share: 1, minMs: 1500, maxMs: 1500 },
		});
		const balance = await env.admin.balanceKobo('demo');
		const first = env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '08031234561' });
		await eventually(async () => expect((await env.admin.capacity()).inFlight).toBe(1), 20_000);
		const refused = await env.post('/api/data/', { ...MTN_1GB_SME, mobile_number: '08031234562' });
		// only the refused purchase has answered yet: nothing was debited or recorded for it
		expect(await env.admin.transactions()).toEqual([]);
		expect(await env.admin.balanceKobo('demo')).toBe(balance);
		expect((await first).status).toBe(201);
		expect((await env.admin.transactions()).map((t) => t.recipient)).toEqual(['08031234561']);
		expect(await env.admin.capacity()).toMatchObject({ refusedTotal: 1, queuedTotal: 0 });
		return refused;
	}

	test('refuse_429: a DRF throttle answer with Retry-After', async () => {
		const r = await overflow('refuse_429');
		expect(r.status).toBe(429);
		expect(r.headers.get('retry-after')).toBe('1');
		expect(r.json.detail).toMatch(/throttled/);
	});

	test('refuse_503: nginx 503 page', async () => {
		const r = await overflow('refuse_503');
		expect(r.status).toBe(503);
		expect(r.text).toContain('503 Service Temporarily Unavailable');
	});

	test('queue stays the default', async () => {
		expect((await env.admin.getConfig()).over_capacity).toBe('queue');
	});
});
