'use strict';
// n8n in queue mode (test/n8n/queue.js: real Postgres, real Redis, one main + two workers) with the package
// as a community package, against the sandbox injecting ~20% faults into data purchases. At once:
//   - three 1,000-item VTU Data workflows (overlapping recipients and plans; Continue On Fail, Retry If
//     Not Charged) on the account "demo";
//   - the VTU Transaction Trigger on "demo", active on the main, polled again and again (pollNow);
//   - a workflow on the account "retry" that stops half-way (its wallet runs dry), then n8n's "Retry
//     execution" (POST /rest/executions/:id/retry) after a top-up, again until it succeeds.
// Audited from the sandbox's records and ledger only: 0 double charges, 0 lost, 0 false successes, every
// change emitted by the trigger exactly once, the retries bought only what the failed runs did not.
// Run: npm run test:n8n:queue   (N8N_E2E_VERSION picks the n8n version; N8N_QUEUE_ITEMS the workflow size)
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { useVtuN8n, N8N_VERSION, RunResult } = require('./harness');
const { peakRssBytes } = require('./queue');
const { oneNode } = require('./sandbox');

const ITEMS = Number(process.env.N8N_QUEUE_ITEMS || 1000);
const RETRY_ITEMS = Math.max(20, Math.round(ITEMS / 5));
const PLANS = [
	{ id: '1', kobo: 13000 },
	{ id: '2', kobo: 25000 },
	{ id: '3', kobo: 50000 },
];
const MTN = ['0803', '0806', '0703', '0706', '0813', '0816', '0810', '0814', '0903', '0906', '0913', '0916'];
const phone = (n) => MTN[n % MTN.length] + String(1000000 + n).slice(-7);
const LONG = 20 * 60 * 1000;

const vtu = useVtuN8n({ queue: { workers: 2 }, credentialName: 'VTU demo' });

/** Workflow k of the three: items cycle over a shared pool of recipients, so workflows overlap. */
function bigItems(k) {
	const pool = Math.round(ITEMS * 1.5);
	return Array.from({ length: ITEMS }, (_, i) => ({
		phone: phone(100000 + ((i + k * Math.round(ITEMS / 4)) % pool)),
		plan: PLANS[(i + k) % 3].id,
	}));
}

function buyWorkflow(name, items, { credential, options = {}, onError } = {}) {
	const parameters = {
		operation: 'buy',
		network: '1',
		plan: '={{ $json.plan }}',
		phone: '={{ $json.phone }}',
		options,
	};
	const extra = {
		...(credential ? { credentials: { vtuApi: { id: credential.id, name: credential.name } } } : {}),
		...(onError ? { onError } : {}),
	};
	return oneNode(vtu.n8n, 'vtuData', parameters, { items, extra, name: 'Buy', wfName: name });
}

const triggerWorkflow = (credential) => ({
	name: 'watch data (queue)',
	nodes: [
		{
			id: 't',
			name: 'Trigger',
			type: vtu.n8n.nodeType('vtuTransactionTrigger'),
			typeVersion: 1,
			position: [0, 0],
			credentials: { vtuApi: { id: credential.id, name: credential.name } },
			parameters: {
				product: 'data',
				events: ['new', 'completed', 'failed', 'reversed', 'otherChange'],
				// Pages to Scan 1 (the default): a transaction seen at one poll is pages down at the next, so a later
				// reversal is found by the trigger's re-check of watched transactions
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				options: { pages: 1, maxTracked: 5000 },
			},
		},
	],
	connections: {},
});

/** ~20% of data purchase POSTs hit one fault (kinds that answer within seconds). */
async function injectFaults() {
	const kinds = [
		{ kind: 'reset_after' },
		{ kind: 'html_after' },
		{ kind: 'error_before' },
		{ kind: 'rate_limit', retryAfterSeconds: 0 },
		// answered successful, reversed (refunded) 300 ms later: often after the trigger saw it successful,
		// with newer purchases on top of it by the next poll
		{ kind: 'flip_later', latencyMs: 300 },
	];
	// rules are tried in order: rule k's chance is its share of 20% among the requests no earlier rule took
	const share = 0.2 / kinds.length;
	for (let k = 0; k < kinds.length; k++) {
		await vtu.sb.admin('POST', '/admin/faults', {
			endpoint: 'POST /api/data/',
			probability: share / (1 - k * share),
			...kinds[k],
		});
	}
}

