/** VTU Wallet → Get History against the family sandbox over HTTP: one item per wallet row, newest first. */
import { VtuData } from '../../nodes/VtuData/VtuData.node';
import { VtuWallet } from '../../nodes/VtuWallet/VtuWallet.node';
import { runNode } from './engine';
import { expectNoToken, useVtuSandbox } from './helpers';

const env = useVtuSandbox({ dialect: 'family' });

test('Get History: the debits of purchases, newest first, searchable, capped by Max Rows', async () => {
	const phones = ['08031110001', '08031110002', '08031110003'];
	for (const phone of phones)
		await runNode(new VtuData(), {
			parameters: { operation: 'buy', network: 1, plan: 3, phone },
			creds: env.creds(),
		});
	const w = new VtuWallet();
	const all = await runNode(w, { parameters: { operation: 'getHistory', maxRows: 50 }, creds: env.creds() });
	const ledger = (await env.admin.ledger('demo')).reverse();
	expect(all.items.map((i) => i.json.amountKobo)).toEqual(ledger.map((e) => e.amountKobo));
	expect(all.items.slice(0, 3).map((i) => i.json.direction)).toEqual(['debit', 'debit', 'debit']);
	expect(String(all.items[0].json.text)).toContain(phones[2]);
	const one = await runNode(w, {
		parameters: { operation: 'getHistory', search: phones[0], maxRows: 50 },
		creds: env.creds(),
	});
	expect(one.items).toHaveLength(1);
	expect(String(one.items[0].json.text)).toContain(phones[0]);
	const capped = await runNode(w, { parameters: { operation: 'getHistory', maxRows: 2 }, creds: env.creds() });
	expect(capped.items).toHaveLength(2);
	expectNoToken(env.sb.demo.token, all.items, one.items);
});

test('Get History: a bad Max Rows is invalid_input', async () => {
	const r = await runNode(new VtuWallet(), {
		parameters: { operation: 'getHistory', maxRows: 1.5 },
		creds: env.creds(),
		continueOnFail: true,
	});
	expect(r.items[0].json).toMatchObject({ error: expect.stringContaining('Max Rows') });
});
