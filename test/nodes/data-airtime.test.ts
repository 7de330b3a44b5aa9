/** VTU Data and VTU Airtime through the real n8n engine against the sandbox; the shared runner's options. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { loadOptions, runNode } from './engine';
import { expectNoToken, useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const data = new VtuData();
const airtime = new VtuAirtime();

async function mtnPlans() {
	const nets = await loadOptions(data, 'getNetworks', {}, env.creds());
	const mtn = nets.find((n) => n.name === 'MTN')!;
	const plans = await loadOptions(data, 'getDataPlans', { network: mtn.value }, env.creds());
	return { mtn, plans };
}

const buy = (extra: Record<string, unknown> = {}) => ({
	operation: 'buy',
	network: 1,
	plan: '={{$json.plan ?? 2}}',
	phone: '={{$json.phone}}',
	...extra,
});

describe('VTU Data', () => {
	test('loadOptions: networks, then plans of the network with size, kind, price and validity', async () => {
		const { mtn, plans } = await mtnPlans();
		// values are strings, networks by name: what a sheet column holds matches the dropdown
		expect(mtn.value).toBe('MTN');
		expect(plans.length).toBeGreaterThan(2);
		expect(plans[1].value).toBe('2');
		expect(plans[1].name).toBe('1GB SME · ₦250.00 · 30 days');
		for (const p of plans) expect(p.name).toMatch(/^\S+ .+ · ₦\d{1,3}(,\d{3})*\.\d\d( · .+)?/);
		// no network chosen yet → no plans, no request
		expect(await loadOptions(data, 'getDataPlans', {}, env.creds())).toEqual([]);
		// no credential yet (n8n 2.x asks once before filling it in) → an empty list, not an error
		expect(await loadOptions(data, 'getNetworks', {}, undefined)).toEqual([]);
	});

	test('buy: one item, safe-purchase fields in the output, wallet debited by the plan price', async () => {
		const before = await env.balance();
		const r = await runNode(data, {
			parameters: buy(),
			input: [{ phone: '0803 123 4567', plan: 2 }],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(1);
		const j = r.items[0].json;
		expect(j).toMatchObject({
			status: 'successful',
			path: 'direct',
			product: 'data',
			amount: '250.00',
			recipient: '08031234567',
		});
		expect(typeof j.ident).toBe('string');
		expect(j.balance).toBe(((before - 25000) / 100).toFixed(2));
		expect(r.items[0].pairedItem).toEqual({ item: 0 });
		expect(await env.balance()).toBe(before - 25000);
		const txns = await env.admin.transactions({ username: 'demo', product: 'data' });
		expect(txns.map((t) => t.ident)).toContain(j.ident);
		expectNoToken(env.sb.demo.token, r.items);
	});

	test('list plans and get a transaction by ID and by reference', async () => {
		const list = await runNode(data, { parameters: { operation: 'listPlans', network: 'MTN' }, creds: env.creds() });
		expect(list.items.length).toBeGreaterThan(2);
		expect(list.items[1].json).toMatchObject({ size: '1GB', kind: 'SME', price: '250.00', network: 'MTN' });
		const bought = await runNode(data, { parameters: buy(), input: [{ phone: '08031234567' }], creds: env.creds() });
		const { id, ident } = bought.items[0].json;
		const byId = await runNode(data, {
			parameters: { operation: 'getTransaction', lookupBy: 'id', transactionId: String(id) },
			creds: env.creds(),
		});
		expect(byId.items[0].json).toMatchObject({ id, ident, status: 'successful', amount: '250.00' });
		const byIdent = await runNode(data, {
			parameters: { operation: 'getTransaction', lookupBy: 'ident', transactionId: ident },
			creds: env.creds(),
		});
		expect(byIdent.items[0].json).toMatchObject({ id, ident });
		const missing = await runNode(data, {
			parameters: { operation: 'getTransaction', lookupBy: 'id', transactionId: '999999' },
			creds: env.creds(),
		});
		expect(missing.error?.message).toMatch(/\[row 1\]$/);
	});

	test(
		'continueOnFail: a bad row among good rows → one result per row, the bad one says why, only ' + 'good rows charged',
		async () => {
			const before = await env.balance();
			const r = await runNode(data, {
				parameters: buy(),
				input: [
					{ phone: '08031234567' },
					{ phone: '12345' },
					{ phone: '08039876543' },
					{ phone: '08031112222', plan: 99999 },
				],
				creds: env.creds(),
				continueOnFail: true,
			});
			expect(r.error).toBeUndefined();
			expect(r.items).toHaveLength(4);
			expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
			expect(r.items[0].json.status).toBe('successful');
			expect(r.items[1].json).toMatchObject({ code: 'invalid_input', item: 1 });
			expect(String(r.items[1].json.error)).toMatch(/phone|number/i);
			expect(String(r.items[1].json.error)).toMatch(/\[row 2\]$/);
			expect(r.items[2].json.status).toBe('successful');
			expect(r.items[3].json.code).toBe('invalid_input');
			expect(String(r.items[3].json.error)).toMatch(/plan/i);
			expect(await env.balance()).toBe(before - 2 * 25000);
		},
	);

	test('without continueOnFail a bad row stops the run before anything is bought', async () => {
		const before = await env.balance();
		const r = await runNode(data, {
			parameters: buy(),
			input: [{ phone: '08031234567' }, { phone: 'abc' }],
			creds: env.creds(),
		});
		expect(r.error).toBeDefined();
		expect(r.error!.message).toMatch(/\[row 2\]$/);
		expect(r.items).toHaveLength(0);
		expect(await env.balance()).toBe(before);
	});

	test('dry run: prices every item, shows the total, spends nothing', async () => {
		const before = await env.balance();
		const ledgerBefore = await env.admin.ledger('demo');
		const r = await runNode(data, {
			parameters: buy({ options: { dryRun: true, dryRunDetail: true } }),
			input: [{ phone: '08031234567' }, { phone: '08031234568', plan: 1 }, { phone: '08031234569' }],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({
			dryRun: true,
			canRun: true,
			rows: 3,
			ready: 3,
			bad: 0,
			total: '630.00',
			shortBy: '0.00',
			badRows: [],
		});
		expect(r.items[0].json.walletBalance).toBe((before / 100).toFixed(2));
		expect(r.items.slice(1).map((i) => [i.json.row, i.json.price])).toEqual([
			[1, '250.00'],
			[2, '130.00'],
			[3, '250.00'],
		]);
		expect(await env.balance()).toBe(before);
		expect(await env.admin.ledger('demo')).toEqual(ledgerBefore);
		expect(await env.admin.transactions({ username: 'demo', product: 'data' })).toHaveLength(0);
	});

	test('spend cap: items that would go over the cap are refused before sending', async () => {
		const before = await env.balance();
		const r = await runNode(data, {
			parameters: buy({ options: { spendCap: 600 } }),
			input: [
				{ phone: '08031234561' },
				{ phone: '08031234562' },
				{ phone: '08031234563' },
				{ phone: '08031234564', plan: 1 },
			],
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(r.items).toHaveLength(4);
		expect(r.items[0].json.status).toBe('successful');
		expect(r.items[1].json.status).toBe('successful');
		expect(r.items[2].json).toMatchObject({ code: 'spend_cap', item: 2 });
		expect(String(r.items[2].json.error)).toContain('Spend Cap of ₦600.00');
		expect(r.items[3].json.code).toBe('spend_cap'); // 500 + 130 > 600
		expect(await env.balance()).toBe(before - 50000);
		expect(await env.admin.transactions({ username: 'demo', product: 'data' })).toHaveLength(2);
	});

	test('spend cap without continueOnFail: refuses the whole run before anything is sent', async () => {
		const before = await env.balance();
		const r = await runNode(data, {
			parameters: buy({ options: { spendCap: 300 } }),
			input: [{ phone: '08031234561' }, { phone: '08031234562' }],
			creds: env.creds(),
		});
		expect(r.error?.message).toMatch(/Spend Cap.*\[row 2\]$/);
		expect(await env.balance()).toBe(before);
	});

	test('concurrency: 12 items, 4 at a time → results in input order with pairedItem', async () => {
		// A gate in front of the sandbox holds each purchase until 4 are waiting: the node must keep
		// exactly 4 in flight (3 at a time would never open it; 5 would show in `most`).
		const gate = await purchaseGate(env.sb.baseUrl, '/api/data/', 4);
		const input = Array.from({ length: 12 }, (_, n) => ({
			phone: `080312345${String(n).padStart(2, '0')}`,
			plan: n % 2 ? 1 : 2,
		}));
		const r = await runNode(data, {
			parameters: buy({ options: { concurrency: 4 } }),
			input,
			creds: { ...env.creds(), baseUrl: gate.url },
		}).finally(gate.close);
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(12);
		r.items.forEach((it, n) => {
			expect(it.pairedItem).toEqual({ item: n });
			expect(it.json.recipient).toBe(input[n].phone);
			expect(it.json.amount).toBe(n % 2 ? '130.00' : '250.00');
		});
		expect([gate.most(), gate.rounds()]).toEqual([4, 3]);
		expect(await env.admin.transactions({ username: 'demo', product: 'data' })).toHaveLength(12);
	});

	test(
		'Buy Coupon: data coupons for a plan, pins in the output, the wallet debited once; bad quantity ' + 'buys nothing',
		async () => {
			const before = await env.balance();
			const r = await runNode(data, {
				parameters: { operation: 'buyCoupon', network: 'MTN', plan: '2', quantity: 2, nameOnCard: 'Ade Stores' },
				creds: env.creds(),
			});
			expect(r.error).toBeUndefined();
			expect(r.items[0].json).toMatchObject({
				product: 'data_coupon',
				status: 'successful',
				path: 'direct',
				amount: '500.00',
				nameOnCard: 'Ade Stores',
			});
			expect(r.items[0].json.cards).toHaveLength(2);
			expect(before - (await env.balance())).toBe(50_000);
			const bad = await runNode(data, {
				parameters: { operation: 'buyCoupon', network: 'MTN', plan: '2', quantity: 40 },
				creds: env.creds(),
			});
			expect(bad.error?.message ?? '').toMatch(/quantity/i);
			expect(before - (await env.balance())).toBe(50_000);
		},
	);

	test('every ID can be set by expression (network by name)', async () => {
		const r = await runNode(data, {
			parameters: { operation: 'buy', network: '={{$json.net}}', plan: '={{$json.planId}}', phone: '={{$json.phone}}' },
			input: [{ net: 'MTN', planId: '2', phone: '08031234567' }],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ status: 'successful', amount: '250.00' });
	});

	test('wait for final status: a processing purchase is followed to successful', async () => {
		await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 300, finalStatus: 'successful' } });
		const r = await runNode(data, {
			parameters: buy({ options: { waitForFinal: true, waitTimeout: 10 } }),
			input: [{ phone: '08031234567' }],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.status).toBe('successful');
		const plain = await runNode(data, { parameters: buy(), input: [{ phone: '08031234567' }], creds: env.creds() });
		expect(plain.items[0].json.status).toBe('processing');
	});

	test('a bad token: NodeApiError that says how to fix it, never the token', async () => {
		const bad = 'f'.repeat(40);
		const r = await runNode(data, {
			parameters: buy(),
			input: [{ phone: '08031234567' }],
			creds: { ...env.creds(), apiToken: bad },
		});
		expect(r.error).toBeDefined();
		expect(r.error!.message).toMatch(/token/i);
		expect(`${r.error!.message} ${r.error!.description}`).toMatch(/credential/i);
		expectNoToken(bad, r.error!.message, r.error!.description, JSON.stringify(r.run.data.resultData));
		const c = await runNode(data, {
			parameters: buy(),
			input: [{ phone: '08031234567' }],
			creds: { ...env.creds(), apiToken: bad },
			continueOnFail: true,
		});
		expect(c.items[0].json).toMatchObject({ code: 'auth', httpStatus: 401 });
		expectNoToken(bad, c.items);
	});
});

describe('VTU Airtime', () => {
	test('buy VTU and Share and Sell; wallet charged the discounted price', async () => {
		const before = await env.balance();
		const r = await runNode(airtime, {
			parameters: {
				operation: 'buy',
				network: 1,
				airtimeType: '={{$json.type}}',
				amount: '={{$json.amount}}',
				phone: '={{$json.phone}}',
			},
			input: [
				{ phone: '08031234567', amount: 100, type: 'VTU' },
				{ phone: '08031234568', amount: 200, type: 'Share and Sell' },
			],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(2);
		expect(r.items[0].json).toMatchObject({ status: 'successful', product: 'airtime', recipient: '08031234567' });
		const charged = r.items.reduce((s, i) => s + Math.round(Number(i.json.amount) * 100), 0);
		expect(charged).toBeLessThanOrEqual(30000);
		expect(await env.balance()).toBe(before - charged);
		const got = await runNode(airtime, {
			parameters: { operation: 'getTransaction', lookupBy: 'ident', transactionId: r.items[1].json.ident },
			creds: env.creds(),
		});
		expect(got.items[0].json).toMatchObject({ ident: r.items[1].json.ident, product: 'airtime' });
	});

	test(
		"a field mapped as {{ $json.x }} (read from the item directly) prices exactly as n8n's own " + 'evaluation',
		async () => {
			const input = [
				{ phone: '0803 123 4567', amount: 150, 'Phone Number': '08061234567', 'Amount (₦)': '250.50', net: 'MTN' },
				{ phone: '07031234567', amount: '100', 'Phone Number': '0706 123 4567', 'Amount (₦)': 300, net: 1 },
			];
			const dry = (network: string, amount: string, phone: string) =>
				runNode(airtime, {
					parameters: {
						operation: 'buy',
						network,
						airtimeType: 'VTU',
						amount,
						phone,
						options: { dryRun: true, dryRunDetail: true },
					},
					input,
					creds: env.creds(),
					continueOnFail: true,
				}).then((r) => ({ ...r, items: r.items.slice(1) })); // the per-row detail after the summary
			const before = await env.balance();
			const forms: Array<[string, string, string]> = [
				['={{ $json.net }}', '={{ $json.amount }}', '={{ $json.phone }}'],
				['={{$json["net"]}}', '={{ $json["Amount (₦)"] }}', "={{ $json['Phone Number'] }}"],
				['={{ $json.net }}', '={{ $json.missing }}', '={{ $json.phone }}'],
			];
			for (const [network, amount, phone] of forms) {
				const direct = await dry(network, amount, phone);
				// the same expressions in a form only n8n can evaluate
				const viaN8n = await dry(
					...([network, amount, phone].map((e) => e.replace('{{', '{{ (').replace(/\s*\}\}$/, ') }}')) as [
						string,
						string,
						string,
					]),
				);
				expect(direct.items.map((i) => i.json)).toEqual(viaN8n.items.map((i) => i.json));
				expect(direct.items).toHaveLength(2);
			}
			const ok = await dry(...forms[1]);
			expect(
				ok.items.map((i) => [
					i.json.recipient,
					i.json.price,
					i.json.network ?? (i.json.request as { network: number }).network,
				]),
			).toEqual([
				['08061234567', '245.49', 1],
				['07061234567', '294.00', 1],
			]);
			const missing = await dry(...forms[2]);
			expect(missing.items[0].json).toMatchObject({ code: 'invalid_input' });
			expect(String(missing.items[0].json.error)).toMatch(/Amount is empty/);
			expect(await env.balance()).toBe(before);
		},
	);

	test('below the minimum amount → refused locally, nothing sent', async () => {
		const before = await env.balance();
		const r = await runNode(airtime, {
			parameters: { operation: 'buy', network: 1, airtimeType: 'VTU', amount: 10, phone: '08031234567' },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(r.items[0].json.code).toBe('invalid_input');
		expect(await env.balance()).toBe(before);
	});
});

/**
 * A loopback proxy to the sandbox that holds POSTs to `path` until `size` of them wait, then lets
 * the batch through; counts the most held at once and the batches released.
 */
async function purchaseGate(target: string, path: string, size: number) {
	const waiting: (() => void)[] = [];
	let inFlight = 0;
	let most = 0;
	let rounds = 0;
	const server = http.createServer((req, res) => {
		const body: Buffer[] = [];
		req.on('data', (c) => body.push(c));
		req.on('end', () => {
			const gated = req.method === 'POST' && req.url === path;
			const forward = () => {
				const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (ur) => {
					res.writeHead(ur.statusCode ?? 502, ur.headers);
					ur.pipe(res).on('finish', () => gated && inFlight--);
				});
				up.on('error', () => res.destroy());
				up.end(Buffer.concat(body));
			};
			if (!gated) return forward();
			inFlight++;
			most = Math.max(most, inFlight);
			waiting.push(forward);
			if (waiting.length === size) {
				rounds++;
				for (const go of waiting.splice(0)) go();
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		most: () => most,
		rounds: () => rounds,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
