/**
 * Bulk SMS on family builds: the send is answered with a text ("Message succesfully sent"), no record.
 * The client names the history row only with proof (client/purchase/attribute.ts); otherwise the result
 * says it was sent and names no record. Against the family sandbox over HTTP; every POST carries a tag,
 * so the sandbox tells which row each send really created.
 */
import {
	AccountRegistry,
	VtuClient,
	createNodeTransport,
	type PurchaseResult,
	type SmsPurchase,
	type Transport,
} from '../../client';
import { startEnv, type Env } from './helpers';

let env: Env;
beforeAll(async () => {
	env = await startEnv('family');
});
afterAll(() => env.close());

function tagged(tag: string): Transport {
	const inner = createNodeTransport();
	return (req) => inner(req.method === 'POST' ? { ...req, headers: { ...req.headers, 'x-sandbox-tag': tag } } : req);
}
const client = (tag: string, accounts: AccountRegistry) =>
	new VtuClient({
		baseUrl: env.sb.baseUrl,
		token: env.sb.demo.token,
		transport: tagged(tag),
		timeoutMs: 5_000,
		accounts,
	});
const identOf = async (tag: string) =>
	(await env.admin.transactions({ username: 'demo', product: 'sms' })).filter((t) => t.tag === tag).map((t) => t.ident);

/** Another process's send: the same body over plain fetch. */
async function rawSend(req: Omit<SmsPurchase, 'product'>, tag: string): Promise<void> {
	const { request } = await env.client.quote({ product: 'sms', ...req });
	const res = await fetch(`${env.sb.baseUrl}/api/sendsms/`, {
		method: 'POST',
		headers: { Authorization: `Token ${env.sb.demo.token}`, 'Content-Type': 'application/json', 'x-sandbox-tag': tag },
		body: JSON.stringify(request),
	});
	expect(res.status).toBe(200);
}

/** Every named record is the send's own row; returns how many were named. */
async function checkNamed(results: Array<[string, PurchaseResult]>): Promise<number> {
	let named = 0;
	for (const [tag, r] of results) {
		expect(r.status).toBe('successful');
		if (r.ident === null) {
			expect(r.details.attribution).toMatch(/^no record named: /);
			continue;
		}
		named++;
		expect([tag, r.ident]).toEqual([tag, (await identOf(tag))[0]]);
	}
	return named;
}

test('a lone send: its own history row is named', async () => {
	const [r] = await client('lone', new AccountRegistry()).sms.send({
		sender: 'Shop',
		message: 'lone send',
		recipients: '08031234567',
	});
	expect(r.ident).toBe((await identOf('lone'))[0]);
	expect(r.details.attribution).toMatch(/only matching history row/);
});

test('another process sent the identical SMS just before: no record is named (two rows could be it)', async () => {
	const req = { sender: 'Shop', message: 'twin send', recipients: '08031234568' };
	await rawSend(req, 'twin-other');
	const [r] = await client('twin-mine', new AccountRegistry()).sms.send(req);
	expect(r).toMatchObject({ status: 'successful', id: null, ident: null });
	expect(r.details.attribution).toMatch(/2 identical sends/);
});

test("one process, 4 identical sends at once: a named record is always the send's own", async () => {
	const accounts = new AccountRegistry();
	const req = { sender: 'Shop', message: 'four at once', recipients: '08031234569' };
	const tags = ['f1', 'f2', 'f3', 'f4'];
	const res = await Promise.all(
		tags.map(async (t) => [t, (await client(t, accounts).sms.send(req))[0]] as [string, PurchaseResult]),
	);
	await checkNamed(res);
});

test('one process, 4 different sends at once: each names its own row', async () => {
	const accounts = new AccountRegistry();
	const tags = ['d1', 'd2', 'd3', 'd4'];
	const res = await Promise.all(
		tags.map(
			async (t) =>
				[
					t,
					(
						await client(t, accounts).sms.send({ sender: 'Shop', message: `different ${t}`, recipients: '08031234570' })
					)[0],
				] as [string, PurchaseResult],
		),
	);
	expect(await checkNamed(res)).toBe(4);
});
