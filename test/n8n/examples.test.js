'use strict';
// examples/*.json in a real n8n (test/n8n/n8n-versions.json): every example imports and runs against the sandbox
// (ledger checked). The AI-agent one runs with a scripted OpenAI-compatible model (no LLM runs here); its tools
// must be our nodes' tool variants (usableAsTool).
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { useVtuN8n, REPO_ROOT } = require('./harness');
const { oneNode } = require('./sandbox');
const { startScriptedModel } = require('./scripted-model');

const EX_DIR = path.join(REPO_ROOT, 'examples');
const load = (f) => JSON.parse(fs.readFileSync(path.join(EX_DIR, f), 'utf8'));
const FILES = fs
	.readdirSync(EX_DIR)
	.filter((f) => f.endsWith('.json'))
	.sort();

// n8n 2.x reads and writes files only under ~/.n8n-files (its default file rule, left as it is here): the CSV
// example runs as imported, the test puts its file in the home of the user running n8n and removes it after.
// Files already there (yours, or the sample `npm run demo` placed) are moved aside meanwhile and put back.
const HOME_FILES = path.join(os.homedir(), '.n8n-files');
const CSV_FILES = ['customers.csv', 'rejected.csv'].map((f) => path.join(HOME_FILES, f));
const setAside = CSV_FILES.filter((f) => fs.existsSync(f)).map((f) => [f, `${f}.kept-during-e2e-${process.pid}`]);
for (const [f, kept] of setAside) fs.renameSync(f, kept);
const vtu = useVtuN8n({ credentialName: 'VTU API' });
after(() => {
	for (const f of CSV_FILES) fs.rmSync(f, { force: true });
	for (const [f, kept] of setAside) fs.renameSync(kept, f);
});

const debits = (ledger) => ledger.map((l) => [l.kind, l.product, l.amountKobo]);
function clean(run) {
	vtu.assertNoSecrets(run);
	return run;
}

test('at least five examples; each imports with every node type known to n8n', async () => {
	assert.ok(FILES.length >= 5, FILES.join(', '));
	const { json: types } = await vtu.n8n.request('GET', '/types/nodes.json', undefined, { raw: true });
	const known = new Set(types.map((t) => t.name));
	// the codex files reach n8n's node panel: its search matches the everyday names
	const codexOf = (n) => types.find((t) => t.name === vtu.n8n.nodeType(n)).codex;
	assert.ok(codexOf('vtuBulkSms').alias.includes('sms'), JSON.stringify(codexOf('vtuBulkSms')));
	assert.ok(codexOf('vtuElectricity').alias.includes('NEPA'));
	assert.ok(codexOf('vtuCableTv').alias.includes('DSTV'));
	assert.ok(codexOf('vtuIdentity').alias.includes('BVN'));
	for (const f of FILES) {
		const wf = load(f);
		assert.ok(wf.name && wf.nodes && wf.connections, `${f}: not a workflow`);
		assert.ok(
			wf.nodes.some((nd) => nd.type.startsWith('n8n-nodes-vtu.')),
			`${f}: uses none of our nodes`,
		);
		for (const nd of wf.nodes) assert.ok(known.has(nd.type), `${f}: unknown node type ${nd.type}`);
		for (const [from, outs] of Object.entries(wf.connections)) {
			assert.ok(
				wf.nodes.some((nd) => nd.name === from),
				`${f}: connection from unknown node ${from}`,
			);
			for (const list of Object.values(outs))
				for (const c of list.flat())
					assert.ok(
						wf.nodes.some((nd) => nd.name === c.node),
						`${f}: → ${c.node}`,
					);
		}
		const stored = await vtu.n8n.importWorkflow(wf);
		assert.ok(stored.id, f);
		assert.equal(stored.nodes.length, wf.nodes.length, f);
		for (const nd of stored.nodes.filter((x) => x.type.startsWith('n8n-nodes-vtu.'))) {
			assert.ok(
				nd.credentials && nd.credentials.vtuApi && nd.credentials.vtuApi.id,
				`${f}: ${nd.name} has no VTU credential`,
			);
		}
	}
});