const key = (recipient, kobo) => `${recipient}|${kobo}`;

/**
 * Audit of items (what n8n output) against records (the sandbox), per recipient + price:
 *   false success: an output claims a record that is not its own (another item claimed it too, or its
 *                  recipient/price differ, or it does not exist);
 *   double charge: more debited records than items asked for;
 *   lost:          a debited record no output claims and no unknown_outcome names as a candidate.
 */
function audit(rows, records, debited) {
	const byId = new Map(records.map((t) => [t.id, t]));
	const intents = new Map();
	const claimedBy = new Map();
	const named = new Set();
	const problems = [];
	let falseSuccesses = 0;
	const falseByPath = {};
	let unknown = 0;
	for (const { want, out } of rows) {
		const k = key(want.recipient, want.kobo);
		intents.set(k, (intents.get(k) ?? 0) + 1);
		if (out.code === 'unknown_outcome') unknown++;
		for (const c of out.candidates || []) if (c && c.id != null) named.add(c.id);
		if (out.error || out.id == null) continue;
		const t = byId.get(out.id);
		if (!t || key(t.recipient, t.amountKobo) !== k || claimedBy.has(out.id)) {
			falseSuccesses++;
			const other = claimedBy.get(out.id);
			const how = `${out.path}${other ? ` vs ${other.path}` : ''}`;
			falseByPath[how] = (falseByPath[how] ?? 0) + 1;
			problems.push(
				`FALSE SUCCESS ${k}: record ${out.id} ${t ? `(${t.recipient}, ${t.amountKobo})` : '(missing)'} as ${out.path}` +
					(other ? `, also claimed by another item as ${other.path}` : ''),
			);
		}
		if (!claimedBy.has(out.id)) claimedBy.set(out.id, { k, path: out.path });
	}
	const recs = new Map();
	for (const t of records) {
		if (!debited.has(t.id)) continue;
		const k = key(t.recipient, t.amountKobo);
		if (!recs.has(k)) recs.set(k, []);
		recs.get(k).push(t);
	}
	let doubleCharges = 0;
	let lost = 0;
	for (const [k, list] of recs) {
		const extra = Math.max(0, list.length - (intents.get(k) ?? 0));
		if (extra) problems.push(`DOUBLE ${k}: ${list.length} records for ${intents.get(k) ?? 0} item(s)`);
		doubleCharges += extra;
		const unexplained = list.filter((t) => !claimedBy.has(t.id) && !named.has(t.id)).length;
		if (unexplained > extra) problems.push(`LOST ${k}: ${unexplained - extra} record(s) no output claims`);
		lost += Math.max(0, unexplained - extra);
	}
	return {
		items: rows.length,
		records: [...recs.values()].reduce((s, l) => s + l.length, 0),
		doubleCharges,
		lost,
		falseSuccesses,
		falseByPath,
		unknown,
		problems,
	};
}

const priceOf = (planId) => PLANS.find((p) => p.id === String(planId)).kobo;

async function dataRecords(username) {
	const records = await vtu.sb.transactions({ username, product: 'data' });
	const debited = new Set(
		(await vtu.sb.ledger(username)).filter((l) => l.kind === 'debit' && l.product === 'data').map((l) => l.txnId),
	);
	return { records, debited };
}

