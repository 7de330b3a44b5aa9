/**
 * The product table (each folder's spec.ts under client/products/, listed
 * in registry.ts) is what the nodes show and what the client enforces: type
 * names, operations, AI-tool flags and limits in the node descriptions come from it, and a value the table
 * refuses is refused by the node with nothing bought.
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { NOT_CHARGED_CODES } from '../../client/errors';
import { FIELD_BY_WIRE, PRODUCT_SPECS, PRODUCT_TABLE } from '../../client/products/registry';
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { VtuBulkSms } from '../../nodes/VtuBulkSms/VtuBulkSms.node';
import { VtuCableTv } from '../../nodes/VtuCableTv/VtuCableTv.node';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { VtuElectricity } from '../../nodes/VtuElectricity/VtuElectricity.node';
import { VtuExamPin } from '../../nodes/VtuExamPin/VtuExamPin.node';
import { VtuIdentity } from '../../nodes/VtuIdentity/VtuIdentity.node';
import { VtuRechargeCard } from '../../nodes/VtuRechargeCard/VtuRechargeCard.node';
import { VtuTransaction } from '../../nodes/VtuTransaction/VtuTransaction.node';
import { VtuWallet } from '../../nodes/VtuWallet/VtuWallet.node';
import { ACCOUNT_NODES } from '../../nodes/shared/accountNodes';
import { runNode } from './engine';
import { useVtuSandbox } from './helpers';

const NODES: INodeType[] = [
	new VtuAirtime(),
	new VtuBulkSms(),
	new VtuCableTv(),
	new VtuData(),
	new VtuElectricity(),
	new VtuExamPin(),
	new VtuIdentity(),
	new VtuRechargeCard(),
	new VtuTransaction(),
	new VtuWallet(),
];
const byName = new Map(NODES.map((n) => [n.description.name, n]));
const field = (n: INodeType, name: string): INodeProperties => n.description.properties.find((p) => p.name === name)!;

describe('node descriptions come from the tables', () => {
	test.each([...PRODUCT_SPECS, ...Object.values(ACCOUNT_NODES)].map((s) => [s.node, s] as const))(
		'%s',
		(_name, spec) => {
			const node = byName.get(spec.node);
			expect(node).toBeDefined();
			const d = node!.description;
			// a node is named by the first product registered with it; the others add their operations
			const own = PRODUCT_SPECS.find((p) => p.node === spec.node) ?? spec;
			expect(d.displayName).toBe(`VTU ${own.title}`);
			expect(d.icon).toEqual({ light: `file:${spec.node}.svg`, dark: `file:${spec.node}.dark.svg` });
			const shared = PRODUCT_SPECS.filter((p) => p.node === spec.node).flatMap((p) => p.operations);
			const operations = (shared.length ? shared : spec.operations).map((o) => o.value);
			expect(field(node!, 'operation')).toMatchObject({ default: own.spend });
			const shown = (field(node!, 'operation').options as Array<{ value: string }>).map((o) => o.value);
			expect(shown.sort()).toEqual([...operations].sort());
			for (const o of spec.operations) expect(field(node!, 'operation').options).toContainEqual(o);
			expect(d.usableAsTool).toBe(spec.aiTool);
			expect(d.credentials).toEqual([{ name: 'vtuApi', required: true, testedBy: 'vtuApiTest' }]);
			const hasLookup = operations.includes('getTransaction');
			expect(
				d.properties.some(
					(p) => p.name === 'lookupBy' && p.displayOptions?.show?.operation?.includes('getTransaction'),
				),
			).toBe(hasLookup);
		},
	);

	test('the limits shown are the limits the client enforces', () => {
		const exam = byName.get('vtuExamPin')!;
		const cards = byName.get('vtuRechargeCard')!;
		const L = { exam: PRODUCT_TABLE.exam_pin.limits.quantity, cards: PRODUCT_TABLE.recharge_card.limits.quantity };
		expect(field(exam, 'quantity').typeOptions).toEqual({ minValue: L.exam.min, maxValue: L.exam.max });
		expect(field(cards, 'quantity').typeOptions).toEqual({ minValue: L.cards.min, maxValue: L.cards.max });
		const types = field(byName.get('vtuAirtime')!, 'airtimeType').options as Array<{
			value: string;
			description: string;
		}>;
		expect(types.map((t) => t.description)).toEqual([
			'Direct top-up (minimum ₦50)',
			'Share-and-sell airtime (minimum ₦100)',
		]);
		expect(field(byName.get('vtuBulkSms')!, 'sender').description).toBe(
			`Name the message comes from (at most ${PRODUCT_TABLE.sms.limits.senderChars} characters)`,
		);
	});

	test("a site field error names the client's field", () => {
		expect(FIELD_BY_WIRE).toMatchObject({
			mobile_number: 'phone',
			Ported_number: 'ported',
			smart_card_number: 'iuc',
			network_amount: 'denomination',
			recetipient: 'recipients',
			exam_name: 'exam',
		});
		expect(Object.values(FIELD_BY_WIRE)).not.toContain(undefined);
	});

	test('not-charged codes: refusals and requests that provably never left, never an unclear outcome', () => {
		for (const c of ['network', 'invalid_input', 'forbidden', 'not_charged'])
			expect(NOT_CHARGED_CODES.has(c)).toBe(true);
		for (const c of ['unknown_outcome', 'server', 'bad_response']) expect(NOT_CHARGED_CODES.has(c)).toBe(false);
	});
});

describe('the node refuses what the table refuses, and buys nothing', () => {
	const env = useVtuSandbox();

	test('an exam the site does not list, and one pin over the quantity limit', async () => {
		const before = await env.balance();
		const ex = new VtuExamPin();
		const over = PRODUCT_TABLE.exam_pin.limits.quantity.max + 1;
		const r = await runNode(ex, {
			parameters: { operation: 'buy', exam: 'JAMB', quantity: 1 },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(r.items[0].json).toMatchObject({ code: 'invalid_input', field: 'exam' });
		expect(String(r.items[0].json.error)).toMatch(/WAEC, NECO, NABTEB/);
		const many = await runNode(ex, {
			parameters: { operation: 'buy', exam: 'waec', quantity: over },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(many.items[0].json).toMatchObject({ code: 'invalid_input', field: 'quantity' });
		expect(String(many.items[0].json.error)).toMatch(new RegExp(`from 1 to ${over - 1}`));
		expect(await env.balance()).toBe(before);
	});
});