test(
	'csv-dry-run-buy-data: one dry-run summary (can run, ₦880.00 within the ₦5,000 budget), then ' +
		'bought: exact debits',
	async () => {
		const seq = await vtu.sb.lastSeq();
		const run = clean(await vtu.n8n.runWorkflow(load('csv-dry-run-buy-data.json')));
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const priced = run.nodeOutput('Price every row (dry run)');
		assert.equal(priced.length, 1);
		assert.deepEqual(
			[priced[0].canRun, priced[0].rows, priced[0].ready, priced[0].total, priced[0].spendCap, priced[0].shortBy],
			[true, 4, 4, '880.00', '5000.00', '0.00'],
		);
		const bought = run.nodeOutput('Buy data');
		assert.deepEqual(
			bought.map((b) => [b.status, b.recipient, b.amount]),
			[
				['successful', '08031234567', '250.00'],
				['successful', '08061234567', '130.00'],
				['successful', '08051234567', '240.00'],
				['successful', '08021234567', '260.00'],
			],
		);
		assert.ok(!run.runData['Cannot run']);
		assert.ok(!run.runData['Not bought or check later'], 'no row failed');
		assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [
			['debit', 'data', 25000],
			['debit', 'data', 13000],
			['debit', 'data', 24000],
			['debit', 'data', 26000],
		]);
	},
);

test(
	'csv-dry-run-buy-data: a row the site refuses at purchase leaves on the error output; the ' + 'others are bought',
	async () => {
		const wf = load('csv-dry-run-buy-data.json');
		const seq = await vtu.sb.lastSeq();
		// one purchase fails at the site before anything is charged (which row: whichever is sent first)
		await vtu.sb.admin('POST', '/admin/faults', { endpoint: 'POST /api/data/', kind: 'error_before', count: 1 });
		let run;
		try {
			run = clean(await vtu.n8n.runWorkflow(wf));
		} finally {
			await vtu.sb.admin('DELETE', '/admin/faults');
		}
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		assert.equal(run.nodeOutput('Buy data').length, 3);
		const failed = run.nodeOutput('Not bought or check later');
		assert.equal(failed.length, 1, JSON.stringify(failed));
		assert.equal(typeof failed[0].error.message, 'string');
		assert.ok(
			['Ada Okoro', 'Bayo Adeyemi', 'Chidinma Eze', 'Dayo Bello'].includes(failed[0].name),
			JSON.stringify(failed[0]),
		); // n8n adds the input row's fields
		assert.ok(['not_charged', 'unknown_outcome', 'server'].includes(failed[0].error.code), JSON.stringify(failed[0]));
		assert.equal(debits(await vtu.sb.since('demo', seq)).length, 3);
	},
);

test('csv-dry-run-buy-data: two bad rows stop it before anything is bought, every bad row named', async () => {
	const wf = load('csv-dry-run-buy-data.json');
	const rows = wf.nodes.find((n) => n.name === 'Customer rows (CSV)');
	rows.parameters.jsCode = rows.parameters.jsCode
		.replace('Bayo Adeyemi,08061234567,MTN,1', 'Bayo Adeyemi,0806,MTN,1')
		.replace('Dayo Bello,08021234567,AIRTEL,27', 'Dayo Bello,abc,AIRTEL,27');
	const seq = await vtu.sb.lastSeq();
	const run = clean(await vtu.n8n.runWorkflow(wf));
	assert.equal(run.status, 'error');
	const [summary] = run.nodeOutput('Price every row (dry run)');
	assert.deepEqual([summary.canRun, summary.bad, summary.badRows.map((b) => b.row)], [false, 2, [2, 4]]);
	assert.match(
		run.nodeError('Cannot run').message,
		/^Cannot run: 4 rows: 2 ready .*2 bad \(rows 2, 4\).*Nothing was bought\.$/,
	);
	assert.deepEqual(await vtu.sb.since('demo', seq), []);
});

