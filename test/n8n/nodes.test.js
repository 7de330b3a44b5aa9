'use strict';
// Every node and operation of n8n-nodes-vtu in a real n8n (test/n8n/n8n-versions.json) against the sandbox:
// output items and the sandbox ledger (exact debits in kobo). Run: npm run test:n8n
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { useVtuN8n } = require('./harness');

const vtu = useVtuN8n();
const exec = vtu.runNode;

function ok(r) {
	assert.equal(r.run.status, 'success', JSON.stringify(r.run.nodeError('Node') || r.run.error));
	return r.out;
}

const debits = (ledger) => ledger.map((l) => [l.kind, l.product, l.amountKobo]);
const TS = /^\d{4}-\d\d-\d\dT/;

test('all eleven nodes (and their AI-tool variants) are loaded', async () => {
	const names = [
		'vtuWallet',
		'vtuData',
		'vtuAirtime',
		'vtuCableTv',
		'vtuElectricity',
		'vtuExamPin',
		'vtuRechargeCard',
		'vtuBulkSms',
		'vtuIdentity',
		'vtuTransaction',
		'vtuTransactionTrigger',
	];
	for (const n of names) assert.ok(vtu.n8n.loadedNodes.includes(vtu.n8n.nodeType(n)), `${n} not loaded`);
	for (const n of ['vtuWallet', 'vtuData', 'vtuAirtime', 'vtuIdentity', 'vtuTransaction']) {
		assert.ok(vtu.n8n.loadedNodes.includes(vtu.n8n.nodeType(`${n}Tool`)), `${n}Tool not loaded`);
	}
	assert.ok((await vtu.n8n.loadedCredentialTypes()).includes('vtuApi'));
});

test('VTU Wallet: getProfile, getBalance, getPrices', async () => {
	const profile = ok(await exec('vtuWallet', { operation: 'getProfile' }));
	assert.deepEqual(profile, [
		{
			username: 'demo',
			fullName: 'Demo Merchant',
			email: 'demo@sandbox.invalid',
			phone: '08030000000',
			userType: 'API',
			isApiUser: true,
			balance: '1000000.00',
			balanceKobo: 100000000,
		},
	]);
	assert.deepEqual(ok(await exec('vtuWallet', { operation: 'getBalance' })), [
		{ balance: '1000000.00', balanceKobo: 100000000 },
	]);

	const data = ok(await exec('vtuWallet', { operation: 'getPrices', product: 'data' }));
	assert.equal(data.length, 33);
	assert.deepEqual(
		data.find((p) => p.id === 2),
		{
			product: 'data',
			network: 'MTN',
			networkId: 1,
			id: 2,
			name: '1GB SME',
			size: '1GB',
			kind: 'SME',
			price: '250.00',
			validity: '30 days',
			available: true,
			label: '1GB SME · ₦250.00 · 30 days',
		},
	);
	const all = ok(await exec('vtuWallet', { operation: 'getPrices', product: 'all' }));
	const count = (p) => all.filter((x) => x.product === p).length;
	assert.deepEqual(
		{
			data: count('data'),
			airtime: count('airtime'),
			cable: count('cable'),
			electricity: count('electricity'),
			exam_pin: count('exam_pin'),
			sms: count('sms'),
			recharge_card: count('recharge_card'),
		},
		{ data: 33, airtime: 4, cable: 12, electricity: 12, exam_pin: 3, sms: 1, recharge_card: 16 },
	);
	assert.deepEqual(
		all.find((x) => x.product === 'sms'),
		{ product: 'sms', name: 'Bulk SMS', perPage: '1.80', dndPerPage: '3.50' },
	);
	assert.deepEqual(
		all.find((x) => x.product === 'exam_pin' && x.name === 'WAEC'),
		{ product: 'exam_pin', name: 'WAEC', price: '3300.00' },
	);
});

