'use strict';
/**
 * bench/n8n: 200 and 2,000 airtime purchases in ONE real n8n (test/n8n harness; N8N_E2E_VERSION picks the version) against ONE
 * sandbox, two ways, in one run:
 *   A. Code (2,000 items) → VTU Airtime (default settings)
 *   B. Code (2,000 items) → n8n's HTTP Request node doing the same POST /api/topup/ calls with the
 *      same vtuApi credential (predefined credential type → Authorization: Token …), once with the
 *      node's default body ("Using Fields Below") and once with a JSON body from one expression
 * Prints for each workflow: its wall time as the caller sees it (import, start, run, result fetched),
 * n8n's own execution time (startedAt → stoppedAt), the node's execution time, the CPU time the n8n
 * process spent on the run (Linux /proc; steadier than wall time on a shared machine) and per
 * purchase; the ratios; and the ledger debits of each run (count and kobo; they must be equal).
 * Every run also pays a fixed part outside the node (workflow import and start, Start and Code
 * nodes, result saved and fetched: wall − node, printed per run), the same for both setups.
 *
 * Where VTU Airtime's time goes (n8n 2.41.1, --cpu-prof, 2,000 items, Nov 2026): about two thirds of
 * n8n's busy time in the node is n8n's own outbound HTTP per request (new agents and TCP connection
 * every time, proxy lookup, axios), about a tenth the package's code (parameters, client, output),
 * the rest the harness's polling, GC and n8n's bookkeeping. The HTTP Request node pays the same HTTP
 * cost plus, per item, a credential read and decryption and its expressions in the isolate.
 * Before the node starts, n8n spends 0.15–0.3 s loading and starting the execution.
 *
 *   node bench/n8n.js [--items 200,2000 (one or more run sizes)] [--rounds 1] [--concurrency N (VTU Airtime option; default: node default)]
 *                     [--latency-ms 0 (the site's answer time per purchase)] [--only ours|fields|json] [--http fields,json]
 *   npm run bench:n8n [-- --rounds 3]
 *
 * --queue: throughput of one n8n process (regular mode, SQLite) vs queue mode (main + 2 workers, Postgres,
 * Redis: test/n8n/queue.js), the same load on each: --workflows (default 6) VTU Airtime workflows of --items
 * (default 300) purchases started at once. Prints executions/min, purchases/s and the n8n processes' peak
 * memory (VmHWM).
 *   npm run bench:n8n -- --queue [--workflows 6] [--items 300] [--latency-ms 0]
 *
 * Needs the cached n8n (bash test/n8n/install.sh) and a built package (npm run build).
 */
const fs = require('node:fs');
const os = require('node:os');
const { parseArgs } = require('node:util');
const { startN8n, REPO_ROOT } = require('../test/n8n/harness');
const { startSandboxProcess } = require('../test/n8n/sandbox');

const { values: args } = parseArgs({
	options: {
		items: { type: 'string' }, // default 200,2000 (the two sizes measured), 300 with --queue
		rounds: { type: 'string', default: '1' },
		concurrency: { type: 'string' },
		amount: { type: 'string', default: '100' },
		// which HTTP Request setups to compare with (see HTTP_BODIES)
		http: { type: 'string', default: 'fields,json' },
		// 'ours', 'fields' or 'json': run one workflow only (e.g. to profile n8n: N8N_E2E_NODE_ARGS=--cpu-prof)
		only: { type: 'string' },
		// the vendor's answer time for every purchase (a sandbox `latency` fault); real sites take
		// 1–5 s, the default 0 measures n8n's own cost per call
		'latency-ms': { type: 'string', default: '0' },
		queue: { type: 'boolean', default: false },
		workflows: { type: 'string', default: '6' },
	},
});
const SIZES = (args.items ?? '200,2000').split(',').map(Number);
const ITEMS = Number(args.items ?? 300); // --queue: items per workflow
const ROUNDS = Number(args.rounds);
const AMOUNT = Number(args.amount);
const LATENCY_MS = Number(args['latency-ms']);