test('webhook-electricity-token-sms: POST → token bought, SMSed, returned to the caller', async () => {
	const seq = await vtu.sb.lastSeq();
	const body = {
		disco: 'Ikeja Electric',
		meterType: 'prepaid',
		meter: '45012345678',
		amount: 1000,
		phone: '08031234567',
	};
	const run = clean(
		await vtu.n8n.runWorkflow(load('webhook-electricity-token-sms.json'), {
			trigger: 'Electricity order',
			webhook: { path: 'vtu-electricity', body },
		}),
	);
	assert.equal(run.status, 'success', JSON.stringify(run.error));
	const [bought] = run.nodeOutput('Buy token');
	assert.match(bought.token, /^\d{4}(-\d{4}){4}$/);
	const [sms] = run.nodeOutput('SMS the token');
	assert.equal(sms.status, 'successful');
	assert.equal(sms.sent, 1);
	assert.equal(run.webhookResponse.status, 200);
	assert.deepEqual(run.webhookResponse.body, {
		status: 'successful',
		token: bought.token,
		customer: 'BOLA AHMED',
		amount: '1000.00',
		reference: bought.ident,
		smsStatus: 'successful',
	});
	assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [
		['debit', 'electricity', 100000],
		['debit', 'sms', 180],
	]);

	// an invalid meter: nothing paid, no SMS
	const seq2 = await vtu.sb.lastSeq();
	const bad = clean(
		await vtu.n8n.runWorkflow(load('webhook-electricity-token-sms.json'), {
			trigger: 'Electricity order',
			webhook: { path: 'vtu-electricity', body: { ...body, meter: '45010000000' } },
		}),
	);
	assert.equal(bad.status, 'error');
	assert.match(bad.nodeError('Buy token').message, /not valid/);
	assert.deepEqual(await vtu.sb.since('demo', seq2), []);
});

test(
	'schedule-bulk-sms-campaign: priced, then one campaign to the 4 subscribers not on the STOP ' + 'list (₦7.20)',
	async () => {
		const seq = await vtu.sb.lastSeq();
		const run = clean(await vtu.n8n.runWorkflow(load('schedule-bulk-sms-campaign.json')));
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const [price] = run.nodeOutput('Price campaign (dry run)');
		assert.deepEqual(
			[price.dryRun, price.toSend, price.optedOut, price.cost, price.costKobo, price.canRun, price.spendCap],
			[true, 4, 1, '₦7.20', 720, true, '2000.00'],
		);
		assert.ok(!run.runData['Not sent']);
		const out = run.nodeOutput('Send campaign');
		assert.equal(out.length, 1);
		assert.deepEqual(
			[out[0].status, out[0].sent, out[0].pages, out[0].charged, out[0].chargedKobo],
			['successful', 4, 1, '₦7.20', 720],
		);
		assert.equal(out[0].summary, '4 sent + 0 duplicates + 0 invalid + 1 opted out = 5 rows; charged ₦7.20');
		assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [['debit', 'sms', 720]]);
	},
);

