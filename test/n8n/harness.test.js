'use strict';
// Proof of the real-n8n harness with a throwaway community package
// (fixtures/n8n-nodes-vtu-fixture) and a loopback fake API. Run: bash test/n8n/run.sh
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { startN8n, N8N_VERSION } = require('./harness');
const { startFakeApi } = require('./fake-api');

const FIXTURE = path.join(__dirname, 'fixtures', 'n8n-nodes-vtu-fixture');
const T = (name) => `n8n-nodes-vtu-fixture.${name}`;

let n8n;
let api;
let cred;

before(async () => {
	api = await startFakeApi({ token: 'good' });
	n8n = await startN8n({ packageDir: FIXTURE });
	process.stderr.write(`# n8n start ${n8n.timings.startMs} ms, ready (owner set up) ${n8n.timings.readyMs} ms\n`);
	cred = await n8n.createCredential({ name: 'VTU fixture', data: { baseUrl: api.baseUrl, apiToken: 'good' } });
});

after(async () => {
	if (n8n) await n8n.stop();
	if (api) await api.close();
});

const manual = {
	id: 'm',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const link = (from, to) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });

test('the community package is loaded', async () => {
	assert.deepEqual(n8n.loadedNodes.sort(), [T('fixtureVtu'), T('fixtureVtuTrigger')]);
	const credTypes = await n8n.loadedCredentialTypes();
	assert.ok(credTypes.includes('vtuApi') && credTypes.includes('vtuFnApi'));
	assert.equal(n8n.nodeType('fixtureVtu'), T('fixtureVtu'));
});

test('credential test: OK, bad token, unreachable host', async () => {
	assert.deepEqual(await n8n.testCredential({ id: cred.id }), { status: 'OK', message: 'Connection successful!' });
	const bad = await n8n.testCredential({ data: { baseUrl: api.baseUrl, apiToken: 'nope' } });
	assert.equal(bad.status, 'Error');
	assert.match(bad.message, /authoriz|401|credentials/i);
	const down = await n8n.testCredential({ data: { baseUrl: 'http://127.0.0.1:9/api', apiToken: 'good' } });
	assert.equal(down.status, 'Error');
});

test(
	'credential test: declarative responseCode rules: ignored by n8n 1.x (generic message), applied ' + 'by 2.x',
	async () => {
		// fixtures/.../VtuApi.credentials.js has a rule { responseCode 401 → 'FIXTURE RULE: ...' }
		const bad = await n8n.testCredential({ data: { baseUrl: api.baseUrl, apiToken: 'nope' } });
		const expected = /^1\./.test(N8N_VERSION)
			? 'Authorization failed - please check your credentials'
			: 'FIXTURE RULE: token rejected (401)';
		assert.deepEqual(bad, { status: 'Error', message: expected });
	},
);

test('credential test: a node testedBy function gives its own messages', async () => {
	const ok = await n8n.testCredential({ type: 'vtuFnApi', data: { baseUrl: api.baseUrl, apiToken: 'good' } });
	assert.deepEqual(ok, { status: 'OK', message: 'Token accepted' });
	const bad = await n8n.testCredential({ type: 'vtuFnApi', data: { baseUrl: api.baseUrl, apiToken: 'nope' } });
	assert.deepEqual(bad, { status: 'Error', message: 'FIXTURE FN: the site rejected the API token (HTTP 401)' });
});

test('programmatic node: output items, Token header, pairedItem', async () => {
	const wf = {
		name: 'balance',
		nodes: [
			manual,
			{
				id: 'b',
				name: 'Fixture VTU',
				type: T('fixtureVtu'),
				typeVersion: 1,
				position: [200, 0],
				parameters: { operation: 'getBalance' },
			},
		],
		connections: link('Start', 'Fixture VTU'),
	};
	const run = await n8n.runWorkflow(wf);
	process.stderr.write(`# runWorkflow (import + run + fetch) ${run.durationMs} ms\n`);
	assert.equal(run.status, 'success', JSON.stringify(run.error));
	assert.equal(run.mode, 'manual');
	assert.deepEqual(run.nodeOutput('Fixture VTU'), [{ user: { username: 'demo', wallet_balance: '1500.00' } }]);
	assert.deepEqual(run.nodeItems('Fixture VTU')[0].pairedItem, { item: 0 });
	const req = api.requests.at(-1);
	assert.equal(req.headers.authorization, 'Token good');
	assert.equal(req.url, '/api/user/');

	// the same stored workflow again, by id
	const again = await n8n.runWorkflow(run.workflowId);
	assert.equal(again.status, 'success');
	process.stderr.write(`# runWorkflow (by id) ${again.durationMs} ms\n`);
});

