/**
 * Secrets through the real n8n engine: a credential whose Base URL carries `user:password@` is refused
 * with a clear invalid_input, and neither the password nor the token (as typed, or trimmed) appears in
 * Continue On Fail items, in the error that stops the node (message, description, cause chain) or in
 * what n8n stores for the run.
 */
import { inspect } from 'node:util';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { runNode, type RunResult } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const data = new VtuData();
const PASSWORD = 'n8nPr0xyPassw0rd';
const params = { operation: 'buy', network: 'MTN', plan: '2', phone: '={{$json.phone}}' };

/** The VTU node's items and error (and, unless the input itself holds a secret, everything n8n keeps of the run). */
function surfaces(r: RunResult, withRunData = true): string[] {
	const out = [JSON.stringify(r.items), inspect(r.items, { depth: Infinity })];
	if (withRunData) out.push(JSON.stringify(r.run.data.resultData));
	for (let cur: unknown = r.error, depth = 0; cur && depth < 8; cur = (cur as { cause?: unknown }).cause, depth++) {
		const e = cur as Error & { description?: unknown };
		out.push(
			String(e.message),
			String(e.description),
			String(e.stack),
			inspect(e, { depth: Infinity, showHidden: true }),
		);
		try {
			out.push(JSON.stringify(e));
		} catch {
			/* circular: inspect above covers it */
		}
	}
	return out;
}

function expectNone(secrets: string[], texts: string[]): void {
	for (const t of texts) for (const s of secrets) expect(t).not.toContain(s);
}

test(
	'a Base URL with user:password@ → invalid_input saying what to type, with Continue On Fail too; ' +
		'no password, no token',
	async () => {
		const token = env.sb.demo.token;
		const creds = {
			baseUrl: env.sb.baseUrl.replace('http://', `http://merchant:${PASSWORD}@`),
			apiToken: ` ${token}\n`,
		};
		const r = await runNode(data, {
			parameters: params,
			input: [{ phone: '08031234567' }],
			creds,
			continueOnFail: true,
		});
		// the client cannot be made, so n8n records the node's error and passes the input on
		expect(r.error?.message).toMatch(
			/must not contain a user name or password.*Type just the address, e\.g\. http:\/\/127\.0\.0\.1:\d+/,
		);
		expect(r.items.map((i) => i.json)).toEqual([{ phone: '08031234567' }]);
		expectNone([PASSWORD, token, token.trim()], surfaces(r));
	},
);

test('the same without Continue On Fail: the node error and its causes carry neither', async () => {
	const token = env.sb.demo.token;
	const creds = { baseUrl: env.sb.baseUrl.replace('http://', `http://merchant:${PASSWORD}@`), apiToken: token };
	const r = await runNode(data, { parameters: params, input: [{ phone: '08031234567' }], creds });
	expect(r.error?.message).toMatch(/must not contain a user name or password/);
	expectNone([PASSWORD, token], surfaces(r));
	expect(await env.balance()).toBe(100_000_000);
});

test('a padded token works, and an item whose phone is the token fails without showing it', async () => {
	const token = env.sb.demo.token;
	const r = await runNode(data, {
		parameters: params,
		input: [{ phone: '08031234567' }, { phone: token }],
		creds: { baseUrl: env.sb.baseUrl, apiToken: `\t${token}  ` },
		continueOnFail: true,
	});
	expect(r.items.map((i) => i.json.status ?? i.json.code)).toEqual(['successful', 'invalid_input']);
	expectNone([token], surfaces(r, false)); // the input item holds the token itself
});

test(
	'the credential test: a Base URL with user:password@ or with the token pasted in it never shows ' + 'either',
	async () => {
		const { vtuApiTest } = await import('../../nodes/shared/credentialTest');
		const { CredentialTestContext } = await import('n8n-core');
		const token = env.sb.demo.token;
		const run = (baseUrl: string) =>
			vtuApiTest.call(new CredentialTestContext(), {
				id: '1',
				name: 'c',
				type: 'vtuApi',
				data: { baseUrl, apiToken: ` ${token} ` },
			});
		const creds = await run(env.sb.baseUrl.replace('http://', `http://merchant:${PASSWORD}@`));
		expect(creds).toMatchObject({ status: 'Error' });
		expect(creds.message).toMatch(/must not contain a user name or password/);
		const noScheme = await run(`merchant:${PASSWORD}@example.com/${token}`);
		expect(noScheme).toMatchObject({ status: 'Error' });
		expect(noScheme.message).toMatch(/must start with http:\/\/ or https:\/\//);
		const notUrl = await run(`example.com/?key=${token}`);
		expect(notUrl.message).toMatch(/^"example\.com\/\?key=\[REDACTED\]" is not a URL/);
		expectNone([PASSWORD, token], [creds.message, noScheme.message, notUrl.message]);
	},
);