test(
	'csv-bulk-sms-campaign: Read/Write File → Extract From File (CSV) → priced → one personalised ' +
		'campaign; rejected.csv saved',
	async () => {
		fs.mkdirSync(HOME_FILES, { recursive: true });
		// the sample file the example's note points to (the demo copies it there too)
		fs.copyFileSync(path.join(EX_DIR, 'customers.csv'), path.join(HOME_FILES, 'customers.csv'));
		const wf = load('csv-bulk-sms-campaign.json'); // as imported: its paths find ~/.n8n-files of the user running n8n
		const seq = await vtu.sb.lastSeq();
		const run = clean(await vtu.n8n.runWorkflow(wf));
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		assert.equal(run.nodeOutput('Parse CSV').length, 7);
		const [price] = run.nodeOutput('Price campaign (dry run)');
		assert.deepEqual(
			[price.rows, price.toSend, price.duplicates, price.invalid, price.optedOut, price.messages],
			[7, 3, 1, 2, 1, 3],
		);
		const [sent] = run.nodeOutput('Send campaign');
		assert.equal(sent.summary, `3 sent + 1 duplicates + 2 invalid + 1 opted out = 7 rows; charged ${price.cost}`);
		const ledger = await vtu.sb.since('demo', seq);
		assert.equal(
			ledger.filter((l) => l.kind === 'debit' && l.product === 'sms').reduce((t, l) => t + l.amountKobo, 0),
			price.costKobo,
		);
		assert.equal(ledger.length, 3); // one request per personalised message
		const rejected = fs.readFileSync(path.join(HOME_FILES, 'rejected.csv'), 'utf8').trim().split('\n');
		assert.deepEqual(rejected, [
			'row,name,number,status,reason',
			"3,Ada,'+234 803 123 4567,duplicate,number already texted by row 1",
			'4,Chi,0800 123 4567,invalid,not a Nigerian mobile prefix',
			'5,Dupe,,invalid,blank',
			'6,Efe,08051234567,opted out,on the opt-out list',
		]);
	},
);

test('failed-transaction-alert: a failed data purchase → one SMS to the owner, once', async () => {
	// as imported, but polled only when the test asks (pollNow): an every-minute poll landing between the
	// test's polls would take the alert the next poll is checked for
	const wf = load('failed-transaction-alert.json');
	for (const n of wf.nodes.filter((x) => x.type === 'n8n-nodes-vtu.vtuTransactionTrigger')) {
		n.parameters.pollTimes = { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] };
	}
	const stored = await vtu.n8n.importWorkflow(wf);
	try {
		assert.deepEqual(await vtu.n8n.activateWorkflow(stored.id), []);
		await vtu.sb.setConfig({ settle: { mode: 'processing', delayMs: 3600000, finalStatus: 'successful' } });
		const buy = await vtu.n8n.runWorkflow(
			oneNode(
				vtu.n8n,
				'vtuData',
				{ operation: 'buy', network: 'MTN', plan: '2', phone: '08031234567' },
				{ name: 'Data', wfName: 'buy' },
			),
		);
		const [txn] = buy.nodeOutput('Data');
		assert.equal(txn.status, 'processing');
		assert.deepEqual(await vtu.n8n.pollNow(stored.id), [], 'a new purchase is not an alert');

		const seq = await vtu.sb.lastSeq();
		await vtu.sb.setStatus('data', txn.id, 'failed');
		const runs = await vtu.n8n.pollNow(stored.id, { min: 1 });
		assert.equal(runs.length, 1);
		clean(runs[0]);
		assert.equal(runs[0].status, 'success', JSON.stringify(runs[0].error));
		const [ev] = runs[0].nodeOutput('Failed data purchases');
		assert.deepEqual([ev.event, ev.id, ev.transition], ['failed', txn.id, 'processing → failed']);
		const [sms] = runs[0].nodeOutput('SMS the owner');
		assert.equal(sms.status, 'successful');
		assert.equal(sms.sent, 1);
		// the batch as the site recorded it (the summary carries counts, not the numbers)
		const hist = await (
			await fetch(`${vtu.sb.baseUrl}/api/sendsms/`, { headers: { Authorization: `Token ${vtu.sb.token}` } })
		).json();
		const [batch] = hist.results || hist;
		assert.equal(batch.to, '2348030000000');
		assert.match(
			batch.message,
			new RegExp(`ALERT: data N250.00 to 08031234567 went from processing to failed \\(ref ${txn.ident}\\)`),
		);
		assert.match(batch.message, /^[\x20-\x7e]+$/, 'plain GSM text: no character that sets off the Unicode warning');
		assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [
			['refund', 'data', 25000],
			['debit', 'sms', 180],
		]);
		assert.deepEqual(await vtu.n8n.pollNow(stored.id), [], 'no second alert');
	} finally {
		await vtu.n8n.deactivateWorkflow(stored.id).catch(() => {});
		await vtu.sb.setConfig({ settle: { mode: 'immediate' } });
	}
});