const PREFIXES = ['0803', '0806', '0703', '0706', '0813', '0816', '0810', '0814', '0903', '0906', '0913', '0916'];
const genCode = (items) => `const out = [];
const prefixes = ${JSON.stringify(PREFIXES)};
for (let i = 0; i < ${items}; i++) {
  out.push({ json: { phone: prefixes[i % prefixes.length] + String(1000000 + i).slice(-7), amount: ${AMOUNT} } });
}
return out;`;

const start = {
	id: 's',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const gen = (items) => ({
	id: 'g',
	name: 'Customers',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: [200, 0],
	parameters: { jsCode: genCode(items) },
});
const chain = (last) => ({
	Start: { main: [[{ node: 'Customers', type: 'main', index: 0 }]] },
	Customers: { main: [[{ node: last, type: 'main', index: 0 }]] },
});

function oursWorkflow(items) {
	const options = args.concurrency ? { concurrency: Number(args.concurrency) } : {};
	return {
		name: `bench: VTU Airtime × ${items}`,
		nodes: [
			start,
			gen(items),
			{
				id: 'v',
				name: 'VTU Airtime',
				type: 'n8n-nodes-vtu.vtuAirtime',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					operation: 'buy',
					network: '1',
					airtimeType: 'VTU',
					amount: '={{ $json.amount }}',
					phone: '={{ $json.phone }}',
					options,
				},
			},
		],
		connections: chain('VTU Airtime'),
	};
}

/**
 * The same POST /api/topup/ per item through n8n's HTTP Request node, with the vtuApi credential.
 *   fields: the node's default body mode ("Using Fields Below"), one field per request key
 *   json:   "Using JSON", the whole body from one expression (fewer expressions: the faster setup)
 */
const HTTP_BODIES = {
	fields: {
		label: 'HTTP Request (default body: fields)',
		parameters: {
			bodyParameters: {
				parameters: [
					{ name: 'network', value: '1' },
					{ name: 'amount', value: '={{ $json.amount }}' },
					{ name: 'mobile_number', value: '={{ $json.phone }}' },
					{ name: 'Ported_number', value: 'false' },
					{ name: 'airtime_type', value: 'VTU' },
				],
			},
		},
	},
	json: {
		label: 'HTTP Request (JSON body)',
		parameters: {
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ network: 1, amount: $json.amount, mobile_number: $json.phone, Ported_number: false, airtime_type: "VTU" }) }}',
		},
	},
};

function httpWorkflow(baseUrl, cred, body, items) {
	return {
		name: `bench: ${HTTP_BODIES[body].label} × ${items}`,
		nodes: [
			start,
			gen(items),
			{
				id: 'h',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [400, 0],
				credentials: { vtuApi: { id: cred.id, name: cred.name } },
				parameters: {
					method: 'POST',
					url: `${baseUrl}/api/topup/`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'vtuApi',
					sendBody: true,
					...HTTP_BODIES[body].parameters,
					options: {},
				},
			},
		],
		connections: chain('HTTP Request'),
	};
}

/** A process's group and user + system CPU ms so far, from Linux /proc (undefined when gone). */
function procStat(pid) {
	try {
		const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
		return { pgrp: Number(f[2]), cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / 100 }; // USER_HZ = 100
	} catch {
		return undefined;
	}
}

const cpuMs = (pid) => procStat(pid)?.cpuMs ?? NaN;

/** CPU ms of every process in a process group (the sandbox runs as tsx → node, detached). */
function groupCpuMs(pgid) {
	let sum = 0;
	for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
		const st = procStat(pid);
		if (st && st.pgrp === pgid) sum += st.cpuMs;
	}
	return sum;
}

