'use strict';
// Credential test, Continue On Fail, Dry Run, Spend Cap and token hygiene of n8n-nodes-vtu in a
// real n8n (test/n8n/n8n-versions.json) against the sandbox. Run: npm run test:n8n
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { useVtuN8n, N8N_VERSION } = require('./harness');
const { MANUAL } = require('./sandbox');

const vtu = useVtuN8n();
const exec = vtu.runNode;
const debits = (ledger) => ledger.map((l) => [l.kind, l.product, l.amountKobo]);
const buyData = (extra = {}) => ({ operation: 'buy', network: '1', plan: '2', phone: '={{ $json.phone }}', ...extra });
const CONTINUE = { onError: 'continueRegularOutput' };

// ---- credential test -------------------------------------------------------------------

// The credential has no declarative `test`, so n8n runs the nodes' `testedBy: 'vtuApiTest'`
// (nodes/shared/credentialTest.ts), which says why a test failed and how to fix it.

async function credentialCases() {
	const wl = await vtu.sb.createUser({ username: 'whitelisted', balance: '1000.00', whitelist: ['10.9.9.9'] });
	const se = await vtu.sb.createUser({ username: 'smartearner', balance: '1000.00', user_type: 'Smart Earner' });
	vtu.secrets.push(wl.token, se.token);
	return {
		good: await vtu.n8n.testCredential({ id: vtu.cred.id }),
		badToken: await vtu.n8n.testCredential({ data: { baseUrl: vtu.sb.baseUrl, apiToken: 'f'.repeat(40) } }),
		whitelist: await vtu.n8n.testCredential({ data: { baseUrl: vtu.sb.baseUrl, apiToken: wl.token } }),
		notApi: await vtu.n8n.testCredential({ data: { baseUrl: vtu.sb.baseUrl, apiToken: se.token } }),
		unreachable: await vtu.n8n.testCredential({ data: { baseUrl: 'http://127.0.0.1:9', apiToken: vtu.sb.token } }),
	};
}

test(
	'credential test: good token OK; bad token, IP whitelist, non-API account, unreachable URL → ' + 'Error',
	async (t) => {
		const cases = await credentialCases();
		t.diagnostic(`credential test answers in n8n ${N8N_VERSION}: ${JSON.stringify(cases)}`);
		assert.equal(cases.good.status, 'OK');
		for (const k of ['badToken', 'whitelist', 'notApi', 'unreachable']) {
			assert.equal(cases[k].status, 'Error', k);
			for (const s of vtu.secrets) assert.ok(!cases[k].message.includes(s), `${k}: token in the message`);
		}
		assert.match(cases.good.message, /Connected as demo \(API account\)/);
		assert.match(cases.badToken.message, /rejected the API token/);
		assert.match(cases.whitelist.message, /IP whitelist/);
		assert.match(cases.whitelist.message, /type API/);
		assert.match(cases.notApi.message, /type API|not API/);
		assert.match(cases.unreachable.message, /Base URL/);
	},
);

test('a node run with a bad token / whitelisted-away IP fails with a message that says what to fix', async () => {
	const bad = await vtu.credential('bad token', { apiToken: 'e'.repeat(40) });
	const r = await exec('vtuWallet', { operation: 'getBalance' }, { credentials: { vtuApi: bad } });
	assert.equal(r.run.status, 'error');
	const err = r.run.nodeError('Node');
	assert.equal(String(err.httpCode), '401');
	assert.match(`${err.message} ${err.description}`, /token/i);

	const wlUser = await vtu.sb.admin('GET', '/admin/users/whitelisted');
	const wl = await vtu.credential('whitelisted', { apiToken: wlUser.token });
	const w = await exec('vtuData', buyData(), {
		credentials: { vtuApi: wl },
		items: [{ phone: '08031234567' }],
		username: 'whitelisted',
	});
	assert.equal(w.run.status, 'error');
	const e2 = w.run.nodeError('Node');
	assert.equal(String(e2.httpCode), '403');
	assert.match(`${e2.message} ${e2.description}`, /whitelist/i);
	assert.deepEqual(w.ledger, []);
});

// ---- continue on fail ------------------------------------------------------------------