test('programmatic node: API error fails the run; continueOnFail keeps going', async () => {
	const nodes = (extra) => [
		manual,
		{
			id: 'b',
			name: 'Buy',
			type: T('fixtureVtu'),
			typeVersion: 1,
			position: [200, 0],
			parameters: { operation: 'buyAirtime', phone: '123', amount: 50 },
			...extra,
		},
	];
	const failed = await n8n.runWorkflow({ name: 'buy bad', nodes: nodes({}), connections: link('Start', 'Buy') });
	assert.equal(failed.status, 'error');
	const err = failed.nodeError('Buy');
	assert.ok(err, 'node error recorded');
	assert.equal(String(err.httpCode), '400');

	const cont = await n8n.runWorkflow({
		name: 'buy bad, continue',
		nodes: nodes({ onError: 'continueRegularOutput' }),
		connections: link('Start', 'Buy'),
	});
	assert.equal(cont.status, 'success');
	assert.equal(cont.nodeOutput('Buy').length, 1);
	assert.ok(cont.nodeOutput('Buy')[0].error);

	const ok = await n8n.runWorkflow({
		name: 'buy ok',
		nodes: [
			manual,
			{
				id: 'b',
				name: 'Buy',
				type: T('fixtureVtu'),
				typeVersion: 1,
				position: [200, 0],
				parameters: { operation: 'buyAirtime', phone: '08031234567', amount: 50 },
			},
		],
		connections: link('Start', 'Buy'),
	});
	assert.equal(ok.status, 'success');
	assert.deepEqual(api.requests.at(-1).body, { phone: '08031234567', amount: 50 });
});

test('polling trigger: manual run, activation poll, forced re-polls keep state', async () => {
	api.transactions.splice(0, api.transactions.length, { ref: 'T1', status: 'processing' });
	const wf = {
		name: 'trigger',
		nodes: [
			{
				id: 't',
				name: 'VTU Trigger',
				type: T('fixtureVtuTrigger'),
				typeVersion: 1,
				position: [0, 0],
				// polled only by the test; n8n's own every-minute default could add a poll between the test's
				parameters: { pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] } },
			},
		],
		connections: {},
	};
	// manual mode ("Execute step"): current data, static data not persisted
	const man = await n8n.runWorkflow(wf);
	assert.equal(man.status, 'success');
	assert.deepEqual(man.nodeOutput('VTU Trigger'), [{ ref: 'T1', status: 'processing' }]);
	const id = man.workflowId;
	assert.deepEqual(await n8n.getStaticData(id), {});

	// activation runs poll #1 → one 'trigger' execution
	const first = await n8n.activateWorkflow(id);
	assert.equal(first.length, 1);
	assert.equal(first[0].mode, 'trigger');
	assert.deepEqual(first[0].nodeOutput('VTU Trigger'), [{ ref: 'T1', status: 'processing', poll: 1 }]);

	// poll #2, nothing changed → poll() returns null → no execution, but state saved
	const second = await n8n.pollNow(id);
	assert.equal(second.length, 0);
	assert.deepEqual(await n8n.getStaticData(id), { 'node:VTU Trigger': { statuses: { T1: 'processing' }, polls: 2 } });

	// poll #3 after changes → only the changes
	api.transactions[0].status = 'successful';
	api.transactions.push({ ref: 'T2', status: 'failed' });
	const third = await n8n.pollNow(id);
	assert.equal(third.length, 1);
	assert.deepEqual(third[0].nodeOutput('VTU Trigger'), [
		{ ref: 'T1', status: 'successful', poll: 3 },
		{ ref: 'T2', status: 'failed', poll: 3 },
	]);
	await n8n.deactivateWorkflow(id);
});

