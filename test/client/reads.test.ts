/**
 * Reads are retried (timeout, reset, 502/503/504) against the real sandbox's fault injection; purchase POSTs
 * and paid lookups (BVN/NIN) never are. IUC/meter validation finds the route a site serves (/api or /ajax).
 */
import { VtuError, type VtuClient } from '../../client';
import { forgetValidationRoutes } from '../../client/products/validate';
import { startEnv, type Env } from './helpers';

const MTN_1GB = { network: 'MTN', plan: 2, phone: '08031234567' } as const;

async function failure(p: Promise<unknown>): Promise<VtuError> {
	return p.then(
		() => {
			throw new Error('expected a VtuError');
		},
		(e) => e,
	);
}

describe('reads are retried; purchases and paid lookups are not', () => {
	let env: Env;
	let client: VtuClient;
	beforeAll(async () => {
		env = await startEnv('seed');
		// a short timeout so a held socket costs little; attempts enough for a loaded machine
		client = env.make({ timeoutMs: 3_000, retry: { maxAttempts: 4 } });
		await client.catalog.get();
	});
	afterAll(() => env.close());
	beforeEach(async () => {
		await env.admin.clearFaults();
		await env.admin.clearFaultLog();
		env.counting.reset();
	});
	const sent = (method: string, path: string) =>
		env.counting.requests.filter((r) => r.method === method && new URL(r.url).pathname === path).length;
	const hits = async () => (await env.admin.faultLog()).length;

	test('GET /api/user/ that times out once is sent again and answers', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'timeout_after', count: 1 });
		const p = await client.user.get();
		expect(p.username).toBe('demo');
		expect(sent('GET', '/api/user/')).toBe(2);
		expect(await hits()).toBe(1);
		// the repeat gets twice the time: the site (or this machine) is slower than configured
		expect(env.counting.requests.map((r) => r.timeoutMs)).toEqual([3_000, 6_000]);
	});

	test('catalogue GETs survive a reset and a 502/503/504 each', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/get/network/', kind: 'reset_after', count: 1 });
		await env.admin.addFault({ endpoint: 'GET /api/get/cable/', kind: 'error_before', httpStatus: 502, count: 1 });
		await env.admin.addFault({ endpoint: 'GET /api/get/disco/', kind: 'error_before', httpStatus: 503, count: 1 });
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', httpStatus: 504, count: 1 });
		const cat = await client.catalog.get({ fresh: true });
		expect(cat.networks.map((n) => n.name).sort()).toEqual(['9MOBILE', 'AIRTEL', 'GLO', 'MTN']);
		expect(cat.cable).toHaveLength(3);
		expect(cat.discos).toHaveLength(12);
		expect((await env.admin.faultLog()).map((f) => f.httpStatus).sort()).toEqual([502, 503, 504, null]);
		for (const path of ['/api/get/network/', '/api/get/cable/', '/api/get/disco/', '/api/user/'])
			expect(sent('GET', path)).toBe(2);
	});

	test('lists and records (the reads reconciliation uses) are retried', async () => {
		const r = await client.data.buy(MTN_1GB);
		await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before', httpStatus: 503, count: 2 });
		await env.admin.addFault({ endpoint: 'GET /api/data/:id', kind: 'timeout_after', count: 1 });
		const page = await client.transactions.list('data');
		expect(page.items[0].id).toBe(r.id);
		expect(sent('GET', '/api/data/')).toBe(3);
		expect((await client.transactions.get('data', r.id!)).ident).toBe(r.ident);
		expect(await hits()).toBe(3);
	});

	test('a purchase whose answer is lost reconciles through a list read that fails once', async () => {
		const before = (await env.admin.ledger()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before', httpStatus: 502, count: 1 });
		const r = await client.data.buy(MTN_1GB);
		expect(r.path).toBe('reconciled');
		expect(r.status).toBe('successful');
		expect(env.counting.posts()).toHaveLength(1);
		expect((await env.admin.ledger()).slice(before).map((e) => e.kind)).toEqual(['debit']);
	});

	test('a 500 on a GET is an answer, not a retry (a wrong form, a broken view)', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/data/', kind: 'error_before', count: 1 });
		const e = await failure(client.transactions.list('data'));
		expect(e.code).toBe('server');
		expect(sent('GET', '/api/data/')).toBe(1);
	});

	test('retries stop after maxAttempts with the last answer classified', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', httpStatus: 503 });
		const e = await failure(client.user.get());
		expect(e.code).toBe('server');
		expect(e.httpStatus).toBe(503);
		expect(sent('GET', '/api/user/')).toBe(4);
	});

	test('a purchase POST is never repeated after a 503 or a timeout', async () => {
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'error_before', httpStatus: 503, count: 1 });
		await failure(client.data.buy(MTN_1GB)).catch(() => undefined);
		expect(env.counting.posts()).toHaveLength(1);
		env.counting.reset();
		const before = (await env.admin.ledger()).length;
		await env.admin.addFault({ endpoint: 'POST /api/data/', kind: 'timeout_after', count: 1 });
		const r = await client.data.buy(MTN_1GB);
		expect(r.path).toBe('reconciled');
		expect(env.counting.posts()).toHaveLength(1);
		expect((await env.admin.ledger()).slice(before)).toHaveLength(1);
	});

	test.each([
		['timeout', { kind: 'timeout_after' as const }, 'network'],
		['reset', { kind: 'reset_after' as const }, 'network'],
		['503', { kind: 'error_before' as const, httpStatus: 503 as const }, 'server'],
	])('a BVN lookup (paid per call) is sent once after a %s', async (_n, fault, code) => {
		const before = (await env.admin.ledger()).filter((e) => e.product === 'identity').length;
		await env.admin.addFault({ endpoint: 'GET /api/validatebvn/', count: 1, ...fault });
		const e = await failure(client.identity.validateBvn('22212345678'));
		expect(e.code).toBe(code);
		expect(sent('GET', '/api/validatebvn/')).toBe(1);
		const fees = (await env.admin.ledger()).filter((x) => x.product === 'identity').length - before;
		expect(fees).toBe(fault.kind === 'error_before' ? 0 : 1); // the one lookup that reached the view was billed once
	});

	test('a NIN lookup is not repeated either', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/validatenin/', kind: 'timeout_after', count: 1 });
		await failure(client.identity.validateNin('12345678901'));
		expect(sent('GET', '/api/validatenin/')).toBe(1);
	});

	test('a free validation GET is retried', async () => {
		await env.admin.addFault({ endpoint: 'GET /api/validateiuc/', kind: 'error_before', httpStatus: 502, count: 1 });
		const v = await client.cable.validate({ provider: 'GOTV', iuc: '7012345678' });
		expect(v.valid).toBe(true);
		expect(sent('GET', '/api/validateiuc/')).toBe(2);
	});
});

