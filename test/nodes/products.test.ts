/** Wallet, Cable TV, Electricity, Exam Pin, Recharge Card, Bulk SMS, Identity, Transaction nodes. */
import { VtuBulkSms } from '../../nodes/VtuBulkSms/VtuBulkSms.node';
import { VtuCableTv } from '../../nodes/VtuCableTv/VtuCableTv.node';
import { VtuElectricity } from '../../nodes/VtuElectricity/VtuElectricity.node';
import { VtuExamPin } from '../../nodes/VtuExamPin/VtuExamPin.node';
import { VtuIdentity } from '../../nodes/VtuIdentity/VtuIdentity.node';
import { VtuRechargeCard } from '../../nodes/VtuRechargeCard/VtuRechargeCard.node';
import { VtuTransaction } from '../../nodes/VtuTransaction/VtuTransaction.node';
import { VtuWallet } from '../../nodes/VtuWallet/VtuWallet.node';
import { FIXTURES } from '../../sandbox/catalog';
import { loadOptions, runNode } from './engine';
import { expectNoToken, useVtuSandbox } from './helpers';

const env = useVtuSandbox();

describe('VTU Wallet', () => {
	test('profile, balance and price lists', async () => {
		const w = new VtuWallet();
		const p = await runNode(w, { parameters: { operation: 'getProfile' }, creds: env.creds() });
		expect(p.items[0].json).toMatchObject({
			username: 'demo',
			userType: 'API',
			isApiUser: true,
			balance: '1000000.00',
		});
		const b = await runNode(w, { parameters: { operation: 'getBalance' }, creds: env.creds() });
		expect(b.items[0].json).toEqual({ balance: '1000000.00', balanceKobo: 100000000 });
		const all = await runNode(w, { parameters: { operation: 'getPrices', product: 'all' }, creds: env.creds() });
		const products = new Set(all.items.map((i) => i.json.product));
		for (const k of ['data', 'airtime', 'cable', 'electricity', 'exam_pin', 'sms']) expect(products).toContain(k);
		expect(all.items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		const dataPrices = await runNode(w, {
			parameters: { operation: 'getPrices', product: 'data' },
			creds: env.creds(),
		});
		expect(dataPrices.items.find((i) => i.json.label === '1GB SME · ₦250.00 · 30 days')).toBeDefined();
	});
});

describe('VTU Cable TV', () => {
	const cable = new VtuCableTv();
	test('providers and packages with prices; validate IUC; subscribe; get transaction', async () => {
		const providers = await loadOptions(cable, 'getCableProviders', {}, env.creds());
		expect(providers.map((p) => p.name)).toEqual(expect.arrayContaining(['GOTV', 'DSTV']));
		const gotv = providers.find((p) => p.name === 'GOTV')!;
		const packages = await loadOptions(cable, 'getCablePackages', { provider: gotv.value }, env.creds());
		expect(packages.length).toBeGreaterThan(0);
		expect(packages[0].name).toMatch(/· ₦\d{1,3}(,\d{3})*\.\d\d$/);

		const v = await runNode(cable, {
			parameters: { operation: 'validateIuc', provider: gotv.value, iuc: '={{$json.iuc}}' },
			input: [{ iuc: FIXTURES.iuc.GOTV }, { iuc: FIXTURES.iuc.invalid }],
			creds: env.creds(),
		});
		expect(v.items[0].json).toMatchObject({ valid: true, customerName: 'ADEBAYO OLUWASEUN' });
		expect(v.items[1].json.valid).toBe(false);

		const before = await env.balance();
		const s = await runNode(cable, {
			parameters: { operation: 'subscribe', provider: gotv.value, package: packages[0].value, iuc: '={{$json.iuc}}' },
			input: [{ iuc: FIXTURES.iuc.GOTV }, { iuc: FIXTURES.iuc.invalid }],
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(s.items).toHaveLength(2);
		expect(s.items[0].json).toMatchObject({ status: 'successful', product: 'cable', recipient: FIXTURES.iuc.GOTV });
		expect(s.items[1].json.code).toBe('invalid_input');
		expect(String(s.items[1].json.error)).toMatch(/not valid.*nothing was paid \[row 2\]/);
		const charged = Math.round(Number(s.items[0].json.amount) * 100);
		expect(await env.balance()).toBe(before - charged);
		const g = await runNode(cable, {
			parameters: { operation: 'getTransaction', lookupBy: 'id', transactionId: String(s.items[0].json.id) },
			creds: env.creds(),
		});
		expect(g.items[0].json.ident).toBe(s.items[0].json.ident);
	});
});

describe('VTU Electricity', () => {
	const el = new VtuElectricity();
	test('validate meter; buy a prepaid token (token at the top level); dry run', async () => {
		const discos = await loadOptions(el, 'getDiscos', {}, env.creds());
		expect(discos.length).toBeGreaterThan(5);
		const v = await runNode(el, {
			parameters: {
				operation: 'validateMeter',
				disco: discos[0].value,
				meterType: 'prepaid',
				meter: FIXTURES.meter.prepaid,
			},
			creds: env.creds(),
		});
		expect(v.items[0].json).toMatchObject({ valid: true, customerName: 'BOLA AHMED' });
		const before = await env.balance();
		const dry = await runNode(el, {
			parameters: {
				operation: 'buyToken',
				disco: discos[0].value,
				meterType: 'prepaid',
				meter: FIXTURES.meter.prepaid,
				amount: 1000,
				options: { dryRun: true },
			},
			creds: env.creds(),
		});
		expect(dry.items[0].json).toMatchObject({ dryRun: true, total: dry.items[0].json.price });
		expect(await env.balance()).toBe(before);
		const r = await runNode(el, {
			parameters: {
				operation: 'buyToken',
				disco: discos[0].value,
				meterType: 'prepaid',
				meter: FIXTURES.meter.prepaid,
				amount: 1000,
				phone: '08031234567',
			},
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ status: 'successful', product: 'electricity' });
		expect(String(r.items[0].json.token)).toMatch(/\d{4}/);
		expect(await env.balance()).toBe(before - Math.round(Number(r.items[0].json.amount) * 100));
		const bad = await runNode(el, {
			parameters: {
				operation: 'buyToken',
				disco: discos[0].value,
				meterType: 'prepaid',
				meter: FIXTURES.meter.invalid,
				amount: 1000,
			},
			creds: env.creds(),
		});
		expect(bad.error?.message).toMatch(/Meter .* not valid.*\[row 1\]$/);
	});
});

describe('VTU Exam Pin', () => {
	test('exam list with prices; buy 2 WAEC pins; get the order', async () => {
		const ex = new VtuExamPin();
		const exams = await loadOptions(ex, 'getExams', {}, env.creds());
		expect(exams.map((e) => e.value)).toEqual(expect.arrayContaining(['WAEC', 'NECO', 'NABTEB']));
		expect(exams[0].name).toMatch(/₦\d{1,3}(,\d{3})*\.\d\d per pin/);
		const before = await env.balance();
		const r = await runNode(ex, { parameters: { operation: 'buy', exam: 'WAEC', quantity: 2 }, creds: env.creds() });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ status: 'successful', product: 'exam_pin' });
		expect(r.items[0].json.pins).toHaveLength(2);
		expect(await env.balance()).toBe(before - Math.round(Number(r.items[0].json.amount) * 100));
		const o = await runNode(ex, {
			parameters: { operation: 'getOrder', orderId: String(r.items[0].json.id) },
			creds: env.creds(),
		});
		expect(o.items[0].json.pins).toEqual(r.items[0].json.pins);
		const tooMany = await runNode(ex, {
			parameters: { operation: 'buy', exam: 'NECO', quantity: 9 },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(tooMany.items[0].json.code).toBe('invalid_input');
	});
});

describe('VTU Recharge Card', () => {
	test('denominations; order 3 cards as items with CSV and HTML print sheet', async () => {
		const rc = new VtuRechargeCard();
		const dens = await loadOptions(rc, 'getRechargeDenominations', { network: 1 }, env.creds());
		expect(dens.length).toBeGreaterThan(0);
		expect(dens[0].name).toMatch(/MTN ₦\d{1,3}(,\d{3})*\.\d\d card · you pay ₦\d{1,3}(,\d{3})*\.\d\d/);
		const before = await env.balance();
		const r = await runNode(rc, {
			parameters: {
				operation: 'order',
				network: 1,
				denomination: dens[0].value,
				quantity: 3,
				nameOnCard: 'Ade <Stores>',
				output: 'cards',
				printableFile: 'both',
			},
			creds: env.creds(),
		});
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(3);
		for (const [n, it] of r.items.entries()) {
			expect(it.json).toMatchObject({ cardNumber: n + 1, cardCount: 3, status: 'successful' });
			expect(String(it.json.pin)).toMatch(/^\d{10,}$/);
			expect(it.pairedItem).toEqual({ item: 0 });
		}
		const bin = r.items[0].binary!;
		expect(bin.csv.mimeType).toBe('text/csv');
		const csv = Buffer.from(bin.csv.data, 'base64').toString('utf8');
		expect(csv.split('\n')[0]).toBe('network,amount,pin,serial,load_code,name_on_card');
		expect(csv).toContain(String(r.items[2].json.pin));
		const html = Buffer.from(bin.html.data, 'base64').toString('utf8');
		expect(html).toContain('<!doctype html>');
		expect(html).toContain('Ade &#60;Stores&#62;');
		expect(html.match(/class="card"/g)).toHaveLength(3);
		expect(await env.balance()).toBe(before - Math.round(Number(r.items[0].json.orderAmount) * 100));
		const order = await runNode(rc, {
			parameters: { operation: 'order', network: 1, denomination: dens[0].value, quantity: 2, output: 'order' },
			creds: env.creds(),
		});
		expect(order.items).toHaveLength(1);
		expect(order.items[0].json.cards).toHaveLength(2);
	});
});

describe('VTU Bulk SMS', () => {
	const sms = new VtuBulkSms();
	const csvOf = (item: { binary?: Record<string, { data: string }> }) =>
		Buffer.from(item.binary!.rejected.data, 'base64').toString('utf8');

	test(
		'dry run accounts for every row (blank, letters, wrong length, non-mobile prefixes, duplicates, ' +
			'opt-outs) and spends nothing',
		async () => {
			const before = await env.balance();
			const input = [
				{ name: 'Ada', phone: '08031234567' },
				{ name: 'Bayo', phone: '' },
				{ name: 'Chi', phone: '0803ABC4567' },
				{ name: 'Dayo', phone: '0803123' },
				{ name: 'Efe', phone: '08001234567' }, // toll-free
				{ name: 'Femi', phone: '07001234567' }, // premium / personal
				{ name: 'Gbenga', phone: '07111234567' }, // not a mobile range
				{ name: 'Hauwa', phone: '+234 803 123 4567' }, // Ada again
				{ name: 'Ife', phone: '08051234567' }, // opted out
				{ name: 'Jide', phone: ['08061234567', '09161234567'] },
			];
			const dry = await runNode(sms, {
				parameters: {
					operation: 'send',
					sender: 'AdeStores',
					message: 'Promo: ₦500 off',
					recipientsFrom: 'allItems',
					phoneField: 'phone',
					options: { dryRun: true, nameField: 'name', optOut: '0805 123 4567' },
				},
				input,
				creds: env.creds(),
			});
			expect(dry.error).toBeUndefined();
			expect(dry.items).toHaveLength(1);
			const j = dry.items[0].json;
			expect(j).toMatchObject({ dryRun: true, rows: 11, toSend: 3, duplicates: 1, invalid: 6, optedOut: 1, pages: 1 });
			expect(Number(j.toSend) + Number(j.duplicates) + Number(j.invalid) + Number(j.optedOut)).toBe(j.rows);
			expect(j.invalidReasons).toEqual({ blank: 1, letters: 1, 'wrong length': 1, 'not a Nigerian mobile prefix': 3 });
			expect(String(j.summary)).toMatch(
				/^3 to send \+ 1 duplicates \+ 6 invalid \+ 1 opted out = 11 rows; costs ₦\d+\.\d\d$/,
			);
			expect(j.costKobo).toBe(3 * Number(j.rateKobo));
			expect(j.cost).toBe(`₦${(Number(j.costKobo) / 100).toFixed(2)}`);
			expect(String(j.unicodeWarning)).toContain('₦');
			// the first keys an owner sees are the counts and the cost
			expect(Object.keys(j).slice(0, 3)).toEqual(['dryRun', 'product', 'summary']);
			const csv = csvOf(dry.items[0] as never)
				.trim()
				.split('\n');
			expect(csv[0]).toBe('row,name,number,status,reason');
			expect(csv).toContain('2,Bayo,,invalid,blank');
			expect(csv).toContain('5,Efe,08001234567,invalid,not a Nigerian mobile prefix');
			// ' keeps a spreadsheet from reading +234… as a formula
			expect(csv).toContain("8,Hauwa,'+234 803 123 4567,duplicate,number already texted by row 1");
			expect(csv).toContain('9,Ife,08051234567,opted out,on the opt-out list');
			expect(csv).toHaveLength(1 + 8);
			expect(await env.balance()).toBe(before);
		},
	);

	test(
		'dry run lists every bad row (empty or too long message, bad number) with its row and prices ' + 'the rest',
		async () => {
			const input = [
				{ text: 'Hi Ada', phone: '08031234567' },
				{ text: '', phone: '08061234567' },
				{ text: 'x'.repeat(906), phone: '08051234567' },
				{ text: 'Hi Bayo', phone: '0803' },
			];
			const dry = await runNode(sms, {
				parameters: {
					operation: 'send',
					sender: 'Shop',
					message: '={{ $json.text }}',
					recipientsFrom: 'allItems',
					phoneField: 'phone',
					output: 'recipients',
					options: { dryRun: true },
				},
				input,
				creds: env.creds(),
			});
			expect(dry.error).toBeUndefined();
			expect(dry.items.map((i) => [i.json.row, i.json.status, i.json.reason])).toEqual([
				[1, 'would send', null],
				[2, 'invalid', 'message is empty; write the SMS text.'],
				[3, 'invalid', expect.stringMatching(/^message is 906 characters; the maximum is 905/)],
				[4, 'invalid', 'wrong length'],
			]);
		},
	);

	test(
		'a personalised campaign is one campaign: one text per number, charged exactly the quote, one ' +
			'item per recipient on request',
		async () => {
			const input = [
				{ first: 'Ada', phone: '08031234567' },
				{ first: 'Bayo', phone: '08061234567' },
				{ first: 'Ada', phone: '0803 123 4567' }, // same number, same message: skipped
				{ first: 'Aisha', phone: '08031234567' }, // same number under another name: skipped too
				{ first: 'Chi', phone: '12' },
				{ first: '', phone: '08051234567' }, // personalised message still fine
			];
			const parameters = {
				operation: 'send',
				sender: 'AdeStores',
				message: '={{ "Hi " + $json.first + ", your order is ready" }}',
				recipientsFrom: 'allItems',
				phoneField: 'phone',
				options: { batchSize: 2 },
			};
			const dry = await runNode(sms, {
				parameters: { ...parameters, options: { batchSize: 2, dryRun: true } },
				input,
				creds: env.creds(),
			});
			const q = dry.items[0].json;
			expect(q).toMatchObject({
				rows: 6,
				toSend: 3,
				duplicates: 2,
				invalid: 1,
				messages: 3,
				requests: 3,
				duplicateNumbers: [{ number: '08031234567', rows: [1, 3, 4] }],
			});
			const before = await env.balance();
			const r = await runNode(sms, { parameters: { ...parameters, output: 'recipients' }, input, creds: env.creds() });
			expect(r.error).toBeUndefined();
			expect(before - (await env.balance())).toBe(q.costKobo);
			expect(r.items.map((i) => [i.json.row, i.json.status, i.pairedItem])).toEqual([
				[1, 'sent', { item: 0 }],
				[2, 'sent', { item: 1 }],
				[3, 'duplicate', { item: 2 }],
				[4, 'duplicate', { item: 3 }],
				[5, 'invalid', { item: 4 }],
				[6, 'sent', { item: 5 }],
			]);
			expect(r.items[3].json.reason).toBe('number already texted by row 1');
			const campaignId = r.items[0].json.campaignId;
			expect(typeof campaignId).toBe('string');
			expect(new Set(r.items.map((i) => i.json.campaignId))).toEqual(new Set([campaignId]));
			expect(r.items[4].json.reason).toBe('wrong length');
			expect(typeof r.items[0].json.batch).toBe('string');

			// List Batches by campaign: the 3 requests are one campaign, under the same id
			const list = await runNode(sms, {
				parameters: { operation: 'listBatches', groupBy: 'campaign', returnAll: true },
				creds: env.creds(),
			});
			expect(list.items[0].json).toMatchObject({
				campaignId,
				sender: 'AdeStores',
				batches: 3,
				recipients: 3,
				messages: 3,
				amountKobo: q.costKobo,
			});
		},
	);

	test(
		'fixed campaign: summary first, pages counted in characters like the site (emoji), sandbox ' +
			'charge = quote, batches and DND',
		async () => {
			const message = '🎉'.repeat(100); // 100 characters (200 UTF-16 units): one page on the real server
			const parameters = {
				operation: 'send',
				sender: 'AdeStores',
				message,
				recipientsFrom: 'field',
				recipients: '08031234567, 08031234568, 0803 123 4567, 123',
				dnd: true,
			};
			const dry = await runNode(sms, { parameters: { ...parameters, options: { dryRun: true } }, creds: env.creds() });
			expect(dry.items[0].json).toMatchObject({
				dryRun: true,
				rows: 4,
				toSend: 2,
				pages: 1,
				duplicates: 1,
				invalid: 1,
				dnd: true,
			});
			const before = await env.balance();
			const r = await runNode(sms, {
				parameters: { ...parameters, options: { batchSize: 1, spendCap: Number(dry.items[0].json.costKobo) / 100 } },
				creds: env.creds(),
			});
			expect(r.error).toBeUndefined();
			expect(r.items[0].json).toMatchObject({
				status: 'successful',
				rows: 4,
				sent: 2,
				requests: 2,
				chargedKobo: dry.items[0].json.costKobo,
			});
			expect(before - (await env.balance())).toBe(dry.items[0].json.costKobo);
			expect(csvOf(r.items[0] as never)).toContain('1,,123,invalid,wrong length');
		},
	);

	test('nothing valid, or outside the send window: refused, nothing spent', async () => {
		const before = await env.balance();
		const none = await runNode(sms, {
			parameters: { operation: 'send', sender: 'Shop', message: 'Hi', recipients: '08001234567, abc' },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(none.items[0].json).toMatchObject({ code: 'invalid_input' });
		const h = (new Date().getUTCHours() + 1) % 24; // Lagos hour now
		const closed = await runNode(sms, {
			parameters: {
				operation: 'send',
				sender: 'Shop',
				message: 'Hi',
				recipients: '08031234567',
				options: { sendWindowStart: (h + 2) % 24, sendWindowEnd: (h + 3) % 24 },
			}, // closed now and in the next hour
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(closed.items[0].json).toMatchObject({ code: 'not_charged' });
		expect(String(closed.items[0].json.error)).toMatch(/Outside the send window/);
		expect(await env.balance()).toBe(before);
	});

	test('one campaign from all input items (pairedItem to every item); list batches', async () => {
		const r = await runNode(sms, {
			parameters: {
				operation: 'send',
				sender: 'Shop',
				message: 'Promo',
				recipientsFrom: 'allItems',
				phoneField: 'phone',
			},
			input: [{ phone: '08031234567' }, { phone: '08051234567' }, { phone: ['08061234567', '08071234567'] }],
			creds: env.creds(),
		});
		expect(r.items).toHaveLength(1);
		expect(r.items[0].json.sent).toBe(4);
		expect(r.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const list = await runNode(sms, { parameters: { operation: 'listBatches', returnAll: true }, creds: env.creds() });
		expect(list.items.length).toBeGreaterThanOrEqual(1);
		expect(list.items[0].json).toMatchObject({ sender: 'Shop', recipientCount: 4 });
	});

	test(
		'List Batches: Return All reads every page (15 a page here); by campaign, the batches of one ' + 'send are one row',
		async () => {
			const numbers = Array.from({ length: 40 }, (_, i) => `0803${String(1000000 + i)}`);
			const sent = await runNode(sms, {
				parameters: {
					operation: 'send',
					sender: 'Bulk',
					message: 'Sale',
					recipients: numbers.join(','),
					options: { batchSize: 1 },
				},
				creds: env.creds(),
			});
			expect(sent.items[0].json).toMatchObject({ sent: 40, requests: 40 });
			const all = await runNode(sms, { parameters: { operation: 'listBatches', returnAll: true }, creds: env.creds() });
			expect(all.items.filter((i) => i.json.sender === 'Bulk')).toHaveLength(40);
			const campaigns = await runNode(sms, {
				parameters: { operation: 'listBatches', groupBy: 'campaign', limit: 1 },
				creds: env.creds(),
			});
			expect(campaigns.items).toHaveLength(1);
			expect(campaigns.items[0].json).toMatchObject({
				campaignId: sent.items[0].json.campaignId,
				sender: 'Bulk',
				batches: 40,
				recipients: 40,
				messages: 1,
				message: 'Sale',
			});
		},
	);
});

describe('VTU Identity', () => {
	test('validate BVN and NIN; malformed number refused locally', async () => {
		const id = new VtuIdentity();
		const b = await runNode(id, {
			parameters: { operation: 'validateBvn', number: FIXTURES.bvn.valid },
			creds: env.creds(),
		});
		expect(b.items[0].json).toMatchObject({ valid: true, kind: 'bvn', firstName: 'Olumide', lastName: 'Bankole' });
		const n = await runNode(id, {
			parameters: { operation: 'validateNin', number: FIXTURES.nin.valid },
			creds: env.creds(),
		});
		expect(n.items[0].json).toMatchObject({ valid: true, kind: 'nin', firstName: 'Amina' });
		const bad = await runNode(id, {
			parameters: { operation: 'validateBvn', number: '123' },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(bad.items[0].json).toMatchObject({ code: 'invalid_input' });
		expect(String(bad.items[0].json.error)).toMatch(/not 11 digits \[row 1\]$/);
	});
});

describe('VTU Transaction', () => {
	test('get any product by id or ident; get many', async () => {
		const { VtuData } = await import('../../nodes/VtuData/VtuData.node');
		const bought = await runNode(new VtuData(), {
			parameters: { operation: 'buy', network: 1, plan: 2, phone: '08031234567' },
			creds: env.creds(),
		});
		const { id, ident } = bought.items[0].json;
		const tx = new VtuTransaction();
		const a = await runNode(tx, {
			parameters: { operation: 'get', product: 'data', lookupBy: 'ident', transactionId: ident },
			creds: env.creds(),
		});
		expect(a.items[0].json).toMatchObject({ id, ident, status: 'successful' });
		const m = await runNode(tx, {
			parameters: { operation: 'getMany', product: 'data', limit: 5 },
			creds: env.creds(),
		});
		expect(m.items.map((i) => i.json.ident)).toContain(ident);
		const wrong = await runNode(tx, {
			parameters: { operation: 'get', product: 'airtime', lookupBy: 'id', transactionId: String(id) },
			creds: env.creds(),
			continueOnFail: true,
		});
		expect(wrong.items[0].json.code).toBe('not_found');
		expectNoToken(env.sb.demo.token, a.items, m.items, wrong.items);
	});
});
