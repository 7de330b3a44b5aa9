/**
 * n8n's Retry On Fail re-runs a node in the same execution: the purchase nodes give back what the earlier
 * try bought instead of buying it again. And the Spend Cap counts what one execution spent whatever other
 * executions run meanwhile. Real n8n engine (WorkflowExecute) against the sandbox.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { ALREADY_BOUGHT_NOTE } from '../../nodes/shared/runner';
import { RETRY_NOTICE } from '../../nodes/shared/product';
import { runNode, runNodeTwice } from './engine';
import { expectNoToken, useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const airtime = new VtuAirtime();
const buy = (options: Record<string, unknown> = {}) => ({
	operation: 'buy',
	network: 'MTN',
	amount: 100,
	phone: '={{$json.phone}}',
	options,
});
const phones = [{ phone: '08031230001' }, { phone: '08031230002' }, { phone: '08031230003' }];
const RETRY = { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };

async function airtimeDebits(): Promise<number> {
	return (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit' && l.product === 'airtime').length;
}

/** Forwards to the sandbox; the `nth` POST to `path` is answered 429 with a long Retry-After (never reaches it). */
async function limitNth(target: string, path: string, nth: number) {
	let posts = 0;
	const server = http.createServer((req, res) => {
		const body: Buffer[] = [];
		req.on('data', (c) => body.push(c));
		req.on('end', () => {
			if (req.method === 'POST' && req.url === path && ++posts === nth) {
				res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
				res.end(JSON.stringify({ detail: 'Request was throttled. Expected available in 60 seconds.' }));
				return;
			}
			const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (ur) => {
				res.writeHead(ur.statusCode ?? 502, ur.headers);
				ur.pipe(res);
			});
			up.on('error', () => res.destroy());
			up.end(Buffer.concat(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		posts: () => posts,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

describe('Retry On Fail', () => {
	test(
		'the node fails on its third item; n8n re-runs it: items 1-2 come back as bought, only item 3 ' +
			'is bought, 3 debits',
		async () => {
			const proxy = await limitNth(env.sb.baseUrl, '/api/topup/', 3);
			const r = await runNode(airtime, {
				parameters: buy({ concurrency: 1 }),
				input: phones,
				creds: { ...env.creds(), baseUrl: proxy.url },
				settings: RETRY,
			}).finally(proxy.close);
			expect(r.error).toBeUndefined();
			expect(proxy.posts()).toBe(4); // 3 on the first try (the third refused), 1 on the second
			expect(r.items.map((i) => [i.json.status, i.json.path, i.json.recipient])).toEqual([
				['successful', 'already_bought_this_execution', '08031230001'],
				['successful', 'already_bought_this_execution', '08031230002'],
				['successful', 'direct', '08031230003'],
			]);
			expect(r.items[0].json).toMatchObject({ boughtVia: 'direct', note: ALREADY_BOUGHT_NOTE });
			expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(await airtimeDebits()).toBe(3);
		},
	);

	test(
		'Continue On Fail, an answer lost after the charge: n8n retries, nothing is bought twice, the ' +
			'unclear item says how to settle it',
		async () => {
			await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
			const r = await runNode(airtime, {
				parameters: buy({ concurrency: 1 }),
				input: phones,
				creds: env.creds(),
				continueOnFail: true,
				settings: RETRY,
			});
			expect(r.error).toBeUndefined();
			expect(r.items).toHaveLength(3);
			const [unclear, b, c] = r.items.map((i) => i.json);
			// the first item's record is seen but the account may be shared: it stays unclear, it is never re-sent
			expect(unclear).toMatchObject({ code: 'unknown_outcome', outcome: 'check later', item: 0 });
			expect(unclear.request).toMatchObject({ product: 'airtime', phone: '08031230001', network: 'MTN' });
			expect(Date.parse(String(unclear.sentAt))).not.toBeNaN();
			expect(Date.parse(String(unclear.resolvableAfter))).toBeGreaterThan(Date.parse(String(unclear.sentAt)));
			expect(unclear.candidates).toEqual([
				expect.objectContaining({
					reference: expect.any(String),
					status: 'successful',
					time: expect.any(String),
					amount: expect.stringMatching(/^\d+\.\d\d$/),
				}),
			]);
			// n8n re-ran the node (the first item was an error): the two others come back from the first try
			expect([b.path, c.path]).toEqual(['already_bought_this_execution', 'already_bought_this_execution']);
			expect(await airtimeDebits()).toBe(3);
			expectNoToken(env.sb.demo.token, r.items);
		},
	);

	test(
		'a node that runs twice in one execution (a loop) buys twice: a retry is recognised by its run, ' + 'not its items',
		async () => {
			const r = await runNodeTwice(airtime, {
				parameters: buy(),
				input: [phones[0]],
				creds: env.creds(),
				gate: Promise.resolve(),
			});
			expect(r.errors).toEqual([]);
			expect(r.runs.map((items) => items.map((i) => i.json.path))).toEqual([['direct'], ['direct']]);
			expect(await airtimeDebits()).toBe(2);
		},
	);

	test('every buying node warns about Retry On Fail where its options are', () => {
		const notice = airtime.description.properties.find((p) => p.type === 'notice' && p.name === 'retryOnFailNotice');
		expect(notice).toMatchObject({ displayName: RETRY_NOTICE, displayOptions: { show: { operation: ['buy'] } } });
	});
});

describe('Spend Cap', () => {
	test("an execution's running spend survives 40 other executions that run meanwhile", async () => {
		let open!: () => void;
		const gate = new Promise<void>((resolve) => (open = resolve));
		const capped = runNodeTwice(airtime, {
			parameters: buy({ spendCap: 150 }),
			input: [phones[0]],
			creds: env.creds(),
			continueOnFail: true,
			gate,
		});
		// wait until the first run has bought (a condition, not a delay), then run other executions
		while ((await airtimeDebits()) < 1) await new Promise((r) => setImmediate(r));
		for (let n = 0; n < 40; n++) {
			const other = await runNode(airtime, {
				parameters: buy({ dryRun: true, spendCap: 150 }),
				input: [phones[1]],
				creds: env.creds(),
			});
			expect(other.items[0].json).toMatchObject({ dryRun: true, withinSpendCap: true });
		}
		open();
		const r = await capped;
		expect(r.runs[0][0].json.status).toBe('successful');
		expect(r.runs[1][0].json).toMatchObject({ code: 'spend_cap' });
		expect(String(r.runs[1][0].json.error)).toMatch(/over the Spend Cap of ₦150\.00/);
		expect(await airtimeDebits()).toBe(1);
	});
});