describe.each(['seed', 'family'] as const)(
	'IUC and meter validation on sites with one route form (%s dialect)',
	(dialect) => {
		let env: Env;
		beforeAll(async () => {
			env = await startEnv(dialect);
			await env.client.catalog.get();
		});
		afterAll(() => env.close());
		beforeEach(() => {
			forgetValidationRoutes();
			env.counting.reset();
		});
		const paths = () => env.counting.requests.filter((r) => /validate/.test(r.url)).map((r) => new URL(r.url).pathname);
		const iuc = () => env.client.cable.validate({ provider: 'DSTV', iuc: '7023456789' });
		const meter = () =>
			env.client.electricity.validate({ disco: 'Ikeja Electric', meter: '45012345678', meterType: 'prepaid' });

		test('an /ajax-only site: a 404 on /api tries /ajax and remembers it', async () => {
			await env.admin.setConfig({ validation_routes: 'ajax' });
			const v1 = await iuc();
			expect(v1.valid).toBe(true);
			expect(v1.name).not.toBe('');
			const m1 = await meter();
			expect(m1.valid).toBe(true);
			expect(paths()).toEqual([
				'/api/validateiuc/',
				'/ajax/validate_iuc/',
				'/api/validatemeter/',
				'/ajax/validate_meter_number/',
			]);
			env.counting.reset();
			expect(await iuc()).toEqual(v1);
			expect(await meter()).toEqual(m1);
			expect(paths()).toEqual(['/ajax/validate_iuc/', '/ajax/validate_meter_number/']);
		});

		test('an /api-only site is asked once; a site that moves is followed', async () => {
			await env.admin.setConfig({ validation_routes: 'api' });
			await iuc();
			await meter();
			expect(paths()).toEqual(['/api/validateiuc/', '/api/validatemeter/']);
			await env.admin.setConfig({ validation_routes: 'ajax' });
			await iuc();
			await iuc();
			expect(paths().slice(2)).toEqual(['/api/validateiuc/', '/ajax/validate_iuc/', '/ajax/validate_iuc/']);
		});

		test('an invalid IUC answers valid: false on either route', async () => {
			await env.admin.setConfig({ validation_routes: 'ajax' });
			const v = await env.client.cable.validate({ provider: 'GOTV', iuc: '0000000000' });
			expect(v.valid).toBe(false);
		});
	},
);
