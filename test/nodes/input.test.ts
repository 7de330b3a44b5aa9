/**
 * The nodes read parameters with the client's parser (client/input.ts), through the real n8n engine:
 * what the client refuses, a node refuses the same way (an invalid_input item saying what to type, no
 * purchase), and what it accepts, a node accepts.
 */
import { VtuAirtime } from '../../nodes/VtuAirtime/VtuAirtime.node';
import { VtuBulkSms } from '../../nodes/VtuBulkSms/VtuBulkSms.node';
import { VtuCableTv } from '../../nodes/VtuCableTv/VtuCableTv.node';
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { VtuRechargeCard } from '../../nodes/VtuRechargeCard/VtuRechargeCard.node';
import { runNode } from './engine';
import { useVtuSandbox } from './helpers';

const env = useVtuSandbox();
const data = new VtuData();

async function ledger(): Promise<number> {
	return (await env.admin.transactions({ username: 'demo' })).length;
}

test(
	'VTU Data: plan "0x2", "1e1", "1.1e1", " 2.0" are refused as the client refuses them; nothing ' + 'bought',
	async () => {
		const before = await ledger();
		const plans = ['0x2', '1e1', '1.1e1', '2.0', '+2', '2; 3'];
		const r = await runNode(data, {
			parameters: { operation: 'buy', network: 'MTN', plan: '={{ $json.plan }}', phone: '08031234567' },
			input: plans.map((plan) => ({ plan })),
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(r.items).toHaveLength(plans.length);
		r.items.forEach((it, i) => {
			expect(it.json).toMatchObject({ code: 'invalid_input', field: 'plan' });
			expect(String(it.json.error)).toContain(
				`Plan must be a positive whole number (the plan ID from the list); got ${JSON.stringify(plans[i])}`,
			);
		});
		expect(await ledger()).toBe(before);
		// the digits themselves are fine
		const ok = await runNode(data, {
			parameters: { operation: 'buy', network: 'MTN', plan: '={{ $json.plan }}', phone: '08031234567' },
			input: [{ plan: ' 2 ' }],
			creds: env.creds(),
		});
		expect(ok.items[0].json).toMatchObject({ status: 'successful', plan: 2 });
	},
);

test(
	'ported and dnd are strict booleans, the same in every node: the text "true" is refused, not ' + 'read as false',
	async () => {
		const before = await ledger();
		const d = await runNode(data, {
			parameters: { operation: 'buy', network: 'MTN', plan: '2', phone: '08051234567', ported: '={{ $json.ported }}' },
			input: [{ ported: 'true' }],
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(d.items[0].json).toMatchObject({ code: 'invalid_input', field: 'ported' });
		expect(String(d.items[0].json.error)).toMatch(/ported must be true or false \(a boolean\), not "true"/);
		const a = await runNode(new VtuAirtime(), {
			parameters: {
				operation: 'buy',
				network: 'MTN',
				amount: 100,
				phone: '08051234567',
				ported: '={{ $json.ported }}',
			},
			input: [{ ported: 'yes' }],
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(a.items[0].json).toMatchObject({ code: 'invalid_input', field: 'ported' });
		const s = await runNode(new VtuBulkSms(), {
			parameters: { operation: 'send', sender: 'Shop', message: 'Hi', recipients: '08031234567', dnd: '={{ "true" }}' },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(s.items[0].json).toMatchObject({ code: 'invalid_input' });
		expect(String(s.items[0].json.error)).toMatch(/dnd must be true or false \(a boolean\), not "true"/);
		expect(await ledger()).toBe(before);
	},
);

test('a toll-free number is refused for data even when marked ported, as in the bot and in SMS', async () => {
	const before = await ledger();
	const r = await runNode(data, {
		parameters: { operation: 'buy', network: 'MTN', plan: '2', phone: '={{ $json.phone }}', ported: true },
		input: [{ phone: '0800 123 4567' }, { phone: '07001234567' }],
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(r.items.map((i) => i.json.field)).toEqual(['phone', 'phone']);
	expect(String(r.items[0].json.error)).toMatch(
		/is not a Nigerian mobile number: 0800 is not the prefix of a mobile network/,
	);
	expect(await ledger()).toBe(before);
});

test('catalogue ids and quantities of the other nodes: digits only', async () => {
	const cable = await runNode(new VtuCableTv(), {
		parameters: { operation: 'subscribe', provider: 'GOTV', package: '={{ "1e0" }}', iuc: '7012345678' },
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(cable.items[0].json).toMatchObject({ code: 'invalid_input', field: 'package' });
	const cards = await runNode(new VtuRechargeCard(), {
		parameters: { operation: 'order', network: 'MTN', denomination: '={{ "0x1" }}', quantity: 1 },
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(cards.items[0].json).toMatchObject({ code: 'invalid_input', field: 'denomination' });
	const qty = await runNode(new VtuRechargeCard(), {
		parameters: { operation: 'order', network: 'MTN', denomination: '1', quantity: '={{ "1e1" }}' },
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(qty.items[0].json).toMatchObject({ code: 'invalid_input', field: 'quantity' });
	expect(String(qty.items[0].json.error)).toMatch(/got "1e1"/);
});

test('a phone mapped to an object is an invalid_input item, not a crash', async () => {
	const r = await runNode(data, {
		parameters: { operation: 'buy', network: 'MTN', plan: '2', phone: '={{ $json.phone }}' },
		input: [{ phone: { number: '08031234567' } }],
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(r.items[0].json).toMatchObject({ code: 'invalid_input' });
	expect(String(r.items[0].json.error)).toMatch(/Phone.* must be text, not an object/i);
});
