/** Auth (401/403 rules), trailing-slash behaviour, unknown ids and URLs, admin key. */
import { call, MTN_1GB_SME, useSandbox } from './helpers';

const env = useSandbox({ dialect: 'seed', seed: 42 });

describe('token auth', () => {
	test('missing header → 401 with DRF detail and WWW-Authenticate', async () => {
		const r = await env.get('/api/user/', { token: null });
		expect(r.status).toBe(401);
		expect(r.json).toEqual({ detail: 'Authentication credentials were not provided.' });
		expect(r.headers.get('www-authenticate')).toBe('Token');
	});

	test('unknown token → 401 Invalid token.', async () => {
		const r = await env.get('/api/user/', { token: 'f'.repeat(40) });
		expect(r.status).toBe(401);
		expect(r.json).toEqual({ detail: 'Invalid token.' });
	});

	test('Bearer is not the keyword: anonymous → 401 not provided', async () => {
		const r = await env.get('/api/user/', { token: null, headers: { authorization: `Bearer ${env.sb.demo.token}` } });
		expect(r.status).toBe(401);
		expect(r.json.detail).toBe('Authentication credentials were not provided.');
	});

	test('keyword is case-insensitive', async () => {
		const r = await env.get('/api/user/', { token: null, headers: { authorization: `token ${env.sb.demo.token}` } });
		expect(r.status).toBe(200);
		expect(r.json.username).toBe('demo');
	});

	test('malformed header texts', async () => {
		const one = await env.get('/api/user/', { token: null, headers: { authorization: 'Token' } });
		expect(one.json).toEqual({ detail: 'Invalid token header. No credentials provided.' });
		const spaces = await env.get('/api/user/', { token: null, headers: { authorization: 'Token a b' } });
		expect(spaces.json).toEqual({ detail: 'Invalid token header. Token string should not contain spaces.' });
	});

	test('seed rule: non-API user type → 403 naming the account type, nothing debited', async () => {
		const { token } = await env.admin.createUser({ username: 'retail', user_type: 'Smart Earner', balance: '1000.00' });
		const r = await env.post('/api/data/', MTN_1GB_SME, { token });
		expect(r.status).toBe(403);
		expect(r.json.detail).toMatch(/not an API user/);
		expect(await env.admin.balanceKobo('retail')).toBe(100000);
		// Upgrading the account makes the same token work.
		await env.admin.updateUser('retail', { user_type: 'API' });
		expect((await env.get('/api/user/', { token })).status).toBe(200);
	});

	test(
		'IP whitelist: non-empty list without our address → 403 naming it; ' + 'with it → 200; empty → 200',
		async () => {
			const { token } = await env.admin.createUser({ username: 'wl', balance: '100.00', whitelist: ['10.1.2.3'] });
			const denied = await env.get('/api/user/', { token });
			expect(denied.status).toBe(403);
			expect(denied.json.detail).toContain('127.0.0.1');
			await env.admin.updateUser('wl', { whitelist: ['10.1.2.3', '127.0.0.1'] });
			expect((await env.get('/api/user/', { token })).status).toBe(200);
			await env.admin.updateUser('wl', { whitelist: [] });
			expect((await env.get('/api/user/', { token })).status).toBe(200);
		},
	);

	test('token reset: old token 401, new one works', async () => {
		const old = env.sb.demo.token;
		const { token } = await env.admin.resetToken('demo');
		expect(token).toMatch(/^[0-9a-f]{40}$/);
		expect(token).not.toBe(old);
		expect((await env.get('/api/user/', { token: old })).status).toBe(401);
		expect((await env.get('/api/user/', { token })).status).toBe(200);
		expect(env.sb.demo.token).toBe(token);
	});

	test('same seed → same demo token after reset (deterministic)', async () => {
		const before = env.sb.demo.token;
		await env.admin.reset();
		expect(env.sb.demo.token).toBe(before);
	});
});