let dataTxn;
test('VTU Data: listPlans, buy (₦250 debit), getTransaction by id and by ident', async () => {
	const plans = ok(await exec('vtuData', { operation: 'listPlans', network: '1' }));
	assert.equal(plans.length, 9);
	assert.deepEqual(plans[1], {
		id: 2,
		network: 'MTN',
		networkId: 1,
		size: '1GB',
		kind: 'SME',
		price: '250.00',
		validity: '30 days',
		available: true,
		label: '1GB SME · ₦250.00 · 30 days',
	});
	assert.equal(plans.find((p) => p.id === 9).available, false);

	const r = await exec('vtuData', { operation: 'buy', network: '1', plan: '2', phone: '08031234567' });
	const [item] = ok(r);
	assert.equal(ok(r).length, 1);
	assert.equal(item.status, 'successful');
	assert.equal(item.product, 'data');
	assert.equal(item.plan, 2);
	assert.equal(item.network, 'MTN');
	assert.equal(item.amount, '250.00');
	assert.equal(item.recipient, '08031234567');
	assert.match(item.ident, /^Data[0-9a-f]+-\d+$/);
	assert.match(item.createdAt, TS);
	assert.deepEqual(debits(r.ledger), [['debit', 'data', 25000]]);
	assert.equal(r.ledger[0].txnId, item.id);
	assert.equal(r.ledger[0].ident, item.ident);
	assert.equal(item.balance, (r.ledger[0].balanceAfterKobo / 100).toFixed(2));
	dataTxn = item;

	const byId = ok(
		await exec('vtuData', { operation: 'getTransaction', lookupBy: 'id', transactionId: String(item.id) }),
	);
	assert.deepEqual(byId, [item]);
	const byIdent = await exec('vtuData', { operation: 'getTransaction', lookupBy: 'ident', transactionId: item.ident });
	assert.equal(ok(byIdent)[0].id, item.id);
	assert.equal(ok(byIdent)[0].ident, item.ident);
	assert.deepEqual(byIdent.ledger, []);
});

test('VTU Airtime: buy ₦100 VTU (98% = 9,800 kobo), Share and Sell ₦200 (97%), getTransaction', async () => {
	const r = await exec('vtuAirtime', { operation: 'buy', network: '1', amount: 100, phone: '08031234567' });
	const [item] = ok(r);
	assert.equal(item.status, 'successful');
	assert.equal(item.faceValue, '100.00');
	assert.equal(item.type, 'VTU');
	assert.equal(item.amount, '98.00');
	assert.deepEqual(debits(r.ledger), [['debit', 'airtime', 9800]]);

	const s = await exec('vtuAirtime', {
		operation: 'buy',
		network: '4',
		amount: 200,
		airtimeType: 'Share and Sell',
		phone: '08021234567',
	});
	assert.equal(ok(s)[0].type, 'Share and Sell');
	assert.equal(ok(s)[0].network, 'AIRTEL');
	assert.deepEqual(debits(s.ledger), [['debit', 'airtime', 19400]]);

	const got = ok(
		await exec('vtuAirtime', { operation: 'getTransaction', lookupBy: 'id', transactionId: String(item.id) }),
	);
	assert.deepEqual(got, [item]);
});