/** The failed-half-way workflow and its retries on the account "retry". Returns what each run did. */
async function failThenRetry(cred) {
	const items = Array.from({ length: RETRY_ITEMS }, (_, i) => ({ phone: phone(500000 + i), plan: '2' }));
	const wf = buyWorkflow('retry me', items, { credential: cred, options: { retryIfNotCharged: true } });
	const first = await vtu.n8n.runWorkflow(wf, { timeoutMs: LONG });
	const runs = [first];
	// dry run of the same items with the guard on: reports what would be skipped, buys nothing
	const dry = await vtu.n8n.runWorkflow(
		buyWorkflow('retry me (dry run)', items, {
			credential: cred,
			options: { dryRun: true, dryRunDetail: true, skipIfBoughtWithinMinutes: 60 },
		}),
		{ timeoutMs: LONG },
	);
	// bought by the failed run and still standing (a flip_later fault may have refunded some since)
	const boughtFirst = (await vtu.sb.transactions({ username: 'retry', product: 'data' })).filter(
		(r) => r.Status !== 'failed',
	);
	await vtu.sb.admin('POST', '/admin/users/retry/fund', { amount: `${RETRY_ITEMS * 250 + 1000}.00` });
	let last = first;
	for (let attempt = 0; attempt < 5 && last.status !== 'success'; attempt++) {
		// what the editor's "Retry with original workflow" sends; answers when the retry has finished
		const res = await vtu.n8n.request('POST', `/rest/executions/${last.executionId}/retry`, { loadWorkflow: false });
		last = new RunResult(await vtu.n8n.waitForExecution(String(res.id), { timeoutMs: LONG }));
		runs.push(last);
	}
	return {
		items,
		runs,
		dry,
		boughtFirst: boughtFirst.length,
		standingAfterFirst: new Set(boughtFirst.map((r) => r.recipient)),
	};
}

const QUEUE_TEST =
	`queue mode (n8n ${N8N_VERSION}, main + 2 workers, Postgres, Redis): ` +
	`${ITEMS}-item workflows ×3 under faults + trigger + a retried execution`;
