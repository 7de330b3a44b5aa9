'use strict';
// VTU Transaction Trigger in a real n8n (test/n8n/n8n-versions.json) against the sandbox: manual mode, activation,
// forced polls (deactivate + activate: state re-read from the DB), every event exactly once, a late reversal
// of a transaction far beyond Pages to Scan.
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { useVtuN8n } = require('./harness');
const { oneNode } = require('./sandbox');

const vtu = useVtuN8n();
let wfId;

async function buyData(phone) {
	const run = await vtu.n8n.runWorkflow(
		oneNode(vtu.n8n, 'vtuData', { operation: 'buy', network: '1', plan: '2', phone }),
	);
	assert.equal(run.status, 'success', JSON.stringify(run.nodeError('Node')));
	return run.nodeOutput('Node')[0];
}

const trigger = {
	name: 'watch data',
	nodes: [
		{
			id: 't',
			name: 'VTU Transaction Trigger',
			type: 'n8n-nodes-vtu.vtuTransactionTrigger',
			typeVersion: 1,
			position: [0, 0],
			// polled by the test alone (pollNow); n8n's own schedule is once a year (1 January, midnight): an
			// every-minute poll landing between two of the test's polls would take the events, or a step of
			// the re-check, that the test expects from its next poll
			parameters: { product: 'data', pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] } },
		},
	],
	connections: {},
};

/** Events of the executions a poll produced: [[event, id, status], …] in order. */
function events(runs) {
	const out = [];
	for (const r of runs) {
		assert.equal(r.status, 'success', JSON.stringify(r.error));
		assert.equal(r.mode, 'trigger');
		vtu.assertNoSecrets(r);
		for (const j of r.nodeOutput('VTU Transaction Trigger')) out.push([j.event, j.id, j.status]);
	}
	return out;
}

test('manual mode ("Execute step") returns the current transactions and stores no state', async () => {
	const empty = await vtu.n8n.runWorkflow(trigger);
	assert.equal(empty.status, 'success', JSON.stringify(empty.error));
	assert.deepEqual(empty.nodeOutput('VTU Transaction Trigger'), [
		{ event: 'current', sample: true, message: 'No data transactions yet' },
	]);
	wfId = empty.workflowId;

	const first = await buyData('08031234567');
	const man = await vtu.n8n.runWorkflow(wfId);
	assert.equal(man.status, 'success');
	assert.equal(man.mode, 'manual');
	const out = man.nodeOutput('VTU Transaction Trigger');
	assert.equal(out.length, 1);
	assert.equal(out[0].event, 'current');
	assert.equal(out[0].id, first.id);
	assert.equal(out[0].ident, first.ident);
	assert.equal(out[0].status, 'successful');
	assert.deepEqual(await vtu.n8n.getStaticData(wfId), {});
});

test('activation: the first poll only remembers what exists (nothing emitted); re-poll emits nothing', async () => {
	assert.deepEqual(events(await vtu.n8n.activateWorkflow(wfId)), []);
	const state = (await vtu.n8n.getStaticData(wfId))['node:VTU Transaction Trigger'];
	assert.equal(state.product, 'data');
	assert.equal(state.maxId, 1);
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
});

let pending;
test('a new (processing) transaction is emitted once as "new"', async () => {
	await vtu.sb.setConfig({ settle: { mode: 'processing', delayMs: 3600000, finalStatus: 'successful' } });
	pending = await buyData('08061234567');
	assert.equal(pending.status, 'processing');
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId, { min: 1 })), [['new', pending.id, 'processing']]);
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
});

test('processing → successful is emitted once as "completed"', async () => {
	await vtu.sb.setStatus('data', pending.id, 'successful');
	const runs = await vtu.n8n.pollNow(wfId, { min: 1 });
	assert.deepEqual(events(runs), [['completed', pending.id, 'successful']]);
	const j = runs[0].nodeOutput('VTU Transaction Trigger')[0];
	assert.equal(j.previousStatus, 'processing');
	assert.equal(j.transition, 'processing → successful');
	assert.equal(j.amount, '250.00');
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
});