test(
	'failed-transaction-alert: Execute workflow (manual) shows the current transactions marked ' +
		'sample; nobody is texted',
	async () => {
		await vtu.n8n.runWorkflow(
			oneNode(
				vtu.n8n,
				'vtuData',
				{ operation: 'buy', network: 'MTN', plan: '2', phone: '08031234567' },
				{ name: 'Data', wfName: 'buy one' },
			),
		);
		const seq = await vtu.sb.lastSeq();
		const run = clean(
			await vtu.n8n.runWorkflow(load('failed-transaction-alert.json'), { trigger: 'Failed data purchases' }),
		);
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const current = run.nodeOutput('Failed data purchases');
		assert.ok(current.length >= 1);
		for (const c of current) assert.equal(c.sample, true);
		assert.ok(!run.runData['SMS the owner'], 'a manual test texted the owner');
		assert.deepEqual(await vtu.sb.since('demo', seq), []);
	},
);

test(
	'recharge-cards-print-sheet: priced first (can run, within the ₦5,000 budget), then 12 cards ' + 'with CSV and HTML',
	async () => {
		const seq = await vtu.sb.lastSeq();
		const run = clean(await vtu.n8n.runWorkflow(load('recharge-cards-print-sheet.json')));
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const priced = run.nodeOutput('Price the order (dry run)');
		assert.equal(priced.length, 1, JSON.stringify(priced));
		assert.deepEqual(
			[priced[0].canRun, priced[0].dryRun, priced[0].total, priced[0].spendCap, priced[0].shortBy],
			[true, true, '2352.00', '5000.00', '0.00'],
		);
		const [order] = run.nodeOutput('Order cards');
		assert.deepEqual([order.status, order.cardCount, order.amount], ['successful', 12, '2352.00']);
		const bin = run.nodeItems('Order cards')[0].binary;
		assert.deepEqual(Object.keys(bin).sort(), ['csv', 'html']);
		assert.equal((await vtu.n8n.binaryBuffer(bin.csv)).toString('utf8').trim().split('\n').length, 13);
		assert.ok(!run.runData['Cannot run']);
		assert.deepEqual(debits(await vtu.sb.since('demo', seq)), [['debit', 'recharge_card', 235200]]);
	},
);

test('recharge-cards-print-sheet: a budget below the order (its one Spend Cap) stops it; no card ordered', async () => {
	const wf = load('recharge-cards-print-sheet.json');
	wf.nodes.find((n) => n.name === 'Price the order (dry run)').parameters.options.spendCap = 2000;
	const seq = await vtu.sb.lastSeq();
	const run = clean(await vtu.n8n.runWorkflow(wf));
	assert.equal(run.status, 'error');
	const [summary] = run.nodeOutput('Price the order (dry run)');
	assert.deepEqual([summary.canRun, summary.total, summary.withinSpendCap], [false, '2352.00', false]);
	assert.ok(!run.runData['Order cards'], 'the order node did not run');
	assert.match(run.nodeError('Cannot run').message, /^Cannot run: .*₦2,352\.00.* No card was ordered\.$/);
	assert.deepEqual(await vtu.sb.since('demo', seq), []);
});

