/**
 * The n8n builder's day (issue 25): limits an AI agent cannot move, words a builder reads, a dry run that
 * answers "can I run this?", results a builder can route. Real n8n engine (WorkflowExecute) against the sandbox.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { VtuBulkSms } from '../../nodes/VtuBulkSms/VtuBulkSms.node';
import { VtuCableTv } from '../../nodes/VtuCableTv/VtuCableTv.node';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { VtuElectricity } from '../../nodes/VtuElectricity/VtuElectricity.node';
import { VtuExamPin } from '../../nodes/VtuExamPin/VtuExamPin.node';
import { VtuIdentity } from '../../nodes/VtuIdentity/VtuIdentity.node';
import { VtuRechargeCard } from '../../nodes/VtuRechargeCard/VtuRechargeCard.node';
import { VtuTransaction } from '../../nodes/VtuTransaction/VtuTransaction.node';
import { VtuTransactionTrigger } from '../../nodes/VtuTransactionTrigger/VtuTransactionTrigger.node';
import { VtuWallet } from '../../nodes/VtuWallet/VtuWallet.node';
import { LOCKED_OPTIONS } from '../../nodes/shared/descriptions';
import { runNode } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const airtime = new VtuAirtime();
const ACTION_NODES = [
	VtuAirtime,
	VtuBulkSms,
	VtuCableTv,
	VtuData,
	VtuElectricity,
	VtuExamPin,
	VtuIdentity,
	VtuRechargeCard,
	VtuTransaction,
	VtuWallet,
];

function optionsOf(d: INodeTypeDescription): INodeProperties[] {
	return d.properties.filter((p) => p.name === 'options').flatMap((p) => (p.options ?? []) as INodeProperties[]);
}

describe('limits the model cannot move', () => {
	test(
		'every safety option of every buying node takes no expression (n8n shows the AI button only ' +
			'where expressions are allowed)',
		() => {
			let seen = 0;
			for (const N of ACTION_NODES) {
				for (const o of optionsOf(new N().description)) {
					if (!LOCKED_OPTIONS.includes(o.name)) continue;
					seen++;
					expect([N.name, o.name, o.noDataExpression]).toEqual([N.name, o.name, true]);
				}
			}
			// 7 shared options on each of the 7 buying nodes, plus Validate First x2 and the SMS extras
			expect(seen).toBeGreaterThanOrEqual(7 * 7 + 2 + 5);
		},
	);

	test('the tool list: every action node is usable as a tool, the trigger is not', () => {
		expect(ACTION_NODES.map((N) => [N.name, new N().description.usableAsTool])).toEqual(
			ACTION_NODES.map((N) => [N.name, true]),
		);
		expect(new VtuTransactionTrigger().description.usableAsTool).toBeUndefined();
	});

	test('a Spend Cap written as $fromAI in the workflow JSON is refused and nothing is bought', async () => {
		const before = await env.balance();
		const r = await runNode(airtime, {
			parameters: {
				operation: 'buy',
				network: 'MTN',
				amount: 100,
				phone: '08031230001',
				options: { spendCap: "={{ $fromAI('cap', 'spend cap', 'number') }}" },
			},
			creds: env.creds(),
		});
		expect(r.error?.message).toMatch(/Spend Cap \(₦\)" is filled by the AI model/);
		expect(await env.balance()).toBe(before);
	});
});

describe("builder's words", () => {
	const data = new VtuData();
	test(
		'a plan of another network: the message names the Plan list, not client code, and the row as ' + 'n8n shows it',
		async () => {
			const r = await runNode(data, {
				parameters: { operation: 'buy', network: 'MTN', plan: '={{$json.plan}}', phone: '={{$json.phone}}' },
				input: [
					{ plan: 1, phone: '08031230001' },
					{ plan: 99999, phone: '08031230002' },
				],
				creds: env.creds(),
			});
			expect(r.error?.message).toMatch(/\[row 2\]$/);
			expect(r.error?.message).not.toMatch(/client\.|catalog|\[item/);
			expect(r.error?.message).toMatch(/Plan list/);
		},
	);

	test('a number of another network: "turn on Ported Number", not "set ported: true"', async () => {
		const r = await runNode(airtime, {
			parameters: { operation: 'buy', network: 'MTN', amount: 100, phone: '08051230001' },
			creds: env.creds(),
		});
		expect(r.error?.message).toMatch(/^Phone Number .*turn on Ported Number.*\[row 1\]$/);
	});

	test('Continue On Fail rows carry row (from 1) beside item (from 0)', async () => {
		const r = await runNode(airtime, {
			parameters: {
				operation: 'buy',
				network: 'MTN',
				amount: 100,
				phone: '={{$json.phone}}',
				options: { dryRun: true, dryRunDetail: true },
			},
			input: [{ phone: '08031230001' }, { phone: 'abc' }],
			creds: env.creds(),
			continueOnFail: true,
		});
		const bad = r.items.find((i) => i.json.error !== undefined);
		expect(bad?.json).toMatchObject({ item: 1, row: 2 });
	});
});

describe('dry run: can I run this?', () => {
	const data = new VtuData();
	test(
		'a ₦250 plan against a ₦100 wallet: one summary says cannot run, ' + 'short by ₦150; nothing spent',
		async () => {
			const { token } = await env.admin.createUser({ username: 'short1', balance: '100.00' });
			const r = await runNode(data, {
				parameters: { operation: 'buy', network: 'MTN', plan: 2, phone: '08031230001', options: { dryRun: true } },
				creds: { ...env.creds(), apiToken: token },
			});
			expect(r.error).toBeUndefined();
			expect(r.items).toHaveLength(1);
			expect(r.items[0].json).toMatchObject({
				dryRun: true,
				canRun: false,
				total: '250.00',
				walletBalance: '100.00',
				shortBy: '150.00',
			});
			expect(String(r.items[0].json.verdict)).toMatch(/^Cannot run: 1 row: .*short by ₦150/);
			expect(await env.admin.balanceKobo('short1')).toBe(10000);
		},
	);

	test(
		'without Continue On Fail every bad row is listed with its reason (not just the first); detail ' +
			'gives one item per row',
		async () => {
			const input = [{ phone: '08031230001' }, { phone: 'abc' }, { phone: '08031230002' }, { phone: '0805123' }];
			const r = await runNode(airtime, {
				parameters: {
					operation: 'buy',
					network: 'MTN',
					amount: 100,
					phone: '={{$json.phone}}',
					options: { dryRun: true, dryRunDetail: true },
				},
				input,
				creds: env.creds(),
			});
			expect(r.error).toBeUndefined();
			const s = r.items[0].json;
			// MTN airtime at the account's 2% discount
			expect(s).toMatchObject({ canRun: false, rows: 4, ready: 2, bad: 2, total: '196.00' });
			expect((s.badRows as Array<{ row: number; error: string }>).map((b) => b.row)).toEqual([2, 4]);
			for (const b of s.badRows as Array<{ error: string }>) expect(b.error).toMatch(/^Phone Number .*\[row \d\]$/);
			expect(String(s.summary)).toMatch(/4 rows: 2 ready \(₦196\.00\); 2 bad \(rows 2, 4\)/);
			expect(r.items.slice(1).map((i) => i.json.row)).toEqual([1, 2, 3, 4]);
			expect(r.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		},
	);
});

describe('results a builder can route', () => {
	const input = [{ phone: '08031230001' }, { phone: '0803' }, { phone: '08031230002' }];
	const parameters = { operation: 'buy', network: 'MTN', amount: 100, phone: '={{$json.phone}}' };

	test(
		'On Error: Continue (using error output): the bad row leaves on the error output, bought rows ' +
			'on the main one; a hint counts it',
		async () => {
			const r = await runNode(airtime, {
				parameters,
				input,
				creds: env.creds(),
				settings: { onError: 'continueErrorOutput' },
			});
			expect(r.error).toBeUndefined();
			const task = r.run.data.resultData.runData.VTU[0];
			const [ok, failed] = task.data!.main as Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }>>;
			expect(ok.map((i) => [i.json.status, i.json.recipient])).toEqual([
				['successful', '08031230001'],
				['successful', '08031230002'],
			]);
			expect(failed).toHaveLength(1);
			// n8n merges the input row's fields in; the node's facts are inside `error`
			expect(failed[0].json).toMatchObject({ phone: '0803', error: { code: 'invalid_input', row: 2, item: 1 } });
			expect((failed[0].json.error as { message: string }).message).toMatch(/^Phone Number "0803" .*\[row 2\]$/);
			expect(failed[0].pairedItem).toEqual({ item: 1 });
			expect(task.hints?.map((h) => h.message)).toEqual([
				'1 of 3 rows not done (row 2). They are on the error output.',
			]);
		},
	);

	test(
		'Continue (regular output): failed rows stay among the others, and the output panel says how ' + 'many failed',
		async () => {
			const r = await runNode(airtime, { parameters, input, creds: env.creds(), continueOnFail: true });
			expect(r.items.map((i) => i.json.row ?? i.json.status)).toEqual(['successful', 2, 'successful']);
			const hints = r.run.data.resultData.runData.VTU[0].hints ?? [];
			expect(hints.map((h) => h.message)).toEqual([
				'1 of 3 rows not done (row 2). Choose Settings, On Error: "Continue (using error output)" to ' +
					'route them on their own output.',
			]);
		},
	);
});

describe('an unclear row on the error output', () => {
	test(
		'it carries its request and sentAt inside error; Resolve Unclear Purchase with its default ' +
			'fields settles it (bought), nothing bought twice',
		async () => {
			await env.admin.addFault({ endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
			const r = await runNode(airtime, {
				parameters: { operation: 'buy', network: 'MTN', amount: 100, phone: '08031239911' },
				creds: env.creds(),
				settings: { onError: 'continueErrorOutput' },
			});
			const task = r.run.data.resultData.runData.VTU[0];
			const [ok, failed] = task.data!.main as Array<Array<{ json: Record<string, unknown> }>>;
			expect(ok).toHaveLength(0);
			expect(failed[0].json.error).toMatchObject({ code: 'unknown_outcome', outcome: 'check later', row: 1 });
			expect(task.hints?.[0].message).toBe(
				'1 of 1 row not done (row 1), 1 of them unclear: check later, do not buy again. ' +
					'They are on the error output.',
			);
			const debits = async () => (await env.admin.ledger('demo')).filter((l) => l.kind === 'debit').length;
			const before = await debits();
			const resolved = await runNode(new VtuTransaction(), {
				parameters: { operation: 'resolveUnclear' }, // the defaults read $json.error.request / sentAt
				input: [failed[0].json as IDataObject],
				creds: { ...env.creds(), sharedAccount: false } as never,
			});
			expect(resolved.error).toBeUndefined();
			expect(resolved.items[0].json).toMatchObject({ resolution: 'bought', recipient: '08031239911' });
			expect(await debits()).toBe(before);
		},
	);
});

describe('dropdowns that accept expressions', () => {
	test(
		'every dropdown filled from the site (plan, package, disco, …) takes a mapped value without the ' +
			'editor\'s "not supported" check',
		() => {
			const lists: string[] = [];
			const walk = (props: INodeProperties[], node: string) => {
				for (const p of props) {
					if (p.typeOptions?.loadOptionsMethod) {
						lists.push(`${node}.${p.name}`);
						expect([node, p.name, p.allowArbitraryValues]).toEqual([node, p.name, true]);
					}
					if (p.options)
						walk(
							p.options.filter((o): o is INodeProperties => 'type' in o),
							node,
						);
				}
			};
			for (const N of ACTION_NODES) walk(new N().description.properties, N.name);
			expect(lists).toEqual(expect.arrayContaining(['VtuData.network', 'VtuData.plan']));
		},
	);

	test('network and plan both by expression: the node buys the mapped plan', async () => {
		const data = new VtuData();
		const r = await runNode(data, {
			parameters: {
				operation: 'buy',
				network: '={{ $json.network }}',
				plan: '={{ $json.plan }}',
				phone: '={{ $json.phone }}',
			},
			input: [{ network: 'MTN', plan: 2, phone: '08031230001' }],
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ status: 'successful', recipient: '08031230001', amount: '250.00' });
	});
});

describe('VTU Transaction → Get Many', () => {
	const txn = new VtuTransaction();
	test('Return All, a status filter and a date range', async () => {
		const bought = await runNode(airtime, {
			parameters: { operation: 'buy', network: 'MTN', amount: 100, phone: '={{$json.phone}}' },
			input: [{ phone: '08031230001' }, { phone: '08031230002' }, { phone: '08031230003' }],
			creds: env.creds(),
		});
		expect(bought.error).toBeUndefined();
		await env.admin.setStatus('airtime', Number(bought.items[1].json.id), 'failed');
		const many = async (extra: Record<string, unknown>) => {
			const r = await runNode(txn, {
				parameters: { operation: 'getMany', product: 'airtime', ...extra },
				creds: env.creds(),
			});
			expect(r.error).toBeUndefined();
			return r.items.map((i) => i.json.recipient);
		};
		expect(await many({ returnAll: true })).toEqual(['08031230003', '08031230002', '08031230001']);
		expect(await many({ limit: 2 })).toEqual(['08031230003', '08031230002']);
		expect(await many({ returnAll: true, filters: { status: ['failed'] } })).toEqual(['08031230002']);
		expect(await many({ returnAll: true, filters: { status: ['successful'] } })).toEqual([
			'08031230003',
			'08031230001',
		]);
		const hourAgo = new Date(Date.now() - 3600_000).toISOString();
		const inAnHour = new Date(Date.now() + 3600_000).toISOString();
		expect(await many({ returnAll: true, filters: { createdAfter: hourAgo, createdBefore: inAnHour } })).toHaveLength(
			3,
		);
		expect(await many({ returnAll: true, filters: { createdAfter: inAnHour } })).toEqual([]);
		expect(await many({ returnAll: true, filters: { createdBefore: hourAgo } })).toEqual([]);
		const bad = await runNode(txn, {
			parameters: {
				operation: 'getMany',
				product: 'airtime',
				filters: { createdAfter: inAnHour, createdBefore: hourAgo },
			},
			creds: env.creds(),
		});
		expect(bad.error?.message).toMatch(/^Created After is not before Created Before \[row 1\]$/);
	});
});

describe('found where builders look', () => {
	const codex = (node: string) =>
		JSON.parse(readFileSync(join(__dirname, '../../nodes', node, `${node}.node.json`), 'utf8')) as {
			alias: string[];
			categories: string[];
			subcategories: Record<string, string[]>;
		};
	test.each([
		['VtuAirtime', ['airtime', 'recharge']],
		['VtuData', ['data', 'data bundle']],
		['VtuCableTv', ['DSTV', 'GOtv', 'Startimes']],
		['VtuElectricity', ['NEPA', 'prepaid meter', 'electricity token', 'light bill']],
		['VtuExamPin', ['WAEC', 'NECO', 'JAMB']],
		['VtuRechargeCard', ['recharge card']],
		['VtuBulkSms', ['sms', 'bulk sms']],
		// the node checks a BVN or a NIN: found by those words, not by phone or meter words it does not serve
		['VtuIdentity', ['BVN', 'NIN', 'KYC']],
		['VtuWallet', ['wallet', 'balance']],
		['VtuTransaction', ['transaction', 'requery']],
		['VtuTransactionTrigger', ['failed purchase', 'refund']],
	])('%s is found as %p', (node, names) => {
		const c = codex(node);
		expect(c.alias).toEqual(expect.arrayContaining(names));
		for (const cat of c.categories) expect(c.subcategories[cat]).toEqual(['Nigerian VTU (airtime, data, bills)']);
	});
});
