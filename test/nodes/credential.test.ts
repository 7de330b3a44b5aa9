/**
 * vtuApi credential: its authenticate function; the node-side vtuApiTest function, in n8n's credential-test context.
 */
import './setup-env';
import { CredentialTestContext } from 'n8n-core';
import { VtuApi } from '../../credentials/VtuApi.credentials';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { vtuApiTest } from '../../nodes/shared/credentialTest';
import { runNode } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const cred = new VtuApi();
const test_ = (baseUrl: string, apiToken: string) =>
	// n8n's own context for credential tests: its only request helper is `request` (n8n's HTTP stack)
	vtuApiTest.call(new CredentialTestContext(), { id: '1', name: 'c', type: 'vtuApi', data: { baseUrl, apiToken } });

describe('credential description', () => {
	test(
		'Token header from a function (no expression), password field, no declarative test (n8n would ' +
			'prefer it over testedBy)',
		async () => {
			expect(cred.name).toBe('vtuApi');
			const options = { url: 'https://x.example/api/user/', headers: { Accept: 'application/json' } };
			expect(await cred.authenticate({ apiToken: ' tok123 ' }, options)).toEqual({
				url: 'https://x.example/api/user/',
				headers: { Accept: 'application/json', Authorization: 'Token tok123' },
			});
			expect(options.headers).toEqual({ Accept: 'application/json' }); // the caller's options are not changed
			expect(cred.properties.find((p) => p.name === 'apiToken')?.typeOptions?.password).toBe(true);
			expect((cred as { test?: unknown }).test).toBeUndefined();
		},
	);

	test('every node is tested by vtuApiTest', () => {
		const d = new VtuData();
		expect(d.description.credentials).toEqual([{ name: 'vtuApi', required: true, testedBy: 'vtuApiTest' }]);
		expect(d.methods.credentialTest.vtuApiTest).toBe(vtuApiTest);
	});
});

describe('vtuApiTest', () => {
	test('OK with the demo API user (base URL with /api and trailing slash accepted)', async () => {
		const r = await test_(`${env.sb.baseUrl}/api/`, env.sb.demo.token);
		expect(r).toEqual({
			status: 'OK',
			message: expect.stringMatching(/Connected as demo \(API account\), balance ₦1,000,000\.00$/),
		});
	});

	test('bad token → 401 wording; never echoes the token', async () => {
		const bad = 'a'.repeat(40);
		const r = await test_(env.sb.baseUrl, bad);
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/rejected the API token \(HTTP 401\)/);
		expect(r.message).not.toContain(bad);
	});

	test('IP not whitelisted → 403 wording naming both causes', async () => {
		const { token } = await env.admin.createUser({ username: 'wl', balance: '100.00', whitelist: ['10.9.9.9'] });
		const r = await test_(env.sb.baseUrl, token);
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/HTTP 403/);
		expect(r.message).toMatch(/IP whitelist/);
		expect(r.message).toMatch(/not of type API/);
		expect(r.message).not.toContain(token);
	});

	test('account not of type API: 403 when the site enforces it, a clear message when it does not', async () => {
		const { token } = await env.admin.createUser({ username: 'retail', user_type: 'Smart Earner', balance: '100.00' });
		const enforced = await test_(env.sb.baseUrl, token);
		expect(enforced.message).toMatch(/not of type API/);
		await env.admin.setConfig({ enforce_user_type: false });
		const lax = await test_(env.sb.baseUrl, token);
		expect(lax).toEqual({
			status: 'Error',
			message: expect.stringMatching(/token works, but account "retail" is of type "Smart Earner", not API/),
		});
	});

	test('unreachable base URL and a non-URL say what to check', async () => {
		const r = await test_('http://127.0.0.1:9', env.sb.demo.token);
		expect(r.status).toBe('Error');
		expect(r.message).toMatch(/Could not reach http:\/\/127\.0\.0\.1:9/);
		expect(r.message).toMatch(/Check the Base URL/);
		const bad = await test_('not a url', env.sb.demo.token);
		expect(bad.message).toMatch(/is not a URL/);
	});
});

describe('node errors for credential problems', () => {
	test('unreachable base URL: the node says what happened and how to fix it', async () => {
		const r = await runNode(new VtuData(), {
			parameters: { operation: 'listPlans', network: 1 },
			creds: { baseUrl: 'http://127.0.0.1:9', apiToken: env.sb.demo.token },
		});
		expect(r.error).toBeDefined();
		expect(`${r.error!.message} ${r.error!.description}`).toMatch(/Base URL/);
		expect(r.error!.message).toMatch(/\[row 1\]$/);
		expect(JSON.stringify(r.run.data.resultData)).not.toContain(env.sb.demo.token);
	});
});