test(
	"ai-agent-vtu-assistant: imports; its tools are our nodes' tool variants (usableAsTool): every " +
		'VTU node has a tool variant, every buying tool a Spend Cap',
	async () => {
		const wf = load('ai-agent-vtu-assistant.json');
		const stored = await vtu.n8n.importWorkflow(wf);
		assert.ok(stored.id);
		const { json: types } = await vtu.n8n.request('GET', '/types/nodes.json', undefined, { raw: true });
		const byName = new Map(types.map((t) => [t.name, t]));
		const toolConns = Object.entries(wf.connections)
			.filter(([, o]) => o.ai_tool)
			.map(([name]) => name);
		assert.ok(toolConns.length >= 4);
		for (const name of toolConns) {
			const node = wf.nodes.find((x) => x.name === name);
			assert.match(node.type, /^n8n-nodes-vtu\.vtu\w+Tool$/, name);
			assert.ok(vtu.n8n.loadedNodes.includes(node.type), `${node.type} not loaded`);
			const base = byName.get(node.type.replace(/Tool$/, ''));
			assert.equal(base.usableAsTool, true, `${base.name} is not usableAsTool`);
			assert.ok(node.parameters.toolDescription, `${name}: no tool description`);
		}
		// Every node but the trigger is offered to agents (the product table's aiTool), so n8n loads a tool variant of each.
		for (const product of [
			'vtuData',
			'vtuAirtime',
			'vtuCableTv',
			'vtuElectricity',
			'vtuExamPin',
			'vtuRechargeCard',
			'vtuBulkSms',
			'vtuWallet',
			'vtuTransaction',
			'vtuIdentity',
		]) {
			assert.ok(vtu.n8n.loadedNodes.includes(vtu.n8n.nodeType(`${product}Tool`)), `${product} has no AI tool variant`);
		}
		assert.ok(
			!vtu.n8n.loadedNodes.includes(vtu.n8n.nodeType('vtuTransactionTriggerTool')),
			'a trigger is never an AI tool',
		);
		const buyTools = wf.nodes.filter((x) => /Tool$/.test(x.type) && x.parameters.operation === 'buy');
		for (const t of buyTools) assert.ok(t.parameters.options.spendCap > 0, `${t.name} has no Spend Cap`);
	},
);

/**
 * Runs ai-agent-vtu-assistant as imported, with one chat message (pinned on its Chat Trigger, as the editor's chat
 * does) and its OpenAI Chat Model's credential pointed at a scripted OpenAI-compatible endpoint (no language model
 * runs here; test/n8n/scripted-model.js). n8n's agent, our tool variants and the sandbox are real.
 */
async function runAgent(chatInput, script) {
	const model = await startScriptedModel(script);
	try {
		const key = await vtu.n8n.createCredential({
			name: `Scripted model ${Date.now()}`,
			type: 'openAiApi',
			data: { apiKey: 'sk-scripted-model', url: model.baseUrl, header: false },
			makeDefault: false,
		});
		const wf = load('ai-agent-vtu-assistant.json');
		wf.nodes.find((n) => n.name === 'OpenAI Chat Model').credentials = {
			openAiApi: { id: key.id, name: key.name },
		};
		wf.pinData = {
			'When chat message received': [{ json: { sessionId: `s${Date.now()}`, action: 'sendMessage', chatInput } }],
		};
		const seq = await vtu.sb.lastSeq();
		const run = clean(await vtu.n8n.runWorkflow(wf, { timeoutMs: 120_000 }));
		return { run, requests: model.requests, ledger: await vtu.sb.since('demo', seq) };
	} finally {
		await model.stop();
	}
}

const lastToolResult = (requests) => {
	const tools = requests.flatMap((r) => (r.messages ?? []).filter((m) => m.role === 'tool'));
	return tools.length ? String(tools[tools.length - 1].content) : undefined;
};

test(
	'ai-agent-vtu-assistant runs as imported: asked for the balance, the agent calls the Wallet ' +
		'tool, which reads the sandbox',
	async () => {
		const kobo = await vtu.sb.balanceKobo('demo');
		const { run, requests, ledger } = await runAgent('What is my wallet balance?', ({ toolResults }) =>
			toolResults.length === 0 ? { tool: /^Wallet_balance$/, args: {} } : { text: `Wallet: ${toolResults[0]}` },
		);
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const offered = requests[0].tools.map((t) => t.function.name).sort();
		assert.deepEqual(offered, [
			'Buy_airtime',
			'Buy_data',
			'Data_plans',
			'Find_transaction',
			'Validate_BVN',
			'Wallet_balance',
		]);
		const result = lastToolResult(requests);
		assert.ok(result && result.includes((kobo / 100).toFixed(2)), `tool result ${result} lacks the balance ${kobo}`);
		const [answer] = run.nodeOutput('VTU assistant');
		assert.ok(answer.output.includes((kobo / 100).toFixed(2)), JSON.stringify(answer));
		assert.deepEqual(ledger, [], 'reading the balance buys nothing');
	},
);