test(
	'VTU Cable TV: validateIuc (valid and invalid), subscribe GOtv Smallie ₦1,560, invalid IUC ' +
		'refused, getTransaction',
	async () => {
		assert.deepEqual(ok(await exec('vtuCableTv', { operation: 'validateIuc', provider: '1', iuc: '7012345678' })), [
			{ valid: true, customerName: 'ADEBAYO OLUWASEUN', iuc: '7012345678', provider: 1 },
		]);
		const bad = ok(await exec('vtuCableTv', { operation: 'validateIuc', provider: 'GOTV', iuc: '7010000000' }));
		assert.equal(bad.length, 1);
		assert.equal(bad[0].valid, false);

		const r = await exec('vtuCableTv', { operation: 'subscribe', provider: '1', package: '1', iuc: '7012345678' });
		const [item] = ok(r);
		assert.equal(item.status, 'successful');
		assert.equal(item.packageName, 'GOtv Smallie');
		assert.equal(item.customerName, 'ADEBAYO OLUWASEUN');
		assert.equal(item.amount, '1560.00');
		assert.equal(item.recipient, '7012345678');
		assert.deepEqual(debits(r.ledger), [['debit', 'cable', 156000]]);

		const refused = await exec('vtuCableTv', {
			operation: 'subscribe',
			provider: '1',
			package: '1',
			iuc: '7010000000',
		});
		assert.equal(refused.run.status, 'error');
		assert.match(refused.run.nodeError('Node').message, /IUC number 7010000000 is not valid.*nothing was paid/);
		assert.deepEqual(refused.ledger, []);

		const got = ok(
			await exec('vtuCableTv', { operation: 'getTransaction', lookupBy: 'ident', transactionId: item.ident }),
		);
		assert.equal(got[0].id, item.id);
		assert.equal(got[0].amount, '1560.00');
	},
);

test(
	'VTU Electricity: validateMeter, buyToken ₦1,000 prepaid (token in output), invalid meter ' +
		'refused, getTransaction',
	async () => {
		assert.deepEqual(
			ok(
				await exec('vtuElectricity', {
					operation: 'validateMeter',
					disco: '1',
					meterType: 'prepaid',
					meter: '45012345678',
				}),
			),
			[
				{
					valid: true,
					customerName: 'BOLA AHMED',
					address: '73 Allen Avenue',
					meter: '45012345678',
					meterType: 'prepaid',
					disco: 1,
				},
			],
		);
		const r = await exec('vtuElectricity', {
			operation: 'buyToken',
			disco: '1',
			meterType: 'prepaid',
			meter: '45012345678',
			amount: 1000,
			phone: '08031234567',
		});
		const [item] = ok(r);
		assert.equal(item.status, 'successful');
		assert.match(item.token, /^\d{4}-\d{4}-\d{4}-\d{4}-\d{4}$/);
		assert.equal(item.customerName, 'BOLA AHMED');
		assert.equal(item.disco, 'Ikeja Electric');
		assert.equal(item.amount, '1000.00');
		assert.deepEqual(debits(r.ledger), [['debit', 'electricity', 100000]]);

		const refused = await exec('vtuElectricity', {
			operation: 'buyToken',
			disco: '1',
			meterType: 'prepaid',
			meter: '45010000000',
			amount: 1000,
		});
		assert.equal(refused.run.status, 'error');
		assert.match(refused.run.nodeError('Node').message, /Meter 45010000000 is not valid/);
		assert.deepEqual(refused.ledger, []);

		const got = ok(
			await exec('vtuElectricity', { operation: 'getTransaction', lookupBy: 'id', transactionId: String(item.id) }),
		);
		assert.equal(got[0].token, item.token);
	},
);

test('VTU Exam Pin: buy 2 WAEC (₦6,600), getOrder', async () => {
	const r = await exec('vtuExamPin', { operation: 'buy', exam: 'WAEC', quantity: 2 });
	const [item] = ok(r);
	assert.equal(item.status, 'successful');
	assert.equal(item.exam, 'WAEC');
	assert.equal(item.quantity, 2);
	assert.equal(item.pins.length, 2);
	assert.equal(item.amount, '6600.00');
	assert.deepEqual(debits(r.ledger), [['debit', 'exam_pin', 660000]]);
	const got = ok(await exec('vtuExamPin', { operation: 'getOrder', orderId: String(item.id) }));
	assert.deepEqual(got[0].pins, item.pins);
});