test(QUEUE_TEST, async (t) => {
	const demo = vtu.cred;
	await vtu.sb.admin('POST', '/admin/users/demo/fund', { amount: `${ITEMS * 3 * 500}.00` });
	const retryUser = await vtu.sb.createUser({
		username: 'retry',
		balance: `${Math.floor(RETRY_ITEMS / 2) * 250 + 100}.00`,
	});
	vtu.secrets.push(retryUser.token);
	const retryCred = await vtu.credential('VTU retry', { apiToken: retryUser.token });

	const trig = await vtu.n8n.importWorkflow(triggerWorkflow(demo));
	await vtu.n8n.activateWorkflow(trig.id, { timeoutMs: LONG });
	let polls = 1;
	await injectFaults();

	const t0 = Date.now();
	let done = false;
	const poller = (async () => {
		for (; !done; polls++) await vtu.n8n.pollNow(trig.id, { timeoutMs: LONG });
	})();
	const bigOpts = { options: { retryIfNotCharged: true }, onError: 'continueRegularOutput' };
	const [big, retry] = await Promise.all([
		Promise.all(
			[0, 1, 2].map((k) => vtu.n8n.runWorkflow(buyWorkflow(`big ${k}`, bigItems(k), bigOpts), { timeoutMs: LONG })),
		),
		failThenRetry(retryCred),
	]).finally(() => {
		done = true;
	});
	await poller;
	const runMs = Date.now() - t0;
	await vtu.sb.admin('DELETE', '/admin/faults');

	// ---- the three big workflows: ledger audit
	for (const r of big) assert.equal(r.status, 'success', JSON.stringify(r.error));
	const rows = [];
	big.forEach((r, k) => {
		const out = r.nodeOutput('Buy');
		assert.equal(out.length, ITEMS);
		bigItems(k).forEach((it, i) => rows.push({ want: { recipient: it.phone, kobo: priceOf(it.plan) }, out: out[i] }));
	});
	const demoRecs = await dataRecords('demo');
	const a = audit(rows, demoRecs.records, demoRecs.debited);
	const faults = (await vtu.sb.admin('GET', '/admin/faults/log')).length;
	const paths = {};
	for (const { out } of rows) {
		const p = out.error ? out.code : out.path;
		paths[p] = (paths[p] ?? 0) + 1;
	}
	const workers = new Set(
		big.map((r) => r.execution.workerId || r.execution.data?.executionData?.runtimeData?.workerId).filter(Boolean),
	);
	t.diagnostic(
		`big workflows: ${a.items} items → ${a.records} debited records; outcomes ${JSON.stringify(paths)}; ` +
			`${faults} faults in ${Math.round(runMs / 1000)} s`,
	);
	t.diagnostic(
		`queue: ${a.items} purchases, ${faults} faults, ${a.doubleCharges} double charges, ${a.lost} lost, ` +
			`${a.falseSuccesses} false successes, ${a.unknown} unknown outcomes`,
	);
	if (a.falseSuccesses)
		t.diagnostic(
			`false successes by path (this item vs the record's first claimant): ${JSON.stringify(a.falseByPath)}`,
		);
	if (workers.size) t.diagnostic(`ran on workers: ${[...workers].join(', ')}`);
	for (const p of a.problems.slice(0, 30)) t.diagnostic(p);

	// ---- the retried workflow: the retries bought exactly what the failed run did not
	const { records: retryRecs } = await dataRecords('retry');
	const retryDebits = (await vtu.sb.ledger('retry')).filter((l) => l.kind === 'debit');
	const firstRun = retry.runs[0];
	const lastRun = retry.runs[retry.runs.length - 1];
	t.diagnostic(
		`retry: first run ${firstRun.status} (mode ${firstRun.mode}) with ${retry.boughtFirst}/${RETRY_ITEMS} bought; ` +
			`${retry.runs.length - 1} retr${retry.runs.length === 2 ? 'y' : 'ies'} (modes ${retry.runs
				.slice(1)
				.map((r) => r.mode)
				.join(', ')}); ` +
			`final ${lastRun.status}; ${retryRecs.length} records, ${retryDebits.length} debits`,
	);
	assert.equal(firstRun.status, 'error', 'the first run should stop half-way (wallet dry)');
	assert.ok(retry.boughtFirst > 0 && retry.boughtFirst < RETRY_ITEMS, `first run bought ${retry.boughtFirst}`);
	assert.ok(retry.runs.length >= 2);
	for (const r of retry.runs.slice(1)) assert.equal(r.mode, 'retry');
	assert.equal(lastRun.status, 'success', JSON.stringify(lastRun.error));
	const dryOut = retry.dry.nodeOutput('Buy');
	assert.equal(
		dryOut.filter((o) => o.wouldSkip === true).length,
		retry.boughtFirst,
		'dry run: wouldSkip = bought by the failed run',
	);
	assert.equal(
		dryOut[0].alreadyBought,
		retry.boughtFirst,
		'dry-run summary: already bought = bought by the failed run',
	);
	const finalOut = lastRun.nodeOutput('Buy');
	assert.equal(finalOut.length, RETRY_ITEMS);
	// per item: never two standing (charged, not refunded) records; the output names its own record (a record
	// the vendor reversed after answering stays the item's, failed); an item standing after the failed run
	// is 'existing' in the retry, and nothing new was bought for it
	const recByPhone = new Map();
	for (const rec of retryRecs) {
		if (!recByPhone.has(rec.recipient)) recByPhone.set(rec.recipient, []);
		recByPhone.get(rec.recipient).push(rec);
	}
	retry.items.forEach((it, i) => {
		const mine = recByPhone.get(it.phone) || [];
		const standing = mine.filter((r) => r.Status !== 'failed');
		assert.ok(standing.length <= 1, `retry item ${i} (${it.phone}): ${standing.length} standing records`);
		const named = mine.find((r) => r.id === finalOut[i].id);
		assert.ok(
			named && (standing.length === 0 || named === standing[0]),
			`retry item ${i}: output names record ${finalOut[i].id}; ` +
				`its records ${JSON.stringify(mine.map((r) => [r.id, r.Status]))}`,
		);
		if (retry.standingAfterFirst.has(it.phone)) {
			assert.equal(finalOut[i].path, 'existing', `retry item ${i} was bought by the failed run`);
			assert.equal(mine.length, 1, `retry item ${i}: bought again`);
		}
	});
	const existing = finalOut.filter((o) => o.path === 'existing').length;
	assert.ok(
		existing >= retry.boughtFirst,
		`${existing} items output as existing; the failed run bought ${retry.boughtFirst}`,
	);
	t.diagnostic(`retry: final run output ${existing} existing, ${RETRY_ITEMS - existing} bought by it`);

	// ---- the trigger: every data record of "demo" emitted once as new, every later change once
	// final polls: until every record's current status has been emitted (flips settle after the runs)
	// Events are read from every trigger execution in the database: in queue mode a poll's execution can be
	// enqueued after pollNow() stopped waiting for it, so what pollNow() returned is not the whole story.
	const pollRuns = new Map();
	const emitted = async () => {
		for (;;) {
			const list = await vtu.n8n.listExecutions(trig.id, { limit: 100 }); // n8n's most; a run polls ~10-30 times
			if (list.some((e) => ['new', 'running'].includes(e.status) || !e.stoppedAt)) {
				await new Promise((r) => setTimeout(r, 200));
				continue;
			}
			for (const e of list)
				if (!pollRuns.has(e.id)) pollRuns.set(e.id, new RunResult(await vtu.n8n.getExecution(e.id)));
			// in execution order (n8n lists the newest first): a record's last event is its latest status
			const ev = [];
			for (const [, r] of [...pollRuns].sort(([a], [b]) => Number(a) - Number(b))) {
				assert.equal(r.status, 'success', JSON.stringify(r.error));
				ev.push(...r.nodeOutput('Trigger'));
			}
			return ev;
		}
	};
	const settled = async () => {
		const recs = await vtu.sb.transactions({ username: 'demo', product: 'data' });
		const lastStatus = new Map();
		for (const e of await emitted()) lastStatus.set(e.id, e.status);
		return recs.every((r) => lastStatus.get(r.id) === r.Status);
	};
	// final polls: until every record's current status has been emitted (flips settle after the runs)
	for (let n = 0; n < 20 && !(await settled()); n++, polls++) await vtu.n8n.pollNow(trig.id, { timeoutMs: LONG });
	await vtu.n8n.deactivateWorkflow(trig.id);
	const events = await emitted();
	const finalRecs = await vtu.sb.transactions({ username: 'demo', product: 'data' });
	const news = events.filter((e) => e.event === 'new');
	const seen = new Set(events.map((e) => `${e.event}:${e.id}:${e.status}`));
	const missing = finalRecs.filter((r) => !news.some((e) => e.id === r.id)).length;
	const reversed = events.filter((e) => e.event === 'reversed').length;
	t.diagnostic(
		`trigger: ${polls} polls → ${pollRuns.size} executions, ${events.length} events ` +
			`(${news.length} new, ${reversed} reversed) for ${finalRecs.length} records; ` +
			`${missing} never emitted; ${events.length - seen.size} duplicates`,
	);
	for (const r of [...big, ...retry.runs, ...pollRuns.values()]) vtu.assertNoSecrets(r);

	const mem = vtu.q.processes().map((p) => `${p.role} ${Math.round((peakRssBytes(p.pid) || 0) / 1048576)} MB`);
	t.diagnostic(`peak memory: ${mem.join(', ')}`);

	assert.equal(a.doubleCharges, 0, a.problems.join('\n'));
	assert.equal(a.lost, 0, a.problems.join('\n'));
	assert.equal(a.falseSuccesses, 0, a.problems.join('\n'));
	assert.equal(events.length, seen.size, 'an event was emitted twice');
	assert.equal(new Set(news.map((e) => e.id)).size, news.length, 'a record was emitted as new twice');
	assert.equal(missing, 0, 'records the trigger never emitted');
	assert.ok(await settled(), 'the trigger did not emit every final status');
});
