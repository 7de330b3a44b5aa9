/**
 * Catalogue fallbacks: builds that lack /api/get/network/ (MSORG's own app reads /api/network/ and
 * /api/cable/) or every catalogue route (the /api/user/ payload is the only source). The client reads the
 * same catalogue from each and remembers per site which route answered.
 */
import { VtuClient, clearCatalogCache, type Catalog } from '../../client';
import { forgetSites } from '../../client/site';
import { type Sandbox, startSandbox } from '../../sandbox/server';
import type { BuildName } from '../../sandbox/builds';
import { countingTransport } from '../client/helpers';

async function open(build?: BuildName) {
	clearCatalogCache();
	forgetSites();
	const sb: Sandbox = await startSandbox(build ? { build } : { dialect: 'family' });
	const counting = countingTransport();
	const client = new VtuClient({
		baseUrl: sb.baseUrl,
		token: sb.demo.token,
		transport: counting.transport,
		timeoutMs: 5_000,
	});
	const paths = () =>
		counting.requests
			.map((r) => new URL(r.url).pathname)
			.filter((p) => p !== '/api/user/' && !/\/api\/get\/(exam|airtime|sms|recharge)\//.test(p));
	return { sb, client, counting, paths };
}

/** What a buyer picks from: ids, names, kinds and prices (labels may word sizes differently). */
function essentials(c: Catalog) {
	return {
		networks: c.networks.map((n) => ({
			id: n.id,
			name: n.name,
			plans: n.plans.map((p) => [p.id, p.networkId, p.kind, p.size, p.price.kobo, p.available]),
		})),
		cable: c.cable.map((x) => ({
			id: x.id,
			name: x.name,
			packages: x.packages.map((p) => [p.id, p.name, p.price.kobo]),
		})),
		discos: c.discos,
		exams: c.exams,
		recharge: c.recharge.map((r) => [r.id, r.networkId, r.faceValue.kobo, r.price.kobo]),
	};
}

let baseline: ReturnType<typeof essentials>;
beforeAll(async () => {
	const env = await open();
	try {
		baseline = essentials(await env.client.catalog.get());
		expect(env.paths()).toEqual(['/api/get/network/', '/api/get/cable/', '/api/get/disco/']);
	} finally {
		await env.sb.close();
	}
});

test.each([
	[
		'legitdata',
		['/api/get/network/', '/api/get/cable/', '/api/get/disco/'],
		['/api/get/network/', '/api/get/cable/', '/api/get/disco/'],
	],
	[
		'muhallidata',
		['/api/get/network/', '/api/get/cable/', '/api/get/disco/', '/api/network/', '/api/cable/', '/api/disco/'],
		['/api/network/', '/api/cable/', '/api/disco/'],
	],
	[
		'legacy',
		['/api/get/network/', '/api/get/cable/', '/api/get/disco/', '/api/network/', '/api/cable/', '/api/disco/'],
		['/api/disco/'],
	],
] as const)(
	'%s build: the same catalogue, and the route that answered is asked first next time',
	async (build, firstRoutes, laterRoutes) => {
		const env = await open(build);
		try {
			const cat = await env.client.catalog.get();
			expect(essentials(cat)).toEqual(baseline);
			expect([...env.paths()].sort()).toEqual([...firstRoutes].sort());
			env.counting.reset();
			await env.client.catalog.get({ fresh: true });
			expect([...env.paths()].sort()).toEqual([...laterRoutes].sort());
			// the older forms price plans for the caller's tier as /api/get/network/ does
			expect(
				(await env.client.quote({ product: 'data', network: 'MTN', plan: 2, phone: '08031234567' })).amount.naira,
			).toBe('250.00');
		} finally {
			await env.sb.close();
		}
	},
);

test('a build that lost every catalogue source is a clear bad_response, not an empty catalogue', async () => {
	const env = await open('legacy');
	try {
		const { transport } = env.counting;
		const stripped = new VtuClient({
			baseUrl: env.sb.baseUrl,
			token: env.sb.demo.token,
			timeoutMs: 5_000,
			transport: async (req) => {
				const res = await transport(req);
				if (new URL(req.url).pathname !== '/api/user/') return res;
				const body = JSON.parse(res.body) as Record<string, unknown>;
				delete body.Dataplans;
				return { ...res, body: JSON.stringify(body) };
			},
		});
		await expect(stripped.catalog.get()).rejects.toMatchObject({
			code: 'bad_response',
			message: expect.stringMatching(/no catalogue route answered/),
		});
	} finally {
		await env.sb.close();
	}
});