test(
	'VTU Recharge Card: order 2 × MTN ₦100 (₦196), one item per card with CSV + HTML; one item per ' + 'order',
	async () => {
		const r = await exec('vtuRechargeCard', {
			operation: 'order',
			network: '1',
			denomination: '1',
			quantity: 2,
			nameOnCard: 'Ade Stores',
			printableFile: 'both',
		});
		const cards = ok(r);
		assert.equal(cards.length, 2);
		assert.deepEqual(
			cards.map((c) => [c.cardNumber, c.cardCount, c.amount, c.network, c.orderAmount]),
			[
				[1, 2, '100.00', 'MTN', '196.00'],
				[2, 2, '100.00', 'MTN', '196.00'],
			],
		);
		for (const c of cards) assert.match(c.pin, /^\d{10,}$/);
		assert.deepEqual(debits(r.ledger), [['debit', 'recharge_card', 19600]]);
		const bin = r.run.nodeItems('Node')[0].binary;
		assert.deepEqual(Object.keys(bin).sort(), ['csv', 'html']);
		assert.equal(bin.csv.mimeType, 'text/csv');
		const csv = (await vtu.n8n.binaryBuffer(bin.csv)).toString('utf8').trim().split('\n');
		assert.equal(csv[0], 'network,amount,pin,serial,load_code,name_on_card');
		assert.equal(csv.length, 3);
		assert.ok(csv[1].includes(cards[0].pin) && csv[1].endsWith('Ade Stores'));
		assert.match((await vtu.n8n.binaryBuffer(bin.html)).toString('utf8'), /<!doctype html>[\s\S]*Ade Stores/);

		const o = await exec('vtuRechargeCard', {
			operation: 'order',
			network: 'GLO',
			denomination: '6',
			quantity: 3,
			output: 'order',
		});
		const [order] = ok(o);
		assert.equal(ok(o).length, 1);
		assert.equal(order.cardCount, 3);
		assert.equal(order.cards.length, 3);
		assert.equal(order.amount, '588.00');
		assert.deepEqual(debits(o.ledger), [['debit', 'recharge_card', 58800]]);
	},
);

test(
	'VTU Bulk SMS: send (2 valid, 1 invalid → ₦3.60), one campaign from all items, listBatches by ' +
		'batch and campaign',
	async () => {
		const r = await exec('vtuBulkSms', {
			operation: 'send',
			sender: 'AdeStores',
			message: 'Hello',
			recipients: '08031234567, 08051234567, 0803123',
		});
		const [item] = ok(r);
		assert.equal(item.status, 'successful');
		assert.equal(item.summary, '2 sent + 0 duplicates + 1 invalid + 0 opted out = 3 rows; charged ₦3.60');
		assert.equal(item.sent, 2);
		assert.deepEqual(item.invalidReasons, { 'wrong length': 1 });
		assert.equal(item.pages, 1);
		assert.equal(item.cost, '₦3.60');
		assert.equal(item.chargedKobo, 360);
		assert.equal(item.requests, 1);
		assert.deepEqual(debits(r.ledger), [['debit', 'sms', 360]]);

		// 3 input items → ONE campaign to 3 numbers, 170 chars = 2 pages → 3 × 1.80 × 2 = ₦10.80
		const all = await exec(
			'vtuBulkSms',
			{
				operation: 'send',
				sender: 'AdeShop',
				message: 'x'.repeat(170),
				recipientsFrom: 'allItems',
				phoneField: 'phone',
			},
			{ items: [{ phone: '08031234567' }, { phone: '08051234567' }, { phone: '08021234567' }] },
		);
		const out = ok(all);
		assert.equal(out.length, 1);
		assert.equal(out[0].sent, 3);
		assert.equal(out[0].pages, 2);
		assert.equal(out[0].charged, '₦10.80');
		assert.deepEqual(all.run.nodeItems('Node')[0].pairedItem, [{ item: 0 }, { item: 1 }, { item: 2 }]);
		assert.deepEqual(debits(all.ledger), [['debit', 'sms', 1080]]);

		const batches = ok(await exec('vtuBulkSms', { operation: 'listBatches', limit: 10 }));
		assert.equal(batches.length, 2);
		assert.equal(batches[0].recipientCount, 3);
		assert.equal(batches[1].amount, '3.60');
		// a campaign = batches of one sender at most 10 minutes apart (so the two senders are two campaigns)
		const campaigns = ok(await exec('vtuBulkSms', { operation: 'listBatches', groupBy: 'campaign', limit: 1 }));
		assert.equal(campaigns.length, 1);
		assert.equal(campaigns[0].campaignId, out[0].campaignId);
		assert.equal(campaigns[0].amountKobo, 1080);
	},
);

