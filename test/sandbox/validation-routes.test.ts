/**
 * The two validation route forms (/api and the website's /ajax),
 * switchable per site, and gateway-status faults on reads.
 */
import { useSandbox } from './helpers';

const env = useSandbox({ dialect: 'family', seed: 5 });
const IUC = '?smart_card_number=7012345678&cablename=GOTV';
const METER = '?meternumber=45012345678&disconame=Ikeja%20Electric&mtype=Prepaid';

describe('validation routes', () => {
	test('both forms answer by default, with the same body', async () => {
		const [a, b] = [await env.get(`/api/validateiuc/${IUC}`), await env.get(`/ajax/validate_iuc/${IUC}`)];
		expect(a.status).toBe(200);
		expect(b.json).toEqual(a.json);
		expect(a.json.invalid).toBe(false);
		const [m, n] = [
			await env.get(`/api/validatemeter/${METER}`),
			await env.get(`/ajax/validate_meter_number/${METER}`),
		];
		expect(n.json).toEqual(m.json);
		expect(m.json.address).not.toBe('');
	});

	test.each([
		['ajax', '/api/validateiuc/', '/ajax/validate_iuc/', IUC],
		['api', '/ajax/validate_meter_number/', '/api/validatemeter/', METER],
	] as const)('validation_routes "%s": the other form is Django\'s 404 page', async (form, gone, served, q) => {
		expect((await env.admin.setConfig({ validation_routes: form })).validation_routes).toBe(form);
		const r = await env.get(gone + q);
		expect(r.status).toBe(404);
		expect(r.text).toContain('<h1>Not Found</h1>');
		expect((await env.get(served + q)).status).toBe(200);
	});

	test('an unknown value is refused; reset restores both', async () => {
		await expect(env.admin.setConfig({ validation_routes: 'none' as 'api' })).rejects.toMatchObject({ status: 400 });
		await env.admin.setConfig({ validation_routes: 'api' });
		await env.admin.reset();
		expect((await env.admin.getConfig()).validation_routes).toBe('both');
	});
});

describe('error_before with a gateway status', () => {
	test.each([502, 503, 504] as const)('%i: the proxy page on a GET; the next read answers', async (status) => {
		await env.admin.addFault({ endpoint: 'GET /api/user/', kind: 'error_before', httpStatus: status, count: 1 });
		const r = await env.get('/api/user/');
		expect(r.status).toBe(status);
		expect(r.text).toContain(`<h1>${status} `);
		expect((await env.get('/api/user/')).status).toBe(200);
		expect((await env.admin.faultLog()).map((f) => [f.kind, f.request, f.httpStatus])).toEqual([
			['error_before', 'GET /api/user/', status],
		]);
	});

	test('a status other than 500/502/503/504 is refused', async () => {
		await expect(
			env.admin.addFault({ endpoint: '*', kind: 'error_before', httpStatus: 404 as 500 }),
		).rejects.toMatchObject({ status: 400 });
	});
});