test('successful → failed (reversal with refund) is emitted once as "reversed"', async () => {
	const seq = await vtu.sb.lastSeq();
	await vtu.sb.setStatus('data', pending.id, 'failed');
	const refund = await vtu.sb.since('demo', seq);
	assert.deepEqual(
		refund.map((l) => [l.kind, l.amountKobo, l.txnId]),
		[['refund', 25000, pending.id]],
	);
	const runs = await vtu.n8n.pollNow(wfId, { min: 1 });
	assert.deepEqual(events(runs), [['reversed', pending.id, 'failed']]);
	assert.equal(runs[0].nodeOutput('VTU Transaction Trigger')[0].previousStatus, 'successful');
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
});

test('processing → failed is emitted as "failed"; several changes in one poll come in one execution', async () => {
	const a = await buyData('08131234567');
	const b = await buyData('08161234567');
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId, { min: 1 })), [
		['new', b.id, 'processing'],
		['new', a.id, 'processing'],
	]);
	await vtu.sb.setStatus('data', a.id, 'failed');
	await vtu.sb.setStatus('data', b.id, 'successful');
	await vtu.sb.setConfig({ settle: { mode: 'immediate' } });
	const c = await buyData('08031234567');
	const runs = await vtu.n8n.pollNow(wfId, { min: 1 });
	assert.equal(runs.length, 1);
	assert.deepEqual(
		events(runs).sort((x, y) => x[1] - y[1]),
		[
			['failed', a.id, 'failed'],
			['completed', b.id, 'successful'],
			['new', c.id, 'successful'],
		],
	);
	assert.deepEqual(events(await vtu.n8n.pollNow(wfId)), []);
});

test('nothing was emitted twice over all polls; state survives in the DB', async () => {
	const all = [];
	for (const e of await vtu.n8n.listExecutions(wfId, { limit: 100 })) {
		const ex = await vtu.n8n.getExecution(e.id);
		if (ex.mode !== 'trigger') continue;
		const rd = ex.data.resultData.runData['VTU Transaction Trigger'];
		for (const it of rd[0].data.main[0]) all.push(`${it.json.event}:${it.json.id}:${it.json.status}`);
	}
	// new, completed, reversed (#2); new ×2, failed, completed (#3, #4); new (#5)
	assert.equal(all.length, 8, all.join(' '));
	assert.equal(new Set(all).size, all.length, `duplicates: ${all.join(' ')}`);
	const state = (await vtu.n8n.getStaticData(wfId))['node:VTU Transaction Trigger'];
	assert.equal(state.maxId, 5);
	await vtu.n8n.deactivateWorkflow(wfId);
});

test(
	'a reversal far beyond Pages to Scan is emitted once; the re-check goes on across polls (its ' +
		'place kept in the DB)',
	async () => {
		const deep = await vtu.n8n.importWorkflow({
			...trigger,
			name: 'watch data (deep)',
			nodes: [{ ...trigger.nodes[0], parameters: { ...trigger.nodes[0].parameters, options: { pages: 1 } } }],
		});
		assert.deepEqual(events(await vtu.n8n.activateWorkflow(deep.id)), []);
		const oldest = await buyData('08039990000');
		assert.deepEqual(events(await vtu.n8n.pollNow(deep.id)), [['new', oldest.id, 'successful']]);
		// 330 newer purchases (22 pages) on top of it: past the scanned page plus one poll's 20 re-check pages
		const items = Array.from({ length: 330 }, (_, i) => ({ phone: `0806${String(5000000 + i)}` }));
		const bulk = await vtu.n8n.runWorkflow(
			oneNode(
				vtu.n8n,
				'vtuData',
				{ operation: 'buy', network: '1', plan: '2', phone: '={{ $json.phone }}' },
				{ items },
			),
		);
		assert.equal(bulk.status, 'success', JSON.stringify(bulk.nodeError('Node')));
		assert.equal(events(await vtu.n8n.pollNow(deep.id)).length, 330);

		await vtu.sb.setStatus('data', oldest.id, 'failed');
		assert.deepEqual(events(await vtu.n8n.pollNow(deep.id)), []); // page 1 + pages 2-21: not there yet
		assert.equal((await vtu.n8n.getStaticData(deep.id))['node:VTU Transaction Trigger'].sweep, 22);
		assert.deepEqual(events(await vtu.n8n.pollNow(deep.id)), [['reversed', oldest.id, 'failed']]);
		assert.deepEqual(events(await vtu.n8n.pollNow(deep.id)), []);
		await vtu.n8n.deactivateWorkflow(deep.id);
	},
);