test('activation fails loudly when the first poll throws', async () => {
	const bad = await n8n.createCredential({
		name: 'bad',
		data: { baseUrl: api.baseUrl, apiToken: 'nope' },
		makeDefault: false,
	});
	const wf = await n8n.importWorkflow({
		name: 'trigger bad cred',
		nodes: [
			{
				id: 't',
				name: 'VTU Trigger',
				type: T('fixtureVtuTrigger'),
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
				credentials: { vtuApi: { id: bad.id, name: bad.name } },
			},
		],
		connections: {},
	});
	await assert.rejects(n8n.activateWorkflow(wf.id), /401|authoriz|credentials/i);
});

test("NodeOperationError from the package's own n8n-workflow copy surfaces in the run", async () => {
	const node = (extra) => ({
		id: 'f',
		name: 'Fail',
		type: T('fixtureVtu'),
		typeVersion: 1,
		position: [200, 0],
		parameters: { operation: 'fail' },
		...extra,
	});
	const run = await n8n.runWorkflow({ name: 'fail', nodes: [manual, node({})], connections: link('Start', 'Fail') });
	assert.equal(run.status, 'error');
	const err = run.nodeError('Fail');
	process.stderr.write(`# NodeOperationError as stored: ${JSON.stringify(err).slice(0, 400)}\n`);
	assert.equal(err.message, 'Refusing item 0');
	assert.equal(err.description, 'Fixture failure: fix the input and retry');

	const cont = await n8n.runWorkflow({
		name: 'fail, continue',
		nodes: [manual, node({ onError: 'continueRegularOutput' })],
		connections: link('Start', 'Fail'),
	});
	assert.equal(cont.status, 'success');
	assert.deepEqual(cont.nodeOutput('Fail'), [{ error: 'Refusing item 0' }]);
});

test('webhook-started workflows: pinned data, test webhook, production webhook', async () => {
	const buy = {
		id: 'b',
		name: 'Buy',
		type: T('fixtureVtu'),
		typeVersion: 1,
		position: [200, 0],
		parameters: { operation: 'buyAirtime', phone: '={{ $json.body.phone }}', amount: 100 },
	};
	const hook = (p) => ({
		id: 'w',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		parameters: { path: p, httpMethod: 'POST', responseMode: 'lastNode' },
		webhookId: `wh-${p}`,
	});
	const wf = (p) => ({ name: `webhook ${p}`, nodes: [hook(p), buy], connections: link('Webhook', 'Buy') });

	const pinned = await n8n.runWorkflow({
		...wf('pinned'),
		pinData: { Webhook: [{ json: { body: { phone: '08031112222' } } }] },
	});
	assert.equal(pinned.status, 'success');
	assert.equal(pinned.nodeOutput('Buy')[0].phone, '08031112222');

	const viaTest = await n8n.runWorkflow(wf('test-url'), {
		webhook: { path: 'test-url', body: { phone: '08033334444' } },
	});
	assert.equal(viaTest.status, 'success');
	assert.equal(viaTest.webhookResponse.status, 200);
	assert.equal(viaTest.nodeOutput('Buy')[0].phone, '08033334444');

	const stored = await n8n.importWorkflow(wf('prod'));
	await n8n.activateWorkflow(stored.id);
	const before = await n8n.executionIds(stored.id);
	const res = await n8n.callWebhook('prod', { body: { phone: '08035556666' } });
	assert.equal(res.status, 200);
	assert.equal(res.body.phone, '08035556666');
	const [ex] = await n8n.waitForNewExecutions(stored.id, before);
	assert.equal(ex.mode, 'webhook');
	assert.equal(ex.nodeOutput('Buy')[0].phone, '08035556666');
	await n8n.deactivateWorkflow(stored.id);
});
