/** Peers' request shapes (fixtures/peer-requests.ts) against every build profile, answered as that build would. */
import { SandboxAdmin } from '../../sandbox/admin-client';
import { BUILD_NAMES, BUILDS, type BuildName } from '../../sandbox/builds';
import { type Sandbox, startSandbox } from '../../sandbox/server';
import { PEER_REQUESTS } from './fixtures/peer-requests';

describe.each(BUILD_NAMES)('peers against the %s build', (build: BuildName) => {
	let sb: Sandbox;
	let admin: SandboxAdmin;
	beforeAll(async () => {
		sb = await startSandbox({ build });
		admin = new SandboxAdmin(sb.baseUrl, sb.adminKey);
	});
	afterAll(() => sb.close());

	const send = (method: string, path: string, body?: unknown) =>
		fetch(sb.baseUrl + path, {
			method,
			redirect: 'manual',
			headers: { Authorization: `Token ${sb.demo.token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
			body: body ? JSON.stringify(body) : undefined,
		});

	test.each(PEER_REQUESTS.map((p) => [p.name, p] as const))('%s', async (_name, p) => {
		const want = p.expect(build);
		const before = await admin.balanceKobo('demo');
		const res = await send(p.method, p.path, p.body);
		expect(res.status).toBe(want.status);
		const text = await res.text();
		if (want.body !== undefined) expect(JSON.parse(text)).toMatchObject(want.body as object);
		if (want.status === 301) expect(res.headers.get('location')).toBe(`${p.path}/`);
		if (p.body && 'ident' in p.body && want.charged) expect(JSON.parse(text).ident).not.toBe(p.body.ident);
		const spent = before - (await admin.balanceKobo('demo'));
		if (want.charged) expect(spent).toBeGreaterThan(0);
		else expect(spent).toBe(0);
	});

	test('the balance is a Python float: a whole number is sent as 1000000.0', async () => {
		const kobo = await admin.balanceKobo('demo');
		if (kobo % 100 !== 0) await admin.fund('demo', ((100 - (kobo % 100)) / 100).toFixed(2));
		const naira = Math.ceil(kobo / 100);
		expect(await admin.balanceKobo('demo')).toBe(naira * 100);
		const text = await (await send('GET', '/api/user/')).text();
		expect(text).toContain(`"Account_Balance":${naira}.0,`);
	});

	test(`SMS history is ${BUILDS[build].smsHistory === 'list' ? 'a bare list' : 'paginated'}`, async () => {
		const body = (await (await send('GET', '/api/sendsms/')).json()) as unknown[] | { results?: unknown };
		if (BUILDS[build].smsHistory === 'list')
			expect(Array.isArray(body) && body.length).toBe(1); // the 12-character sender's batch
		else {
			expect(body).toMatchObject({ count: 1, next: null, previous: null });
			// (fetch's arrays come from another realm than jest's Array)
			expect(!Array.isArray(body) && Array.isArray(body.results)).toBe(true);
		}
	});
});