test(
	'VTU Identity: validateBvn, validateNin (₦50 fee each), not-found BVN, short number refused ' + 'without a fee',
	async () => {
		const bvn = await exec('vtuIdentity', { operation: 'validateBvn', number: '22212345678' });
		assert.deepEqual(ok(bvn), [
			{
				valid: true,
				kind: 'bvn',
				number: '22212345678',
				firstName: 'Olumide',
				middleName: 'Adeyemi',
				lastName: 'Bankole',
				fullName: 'OLUMIDE ADEYEMI BANKOLE',
				phone: '08031112222',
				provider: 'premblyish',
			},
		]);
		assert.deepEqual(debits(bvn.ledger), [['debit', 'identity', 5000]]);
		const nin = await exec('vtuIdentity', { operation: 'validateNin', number: '12345678901' });
		assert.equal(ok(nin)[0].fullName, 'AMINA BELLO YUSUF');
		assert.deepEqual(debits(nin.ledger), [['debit', 'identity', 5000]]);

		const missing = await exec('vtuIdentity', { operation: 'validateBvn', number: '22210000000' });
		assert.equal(ok(missing)[0].valid, false);
		assert.deepEqual(debits(missing.ledger), [['debit', 'identity', 5000]]);

		const short = await exec('vtuIdentity', { operation: 'validateNin', number: '1234' });
		assert.equal(short.run.status, 'error');
		assert.match(short.run.nodeError('Node').message, /NIN "1234" is not 11 digits/);
		assert.deepEqual(short.ledger, []);
	},
);

test('VTU Transaction: get (by id / ident, every product), getMany with limit', async () => {
	const got = ok(
		await exec('vtuTransaction', {
			operation: 'get',
			product: 'data',
			lookupBy: 'id',
			transactionId: String(dataTxn.id),
		}),
	);
	assert.deepEqual(got, [dataTxn]);
	const byIdent = ok(
		await exec('vtuTransaction', {
			operation: 'get',
			product: 'data',
			lookupBy: 'ident',
			transactionId: dataTxn.ident,
		}),
	);
	assert.equal(byIdent[0].id, dataTxn.id);

	for (const [product, n] of [
		['airtime', 2],
		['cable', 1],
		['electricity', 1],
		['exam_pin', 1],
		['recharge_card', 2],
		['data', 1],
	]) {
		const many = ok(await exec('vtuTransaction', { operation: 'getMany', product, limit: 50 }));
		assert.equal(many.length, n, product);
		for (const m of many) assert.equal(m.product, product);
	}
	const one = ok(await exec('vtuTransaction', { operation: 'getMany', product: 'airtime', limit: 1 }));
	assert.equal(one.length, 1);

	const unknown = await exec('vtuTransaction', {
		operation: 'get',
		product: 'data',
		lookupBy: 'id',
		transactionId: '99999',
	});
	assert.equal(unknown.run.status, 'error');
	assert.ok(unknown.run.nodeError('Node').message, 'a not-found lookup says why');
});

test('the wallet balance equals ₦1,000,000 minus the sum of all ledger debits', async () => {
	const ledger = await vtu.sb.ledger('demo');
	let kobo = 100000000;
	for (const l of ledger) kobo += l.kind === 'debit' ? -l.amountKobo : l.kind === 'refund' ? l.amountKobo : 0;
	const [bal] = ok(await exec('vtuWallet', { operation: 'getBalance' }));
	assert.equal(bal.balanceKobo, kobo);
	assert.equal(await vtu.sb.balanceKobo('demo'), kobo);
});