describe('trailing slashes and unknown resources', () => {
	test('slash-less POST → 301 to the slashed URL, nothing bought', async () => {
		const r = await env.post('/api/data', MTN_1GB_SME);
		expect(r.status).toBe(301);
		expect(r.headers.get('location')).toBe('/api/data/');
		expect(await env.admin.transactions({ username: 'demo' })).toHaveLength(0);
	});

	test('slash-less GET of a collection → 301 keeping the query', async () => {
		const r = await env.get('/api/data?page=1');
		expect(r.status).toBe(301);
		expect(r.headers.get('location')).toBe('/api/data/?page=1');
	});

	test('detail GET works with and without the slash', async () => {
		const bought = await env.post('/api/data/', MTN_1GB_SME);
		const id = bought.json.id;
		const a = await env.get(`/api/data/${id}`);
		const b = await env.get(`/api/data/${id}/`);
		expect(a.status).toBe(200);
		expect(b.json).toEqual(a.json);
		expect(a.json.ident).toBe(bought.json.ident);
	});

	test("someone else's or unknown id → 404 with an empty body", async () => {
		const bought = await env.post('/api/data/', MTN_1GB_SME);
		const { token } = await env.admin.createUser({ username: 'other', balance: '10.00' });
		const theirs = await env.get(`/api/data/${bought.json.id}`, { token });
		expect(theirs.status).toBe(404);
		expect(theirs.text).toBe('');
		const unknown = await env.get('/api/data/999999');
		expect(unknown.status).toBe(404);
		expect(unknown.text).toBe('');
	});

	test('unknown URL → Django 404 HTML page; no detail route for rechargepin', async () => {
		const r = await env.get('/api/nothing-here/');
		expect(r.status).toBe(404);
		expect(r.headers.get('content-type')).toMatch(/text\/html/);
		expect(r.text).toContain('<h1>Not Found</h1>');
		expect((await env.get('/api/rechargepin/1')).status).toBe(404);
	});

	test('invalid JSON body → 400 DRF parse error', async () => {
		const res = await fetch(`${env.sb.baseUrl}/api/data/`, {
			method: 'POST',
			body: '{bad',
			headers: { authorization: `Token ${env.sb.demo.token}`, 'content-type': 'application/json' },
		});
		expect(res.status).toBe(400);
		expect(((await res.json()) as { detail: string }).detail).toMatch(/JSON parse error/);
	});

	test('form-encoded bodies are accepted like DRF does', async () => {
		const res = await fetch(`${env.sb.baseUrl}/api/data/`, {
			method: 'POST',
			body: 'network=1&plan=2&mobile_number=08031234567&Ported_number=false',
			headers: { authorization: `Token ${env.sb.demo.token}`, 'content-type': 'application/x-www-form-urlencoded' },
		});
		expect(res.status).toBe(201);
		expect(((await res.json()) as { plan_amount: string }).plan_amount).toBe('250.00');
	});
});

describe('admin API guard', () => {
	test('missing or wrong X-Admin-Key → 401', async () => {
		const none = await call(env.sb, 'GET', '/admin/config', { token: null });
		expect(none.status).toBe(401);
		const wrong = await call(env.sb, 'GET', '/admin/config', { token: null, headers: { 'x-admin-key': 'nope' } });
		expect(wrong.status).toBe(401);
		const ok = await call(env.sb, 'GET', '/admin/config', { token: null, headers: { 'x-admin-key': env.sb.adminKey } });
		expect(ok.json.dialect).toBe('seed');
	});

	test('bad admin bodies → 400 with a reason', async () => {
		await expect(env.admin.createUser({ username: 'x', user_type: 'Boss' as never })).rejects.toMatchObject({
			status: 400,
		});
		await expect(env.admin.fund('demo', 'lots')).rejects.toMatchObject({ status: 400 });
		await expect(env.admin.createUser({ username: 'demo' })).rejects.toMatchObject({ status: 409 });
		await expect(env.admin.setConfig({ dialect: 'family' })).rejects.toMatchObject({ status: 400 });
	});
});