test('a bad row without Continue On Fail: the node fails and NOTHING is bought', async () => {
	const r = await exec('vtuData', buyData(), {
		items: [{ phone: '08031234567' }, { phone: '0803123' }, { phone: '08061234567' }],
	});
	assert.equal(r.run.status, 'error');
	assert.match(r.run.nodeError('Node').message, /\[row 2\]$/);
	assert.deepEqual(r.ledger, []);
});

test('Continue On Fail: one output per row, in order; failed rows say why; only good rows debited', async (t) => {
	// row 3's POST gets a 500 before anything is charged (sandbox fault, one hit); concurrency 1 = deterministic
	await vtu.sb.admin('POST', '/admin/faults', { endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
	const rows = [
		{ phone: '08031234567' },
		{ phone: '0803123' },
		{ phone: '08061234567' },
		{ phone: '08051234567' },
		{ phone: '08131234567' },
	];
	// row 3 (GLO number on MTN) is refused by the number check; the fault hits the first POST (row 0)
	const r = await exec('vtuData', buyData({ options: { concurrency: 1 } }), { items: rows, extra: CONTINUE });
	assert.equal(r.run.status, 'success', JSON.stringify(r.run.nodeError('Node')));
	const out = r.out;
	const items = r.run.nodeItems('Node');
	t.diagnostic(`failed rows: ${JSON.stringify([out[0], out[1], out[3]])}`);
	assert.equal(out.length, 5);
	assert.deepEqual(
		items.map((i) => i.pairedItem),
		[0, 1, 2, 3, 4].map((item) => ({ item })),
	);
	// row 0: 500 before charging
	assert.ok(out[0].error, JSON.stringify(out[0]));
	assert.equal(out[0].item, 0);
	assert.ok(out[0].code, 'failed row has a code');
	// row 1: bad number
	assert.match(out[1].error, /0803123/);
	assert.equal(out[1].code, 'invalid_input');
	assert.match(out[1].error, /\[row 2\]$/);
	// row 3: not an MTN number
	assert.ok(out[3].error, JSON.stringify(out[3]));
	assert.equal(out[3].item, 3);
	for (const i of [2, 4]) {
		assert.equal(out[i].status, 'successful');
		assert.equal(out[i].amount, '250.00');
	}
	assert.equal(out[2].recipient, '08061234567');
	assert.equal(out[4].recipient, '08131234567');
	assert.deepEqual(debits(r.ledger), [
		['debit', 'data', 25000],
		['debit', 'data', 25000],
	]);
	assert.deepEqual(
		r.ledger.map((l) => l.txnId),
		[out[2].id, out[4].id],
	);
	await vtu.sb.admin('DELETE', '/admin/faults');
});

// ---- dry run ----------------------------------------------------------------------------

test('Dry Run: every row priced, total shown, ledger unchanged', async () => {
	const before = await vtu.sb.balanceKobo('demo');
	const r = await exec('vtuData', buyData({ options: { dryRun: true, dryRunDetail: true } }), {
		items: [{ phone: '08031234567' }, { phone: '08061234567' }, { phone: '08131234567' }],
	});
	assert.equal(r.run.status, 'success', JSON.stringify(r.run.nodeError('Node')));
	assert.equal(r.out.length, 4);
	const [summary, ...rows] = r.out;
	assert.deepEqual(
		[summary.dryRun, summary.canRun, summary.rows, summary.ready, summary.total, summary.walletBalance],
		[true, true, 3, 3, '750.00', (before / 100).toFixed(2)],
	);
	for (const o of rows) {
		assert.equal(o.dryRun, true);
		assert.equal(o.price, '250.00');
		assert.equal(o.product, 'data');
		assert.equal(o.status, undefined);
	}
	assert.deepEqual(
		rows.map((o) => o.recipient),
		['08031234567', '08061234567', '08131234567'],
	);
	assert.deepEqual(r.ledger, []);
	assert.equal(await vtu.sb.balanceKobo('demo'), before);
	assert.deepEqual(await vtu.sb.transactions({ username: 'demo', product: 'data' }).then((t) => t.length), 2);
});

test('Dry Run with Continue On Fail and a Spend Cap: bad row explained, rows flagged within/over the cap', async () => {
	const r = await exec(
		'vtuAirtime',
		{
			operation: 'buy',
			network: '1',
			amount: '={{ $json.amount }}',
			phone: '={{ $json.phone }}',
			options: { dryRun: true, dryRunDetail: true, spendCap: 200 },
		},
		{
			items: [
				{ phone: '08031234567', amount: 100 },
				{ phone: '08031234567', amount: 10 },
				{ phone: '08061234567', amount: 100 },
				{ phone: '08061234567', amount: 100 },
			],
			extra: CONTINUE,
		},
	);
	assert.equal(r.run.status, 'success');
	assert.equal(r.out.length, 5);
	const [summary, ...rows] = r.out;
	assert.deepEqual(
		[summary.canRun, summary.total, summary.spendCap, summary.withinSpendCap, summary.badRows.map((b) => b.row)],
		[false, '294.00', '200.00', false, [2]],
	);
	assert.match(rows[1].error, /50/);
	assert.deepEqual(
		rows.filter((o) => o.dryRun).map((o) => [o.price, o.withinSpendCap]),
		[
			['98.00', true],
			['98.00', true],
			['98.00', false],
		],
	);
	assert.deepEqual(r.ledger, []);
});

// ---- spend cap --------------------------------------------------------------------------

test('Spend Cap without Continue On Fail: over the cap → the node fails before buying anything', async () => {
	const r = await exec('vtuData', buyData({ options: { spendCap: 600 } }), {
		items: [{ phone: '08031234567' }, { phone: '08061234567' }, { phone: '08131234567' }],
	});
	assert.equal(r.run.status, 'error');
	const err = r.run.nodeError('Node');
	assert.match(err.message, /Spend Cap of ₦600\.00/);
	assert.match(err.message, /\[row 3\]$/);
	assert.deepEqual(r.ledger, []);
});

test('Spend Cap with Continue On Fail: rows up to the cap bought, the rest refused with nothing sent', async () => {
	const r = await exec('vtuData', buyData({ options: { spendCap: 600 } }), {
		items: [{ phone: '08031234567' }, { phone: '08061234567' }, { phone: '08131234567' }, { phone: '08161234567' }],
		extra: CONTINUE,
	});
	assert.equal(r.run.status, 'success');
	assert.deepEqual(
		r.out.map((o) => o.status || o.code),
		['successful', 'successful', 'spend_cap', 'spend_cap'],
	);
	assert.match(
		r.out[2].error,
		/costs ₦250\.00 and would take this execution's spending to ₦750\.00, over the Spend Cap of ₦600\.00/,
	);
	assert.deepEqual(debits(r.ledger), [
		['debit', 'data', 25000],
		['debit', 'data', 25000],
	]);
});

test('Spend Cap across two runs of the node in one execution (loop) counts both runs', async () => {
	// Start → Split In Batches-like loop is overkill: two VTU Data nodes with the same name can't
	// exist, so run the same node twice via a Loop Over Items node with batch size 2.
	const wf = {
		name: 'spend cap loop',
		nodes: [
			{ ...MANUAL },
			{
				id: 'l',
				name: 'Loop',
				type: 'n8n-nodes-base.splitInBatches',
				typeVersion: 3,
				position: [200, 0],
				parameters: { batchSize: 2, options: {} },
			},
			{
				id: 'n',
				name: 'Node',
				type: vtu.n8n.nodeType('vtuData'),
				typeVersion: 1,
				position: [400, 0],
				parameters: buyData({ options: { spendCap: 600 } }),
				...CONTINUE,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
			Loop: { main: [[], [{ node: 'Node', type: 'main', index: 0 }]] },
			Node: { main: [[{ node: 'Loop', type: 'main', index: 0 }]] },
		},
		pinData: {
			Start: ['08031234567', '08061234567', '08131234567', '08161234567'].map((phone) => ({ json: { phone } })),
		},
	};
	const seq = await vtu.sb.lastSeq();
	const run = await vtu.n8n.runWorkflow(wf);
	vtu.assertNoSecrets(run);
	assert.equal(run.status, 'success', JSON.stringify(run.error));
	const runs = run.runData.Node.map((_, i) => run.nodeOutput('Node', 0, i));
	assert.deepEqual(
		runs.map((o) => o.map((x) => x.status || x.code)),
		[
			['successful', 'successful'],
			['spend_cap', 'spend_cap'],
		],
	);
	assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [
		['debit', 'data', 25000],
		['debit', 'data', 25000],
	]);
});

test('the API token never appears in outputs or errors (checked on every run above)', () => {
	assert.ok(vtu.secrets.length >= 3);
});
