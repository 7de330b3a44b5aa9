'use strict';
// "Retry execution" and Skip If Already Bought in a real n8n (test/n8n/n8n-versions.json) against the sandbox:
// a retried execution outputs the items already bought with path 'existing' and buys only the rest; the
// option does the same in ordinary runs; one record answers one item; Dry Run says what would be skipped.
// Queue mode (main + workers) runs the same under load: queue.e2e.js. Run: npm run test:n8n
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { useVtuN8n, RunResult } = require('./harness');
const { oneNode } = require('./sandbox');

const vtu = useVtuN8n();

const buy = (options = {}) => ({ operation: 'buy', network: '1', plan: '2', phone: '={{ $json.phone }}', options });
const debits = async (seq) => (await vtu.sb.since('demo', seq)).filter((l) => l.kind === 'debit');

test(
	'Skip If Already Bought: bought items come back as "existing" (one record per item), new ones ' + 'are bought',
	async () => {
		// two identical orders for 08031110001, one for 08031110002
		const first = ['08031110001', '08031110001', '08031110002'].map((phone) => ({ phone }));
		let seq = await vtu.sb.lastSeq();
		const r1 = await vtu.n8n.runWorkflow(oneNode(vtu.n8n, 'vtuData', buy(), { items: first }));
		assert.equal(r1.status, 'success', JSON.stringify(r1.nodeError('Node')));
		const bought = r1.nodeOutput('Node');
		assert.equal((await debits(seq)).length, 3);

		const again = [...first, { phone: '08031110003' }];
		const dry = await vtu.n8n.runWorkflow(
			oneNode(vtu.n8n, 'vtuData', buy({ dryRun: true, dryRunDetail: true, skipIfBoughtWithinMinutes: 30 }), {
				items: again,
			}),
		);
		const [summary, ...rows] = dry.nodeOutput('Node');
		assert.deepEqual([summary.rows, summary.ready, summary.alreadyBought, summary.total], [4, 1, 3, '250.00']);
		assert.deepEqual(
			rows.map((o) => o.wouldSkip),
			[true, true, true, false],
		);
		assert.deepEqual(
			rows
				.slice(0, 3)
				.map((o) => o.existing.id)
				.sort(),
			bought.map((o) => o.id).sort(),
		);

		seq = await vtu.sb.lastSeq();
		const r2 = await vtu.n8n.runWorkflow(
			oneNode(vtu.n8n, 'vtuData', buy({ skipIfBoughtWithinMinutes: 30 }), { items: again }),
		);
		assert.equal(r2.status, 'success', JSON.stringify(r2.nodeError('Node')));
		const out = r2.nodeOutput('Node');
		assert.deepEqual(
			out.map((o) => o.path),
			['existing', 'existing', 'existing', 'direct'],
		);
		assert.deepEqual(
			out
				.slice(0, 3)
				.map((o) => o.id)
				.sort(),
			bought.map((o) => o.id).sort(),
			'each record answers one item',
		);
		assert.deepEqual(
			(await debits(seq)).map((l) => l.txnId),
			[out[3].id],
			'only the new item was bought',
		);

		// without the option an ordinary run buys again (the guard is off by default)
		seq = await vtu.sb.lastSeq();
		const r3 = await vtu.n8n.runWorkflow(oneNode(vtu.n8n, 'vtuData', buy(), { items: [{ phone: '08031110002' }] }));
		assert.equal(r3.nodeOutput('Node')[0].path, 'direct');
		assert.equal((await debits(seq)).length, 1);
	},
);

test('Retry execution after a node stopped half-way buys only what the failed run did not', async () => {
	const poor = await vtu.sb.createUser({ username: 'poor', balance: '750.00' }); // 3 of 6 plans at ₦250
	const cred = await vtu.credential('poor', { apiToken: poor.token });
	const items = Array.from({ length: 6 }, (_, i) => ({ phone: `0806222000${i}` }));
	const failed = await vtu.n8n.runWorkflow(
		oneNode(vtu.n8n, 'vtuData', { ...buy(), options: { concurrency: 1 } }, { items }),
		{ credentials: { vtuApi: cred } },
	);
	assert.equal(failed.status, 'error');
	assert.match(JSON.stringify(failed.nodeError('Node')), /balance/i);
	const firstDebits = (await vtu.sb.ledger('poor')).filter((l) => l.kind === 'debit');
	assert.equal(firstDebits.length, 3);
	// n8n keeps no output of a node that fails: its error accounts for the rows already bought
	const stopped = failed.nodeError('Node');
	assert.match(
		stopped.message,
		/^The run stopped: 3 of 6 rows bought \(₦750\.00\), 1 not bought, 2 not sent\. Row 4: /,
	);
	assert.match(stopped.description, /^Bought, do not buy them again: row 1 \(₦250\.00, reference \S+\), row 2 /);
	assert.match(stopped.description, /Not sent \(the run stopped first\): rows 5, 6\./);

	await vtu.sb.admin('POST', '/admin/users/poor/fund', { amount: '5000.00' });
	const res = await vtu.n8n.request('POST', `/rest/executions/${failed.executionId}/retry`, { loadWorkflow: false });
	const retried = new RunResult(await vtu.n8n.waitForExecution(String(res.id)));
	assert.equal(retried.mode, 'retry');
	assert.equal(retried.status, 'success', JSON.stringify(retried.nodeError('Node')));
	const out = retried.nodeOutput('Node');
	assert.deepEqual(
		out.map((o) => o.path),
		['existing', 'existing', 'existing', 'direct', 'direct', 'direct'],
	);
	assert.deepEqual(
		out.slice(0, 3).map((o) => o.id),
		firstDebits.map((l) => l.txnId),
	);
	const all = (await vtu.sb.ledger('poor')).filter((l) => l.kind === 'debit');
	assert.equal(all.length, 6, 'one debit per item over both runs');
	assert.deepEqual(
		out.map((o) => o.recipient),
		items.map((i) => i.phone),
	);
});

test(
	'Retry On Fail (node setting): an answer lost after the charge, n8n re-runs the node in the ' +
		'same execution; nothing is bought twice',
	async () => {
		const items = ['08062330001', '08062330002', '08062330003'].map((phone) => ({ phone }));
		const seq = await vtu.sb.lastSeq();
		await vtu.sb.admin('POST', '/admin/faults', { endpoint: 'POST /api/data/', kind: 'reset_after', count: 1 });
		const extra = { onError: 'continueRegularOutput', retryOnFail: true, maxTries: 3, waitBetweenTries: 10 };
		const run = await vtu.n8n.runWorkflow(oneNode(vtu.n8n, 'vtuData', buy({ concurrency: 1 }), { items, extra }));
		vtu.assertNoSecrets(run);
		assert.equal(run.status, 'success', JSON.stringify(run.nodeError('Node')));
		const out = run.nodeOutput('Node');
		// the first item's record may be another buyer's (Other Buyers Use This Token is on): it stays unclear, so
		// n8n re-ran the node (its first item is an error); the other two come back from the first try
		assert.equal(out[0].code, 'unknown_outcome', JSON.stringify(out[0]));
		assert.equal(out[0].outcome, 'check later');
		assert.equal(out[0].request.phone, '08062330001');
		assert.deepEqual(
			out.slice(1).map((o) => [o.path, o.boughtVia, o.recipient]),
			[
				['already_bought_this_execution', 'direct', '08062330002'],
				['already_bought_this_execution', 'direct', '08062330003'],
			],
		);
		assert.equal((await debits(seq)).length, 3, 'three items, three debits');
	},
);