test(
	'ai-agent-vtu-assistant: the agent buys data through the Buy data tool: one debit, the tool ' +
		'answers with the record',
	async () => {
		const args = { network: 'MTN', planId: 2, phone: '08031234567' };
		const { run, requests, ledger } = await runAgent(
			'Buy 1GB MTN for 08031234567, yes I confirm ₦250',
			({ toolResults }) =>
				toolResults.length === 0 ? { tool: /^Buy_data$/, args } : { text: `Done: ${toolResults[0]}` },
		);
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const result = lastToolResult(requests);
		assert.match(result, /successful/, result);
		assert.match(result, /08031234567/, result);
		assert.deepEqual(debits(ledger), [['debit', 'data', 25000]]);
	},
);

test(
	'resolve-unclear-purchases: the row whose answer was lost waits (parked by n8n), then resolves ' +
		'to its own record; 3 debits, none twice',
	async () => {
		// only this workflow buys on the token; the vendor may take 90
		// s: the Wait (over 65 s) parks the execution in the database
		const cred = await vtu.n8n.createCredential({
			name: 'VTU, this workflow only',
			data: { baseUrl: vtu.sb.baseUrl, apiToken: vtu.sb.token, sharedAccount: false, vendorProcessingSeconds: 90 },
			makeDefault: false,
		});
		const stored = await vtu.n8n.importWorkflow(load('resolve-unclear-purchases.json'), {
			credentials: { vtuApi: { id: cred.id, name: cred.name } },
		});
		const seq = await vtu.sb.lastSeq();
		// one answer lost after the charge, and the records unreadable while the purchase runs: the row is unclear
		await vtu.sb.admin('POST', '/admin/faults', { endpoint: 'POST /api/topup/', kind: 'reset_after', count: 1 });
		await vtu.sb.admin('POST', '/admin/faults', { endpoint: 'GET /api/topup/', kind: 'error_before' });
		const running = vtu.n8n.runWorkflow(stored.id, { timeoutMs: 300000 });
		let parked = false;
		try {
			// condition, not a delay: the execution is parked by the Wait node; then the records are readable again
			for (;;) {
				const [ex] = await vtu.n8n.listExecutions(stored.id);
				if (ex && ex.status === 'waiting') parked = true;
				if (parked || (ex && !['new', 'running'].includes(ex.status))) break;
				await new Promise((r) => setTimeout(r, 200));
			}
		} finally {
			await vtu.sb.admin('DELETE', '/admin/faults');
		}
		const run = clean(await running);
		assert.equal(run.status, 'success', JSON.stringify(run.error));
		const bought = run.nodeOutput('Buy airtime');
		assert.ok(parked, `the execution was never parked by the Wait node: ${JSON.stringify(bought)}`);
		const unclear = bought.filter((o) => o.code === 'unknown_outcome');
		assert.equal(unclear.length, 1, JSON.stringify(bought));
		assert.equal(unclear[0].outcome, 'check later');
		assert.equal(Date.parse(unclear[0].resolvableAfter) - Date.parse(unclear[0].sentAt), 90000);
		assert.equal(run.nodeOutput('Bought or refused').length, 2);
		const [resolved] = run.nodeOutput('Resolve unclear purchase');
		assert.equal(resolved.resolution, 'bought', JSON.stringify(resolved));
		assert.equal(resolved.recipient, unclear[0].request.phone);
		assert.equal(run.nodeOutput('Bought: record found').length, 1);
		const ledger = await vtu.sb.since('demo', seq);
		assert.deepEqual(
			ledger.map((l) => [l.kind, l.product]),
			[
				['debit', 'airtime'],
				['debit', 'airtime'],
				['debit', 'airtime'],
			],
			JSON.stringify({ bought, resolved, ledger }),
		);
	},
);