async function measure(n8n, sb, wf, nodeName) {
	const seq = await sb.lastSeq();
	const s0 = groupCpuMs(sb.child.pid);
	const c0 = cpuMs(n8n.child.pid);
	const t0 = process.hrtime.bigint();
	const run = await n8n.runWorkflow(wf, { timeoutMs: 30 * 60 * 1000 });
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const cpu = cpuMs(n8n.child.pid) - c0;
	const sandboxCpu = groupCpuMs(sb.child.pid) - s0;
	if (run.status !== 'success') {
		throw new Error(`${wf.name}: ${run.status} ${JSON.stringify(run.nodeError(nodeName) || run.error).slice(0, 600)}`);
	}
	const out = run.nodeOutput(nodeName);
	const nodeMs = run.nodeRun(nodeName).executionTime;
	const execMs = Date.parse(run.execution.stoppedAt) - Date.parse(run.execution.startedAt);
	const rows = (await sb.since('demo', seq)).filter((l) => l.product === 'airtime');
	const debits = rows.filter((l) => l.kind === 'debit');
	const refunds = rows.filter((l) => l.kind === 'refund');
	const ok = out.filter((o) => (o.status || o.Status) === 'successful').length;
	return {
		wallMs,
		execMs,
		nodeMs,
		cpuMs: cpu,
		sandboxCpuMs: sandboxCpu,
		items: out.length,
		successful: ok,
		debitCount: debits.length,
		debitKobo: debits.reduce((s, l) => s + l.amountKobo, 0),
		refundKobo: refunds.reduce((s, l) => s + l.amountKobo, 0),
		recipients: debits.map((l) => l.txnId),
	};
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
	const sb = await startSandboxProcess();
	let n8n;
	try {
		// start-up alone can take minutes on a saturated shared machine
		n8n = await startN8n({ packageDir: REPO_ROOT, timeoutMs: 10 * 60 * 1000 });
		const cred = await n8n.createCredential({ name: 'VTU sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
		const workflows = {
			ours: {
				label: `VTU Airtime (${args.concurrency ? `concurrency ${args.concurrency}` : 'default settings'})`,
				node: 'VTU Airtime',
				make: oursWorkflow,
			},
		};
		for (const b of args.http.split(',').filter((x) => HTTP_BODIES[x]))
			workflows[b] = {
				label: HTTP_BODIES[b].label,
				node: 'HTTP Request',
				make: (items) => httpWorkflow(sb.baseUrl, cred, b, items),
			};
		const names = Object.keys(workflows).filter((w) => !args.only || w === args.only);
		// enough money for every round of every workflow
		const total = SIZES.reduce((a, b) => a + b, 0) + 200;
		await sb.admin('POST', '/admin/users/demo/fund', {
			amount: `${total * AMOUNT * names.length * ROUNDS + 10000}.00`,
		});
		process.stderr.write(
			`# n8n ready in ${n8n.timings.readyMs} ms; sandbox ${sb.baseUrl}; ${SIZES.join(' and ')} items × ${ROUNDS} round(s)\n`,
		);

		// warm-up (not counted): every workflow once with 200 items (module loading, catalogue cache, JIT)
		for (const w of names) await measure(n8n, sb, workflows[w].make(200), workflows[w].node);

		if (LATENCY_MS > 0) {
			await sb.admin('POST', '/admin/faults', {
				endpoint: 'POST /api/topup/',
				kind: 'latency',
				latencyMs: LATENCY_MS,
				probability: 1,
			});
		}
		const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
		const TARGET = { 200: 5, 2000: 8 };
		const lines = [''];
		let equal = true;
		for (const ITEMS of SIZES) {
			const results = Object.fromEntries(names.map((w) => [w, []]));
			for (let r = 0; r < ROUNDS; r++) {
				// rotate the order per round (the sandbox's state grows)
				const order = names.map((_, k) => names[(k + r) % names.length]);
				for (const w of order) {
					const res = await measure(n8n, sb, workflows[w].make(ITEMS), workflows[w].node);
					results[w].push(res);
					process.stderr.write(
						`# ${ITEMS} items, round ${r + 1} ${w}: wall ${fmt(res.wallMs)}, execution ${fmt(res.execMs)}, node ${fmt(res.nodeMs)}, outside the node ${fmt(res.wallMs - res.nodeMs)}, ` +
							`n8n CPU ${fmt(res.cpuMs)}, sandbox CPU ${fmt(res.sandboxCpuMs)}, ` +
							`${res.debitCount} debits (load ${os.loadavg()[0].toFixed(1)})\n`,
					);
				}
			}
			const med = (w, key) => median(results[w].map((x) => x[key]));
			lines.push(
				`bench/n8n: ${ITEMS} airtime purchases (MTN VTU ₦${AMOUNT}) in n8n ${require('../test/n8n/harness').N8N_VERSION}, one sandbox${LATENCY_MS ? ` answering each purchase after ${LATENCY_MS} ms` : ''}, ${ROUNDS} round(s), medians; ${os.cpus().length} CPUs, load ${os
					.loadavg()
					.map((x) => x.toFixed(1))
					.join(' ')}`,
			);
			for (const w of names) {
				lines.push(
					`  ${workflows[w].label.padEnd(38)} workflow ${fmt(med(w, 'wallMs'))}, execution ${fmt(med(w, 'execMs'))}, node ${fmt(med(w, 'nodeMs'))}, ` +
						`n8n CPU ${fmt(med(w, 'cpuMs'))} (${(med(w, 'cpuMs') / ITEMS).toFixed(2)} ms per purchase)`,
				);
			}
			if (names.includes('ours')) {
				for (const w of names.filter((x) => x !== 'ours')) {
					const ratio = (key) => `${(med(w, key) / med('ours', key)).toFixed(2)}×`;
					const target = TARGET[ITEMS] ? ` (target: ours ≥ ${TARGET[ITEMS]}× faster)` : '';
					lines.push(
						`  ratio ${workflows[w].label} / ours: workflow ${ratio('wallMs')}, execution ${ratio('execMs')}, node ${ratio('nodeMs')}, n8n CPU ${ratio('cpuMs')}${target}`,
					);
				}
			}
			for (let r = 0; r < ROUNDS; r++) {
				const ledger = names.map((w) => {
					const x = results[w][r];
					equal =
						equal &&
						x.debitCount === ITEMS &&
						x.successful === ITEMS &&
						x.debitKobo === results[names[0]][r].debitKobo &&
						x.refundKobo === results[names[0]][r].refundKobo;
					return `${w} ${x.debitCount} debits = ${x.debitKobo} kobo (refunds ${x.refundKobo}, ${x.successful}/${x.items} successful)`;
				});
				lines.push(`  round ${r + 1} ledger: ${ledger.join('; ')}`);
			}
		}
		lines.push(equal ? '  debits: EQUAL in every round' : '  DEBITS DIFFER (or not every purchase went through)');
		process.stdout.write(lines.join('\n') + '\n');
		if (!equal) process.exitCode = 1;
	} finally {
		if (n8n) await n8n.stop();
		await sb.stop();
	}
}

/** Starts `WORKFLOWS` airtime workflows at once on `n8n`; returns wall time and purchases (ledger debits). */
async function burst(n8n, sb, label) {
	const workflows = Number(args.workflows);
	const seq = await sb.lastSeq();
	const wf = oursWorkflow(ITEMS);
	// imported one by one before the clock starts; then all started at once
	const ids = [];
	for (let k = 0; k < workflows; k++) ids.push((await n8n.importWorkflow({ ...wf, name: `${wf.name} #${k}` })).id);
	const t0 = process.hrtime.bigint();
	const runs = await Promise.all(ids.map((id) => n8n.runWorkflow(id, { timeoutMs: 60 * 60 * 1000 })));
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	const bad = runs.filter((r) => r.status !== 'success');
	if (bad.length)
		throw new Error(`${label}: ${bad.length} workflow(s) failed: ${JSON.stringify(bad[0].error).slice(0, 400)}`);
	const debits = (await sb.since('demo', seq)).filter((l) => l.kind === 'debit').length;
	return { wallMs, executions: workflows, purchases: debits };
}

async function queueMain() {
	const { startQueueCluster, peakRssBytes } = require('../test/n8n/queue');
	const workflows = Number(args.workflows);
	const sb = await startSandboxProcess();
	const results = [];
	try {
		await sb.admin('POST', '/admin/users/demo/fund', { amount: `${ITEMS * AMOUNT * workflows * 3 + 10000}.00` });
		if (LATENCY_MS > 0) {
			await sb.admin('POST', '/admin/faults', {
				endpoint: 'POST /api/topup/',
				kind: 'latency',
				latencyMs: LATENCY_MS,
				probability: 1,
			});
		}
		const setups = [
			{
				label: 'one process (regular mode, SQLite)',
				start: async () => {
					const n = await startN8n({ packageDir: REPO_ROOT });
					return { n8n: n, pids: () => [n.child.pid], stop: () => n.stop() };
				},
			},
			{
				label: 'queue mode (main + 2 workers, Postgres, Redis)',
				start: async () => {
					const q = await startQueueCluster({ workers: 2 });
					return { n8n: q.main, pids: () => q.processes().map((p) => p.pid), stop: () => q.stop() };
				},
			},
		];
		for (const s of setups) {
			const inst = await s.start();
			try {
				await inst.n8n.createCredential({ name: 'VTU sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
				// warm-up (not counted): one small workflow per process that will run them
				const small = JSON.parse(JSON.stringify(oursWorkflow(20)));
				for (let k = 0; k < 3; k++) await inst.n8n.runWorkflow(small, { timeoutMs: 10 * 60 * 1000 });
				const r = await burst(inst.n8n, sb, s.label);
				const peaks = inst.pids().map((pid) => peakRssBytes(pid) || 0);
				results.push({ ...s, ...r, peakMb: peaks.map((b) => Math.round(b / 1048576)) });
				process.stderr.write(
					`# ${s.label}: ${fmt(r.wallMs)} for ${r.purchases} purchases (load ${os.loadavg()[0].toFixed(1)})\n`,
				);
			} finally {
				await inst.stop();
			}
		}
	} finally {
		await sb.stop();
	}
	const lines = [
		'',
		`bench/n8n --queue: ${workflows} workflows × ${ITEMS} airtime purchases started at once, n8n ${require('../test/n8n/harness').N8N_VERSION}${LATENCY_MS ? `, the site answering each purchase after ${LATENCY_MS} ms` : ''}; ${os.cpus().length} CPUs, load ${os
			.loadavg()
			.map((x) => x.toFixed(1))
			.join(' ')}`,
	];
	for (const r of results) {
		const perMin = (r.executions / r.wallMs) * 60000;
		const perS = (r.purchases / r.wallMs) * 1000;
		lines.push(
			`  ${r.label.padEnd(48)} ${perMin.toFixed(1)} executions/min, ${perS.toFixed(1)} purchases/s, peak memory ${r.peakMb.join(' + ')} MB`,
		);
	}
	if (results.length === 2) {
		lines.push(
			`  ratio queue / one process: purchases/s ${(results[1].purchases / results[1].wallMs / (results[0].purchases / results[0].wallMs)).toFixed(2)}×`,
		);
	}
	const expected = workflows * ITEMS;
	const ok = results.every((r) => r.purchases === expected);
	lines.push(
		ok
			? `  debits: ${expected} in each setup`
			: `  DEBITS DIFFER from ${expected}: ${results.map((r) => r.purchases).join(', ')}`,
	);
	process.stdout.write(lines.join('\n') + '\n');
	if (!ok) process.exitCode = 1;
}

(args.queue ? queueMain() : main()).catch((e) => {
	process.stderr.write(`bench/n8n: ${e.stack || e.message}\n`);
	process.exit(1);
});
