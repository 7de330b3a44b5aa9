'use strict';
/**
 * bench/n8n: airtime purchases in ONE real n8n (test/n8n harness; N8N_E2E_VERSION picks the version) against ONE
 * sandbox, three setups in the same run:
 *   ours:  Code (N items) → VTU Airtime (default settings: the adaptive pace from 10 up to 1000; with
 *          --concurrency C it starts at C and C is the ceiling). Against a vendor with an answer time it runs
 *          twice per round, through a new origin of the sandbox (a forwarder port: the pace memory is per
 *          base URL origin): cold, the first run to that vendor in this n8n, then warm, the same workflow
 *          again right after, starting at the pace the cold run learned (nodes/shared/paceMemory.ts). The
 *          vendor answering at once is reached directly (its memory is whatever the warm-up taught).
 *   http:  Code → n8n's HTTP Request node doing the same POST /api/topup/ with the same vtuApi credential, as a
 *          builder would set it up (JSON body from one expression, every other setting at its default: every
 *          item at once)
 *   floor: Code → a bench-only node (bench/floor) that does nothing but one request per item through n8n's
 *          request helpers, every item at once: the least a verified node can do
 * against these vendors (sandbox `latency` fault on every purchase; config max_in_flight / over_capacity):
 *   answering at once, after 1 s and after 3 s, with no capacity limit: 200 and 2,000 items, all three setups
 *   after 1 s with capacity N (more queue), 2,000 items: ours and HTTP Request; the same with 429 beyond N: ours
 *   after 3 s with capacity N (more queue), 200 items: ours and HTTP Request
 * Prints per run the workflow, node and n8n CPU time, rows bought/failed, debits, double charges (a phone of
 * the run debited more than once, net of refunds, from the sandbox's own ledger) and n8n's RSS; then the
 * ratios, the ledger audit, n8n's peak memory and the last line:
 *   n8n: ours <r>× the floor at 2,000 items; at 1 s vendor <h>× HTTP Request's speed (warm <w>×), <l>× the
 *   vendor-bound limit at capacity N; 0 double charges
 * r = floor node time / ours (throughput ratio, vendor at once); h = HTTP Request node time / ours cold (1 s, no
 * limit), w the same for ours warm; l = ours cold node time / (items × 1 s ÷ N), N = --capacity.
 *
 * Where VTU Airtime's time goes (n8n 2.41.1, --cpu-prof, 2,000 items, Nov 2026): about two thirds of
 * n8n's busy time in the node is n8n's own outbound HTTP per request (new agents and TCP connection
 * every time, proxy lookup, axios), about a tenth the package's code (parameters, client, output),
 * the rest the harness's polling, GC and n8n's bookkeeping.
 *
 *   node bench/n8n.js [--items 200,2000] [--latencies 0,1000,3000] [--capacity 50 (0: no capacity runs)]
 *                     [--capacity-items 2000] [--rounds 1] [--concurrency N (ours: the ceiling)]
 *                     [--also-concurrency C (ours again with Concurrency C set)] [--only ours|http|floor]
 *                     [--http json|fields]
 *   npm run bench:n8n
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
const path = require('node:path');
const os = require('node:os');
const net = require('node:net');
const { parseArgs } = require('node:util');
const { startN8n, REPO_ROOT } = require('../test/n8n/harness');
const { startSandboxProcess } = require('../test/n8n/sandbox');

const { values: args } = parseArgs({
	options: {
		items: { type: 'string' }, // default 200,2000 (the two sizes measured), 300 with --queue
		rounds: { type: 'string', default: '1' },
		concurrency: { type: 'string' },
		amount: { type: 'string', default: '100' },
		// the HTTP Request setup to compare with (see HTTP_BODIES)
		http: { type: 'string', default: 'json' },
		// 'ours', 'http' or 'floor': run one setup only (e.g. to profile n8n: N8N_E2E_NODE_ARGS=--cpu-prof)
		only: { type: 'string' },
		// vendor answer times of the runs without a capacity limit (ms)
		latencies: { type: 'string', default: '0,1000,3000' },
		// the capacity-limited vendor: at most N purchases in flight (0: no such runs), and its run size at 1 s
		capacity: { type: 'string', default: '50' },
		// ours a second time in every scenario with this Concurrency set (a builder who knows the site)
		'also-concurrency': { type: 'string' },
		'capacity-items': { type: 'string', default: '2000' },
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
const LATENCIES = args.latencies.split(',').map(Number);
const CAPACITY = Number(args.capacity);
const CAPACITY_ITEMS = Number(args['capacity-items']);
const BENCH_PKG = 'n8n-nodes-vtu-bench';
// the package VTU Airtime is loaded from: the repo's (--queue), or the bench package with the floor node
let oursPackage = 'n8n-nodes-vtu';
const oursLabel = () => (args.concurrency ? `ceiling ${args.concurrency}` : 'default settings');

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

/** VTU Airtime over `items`; `cred`: the credential to use (else the harness's default). */
function oursWorkflow(items, concurrency = args.concurrency, cred = undefined) {
	const options = concurrency ? { concurrency: Number(concurrency) } : {};
	return {
		name: `bench: VTU Airtime × ${items}`,
		nodes: [
			start,
			gen(items),
			{
				id: 'v',
				name: 'VTU Airtime',
				type: `${oursPackage}.vtuAirtime`,
				typeVersion: 1,
				position: [400, 0],
				...(cred ? { credentials: { vtuApi: { id: cred.id, name: cred.name } } } : {}),
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
		label: 'HTTP Request (JSON body, defaults)',
		parameters: {
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ network: 1, amount: $json.amount, mobile_number: $json.phone, Ported_number: false, ' +
				'airtime_type: "VTU" }) }}',
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

const peakRss = (pid) => procStatus(pid, 'VmHWM');
const rss = (pid) => procStatus(pid, 'VmRSS');
/** A field of /proc/<pid>/status in MB (Linux), NaN when gone. */
function procStatus(pid, field) {
	try {
		const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return m ? Number(m[1]) / 1024 : NaN;
	} catch {
		return NaN;
	}
}

/**
 * A throwaway community package for the bench: the repo's built nodes and credential (dist, symlinked) plus
 * the floor node (bench/floor), so all three setups run in one n8n. Node types: `n8n-nodes-vtu-bench.<name>`.
 */
function benchPackage() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-nodes-vtu-bench-'));
	const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	fs.symlinkSync(path.join(REPO_ROOT, 'dist'), path.join(dir, 'dist'), 'dir');
	fs.mkdirSync(path.join(dir, 'floor'));
	fs.copyFileSync(
		path.join(__dirname, 'floor', 'FloorRequest.node.js'),
		path.join(dir, 'floor', 'FloorRequest.node.js'),
	);
	const n8nSection = {
		...pkg.n8n,
		strict: false,
		nodes: [...pkg.n8n.nodes, 'floor/FloorRequest.node.js'],
	};
	const manifest = {
		name: BENCH_PKG,
		version: '0.0.0',
		private: true,
		keywords: ['n8n-community-node-package'],
		n8n: n8nSection,
	};
	fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
	return dir;
}

function floorWorkflow(items) {
	return {
		name: `bench: floor × ${items}`,
		nodes: [
			start,
			gen(items),
			{
				id: 'f',
				name: 'Floor Request',
				type: `${BENCH_PKG}.floorRequest`,
				typeVersion: 1,
				position: [400, 0],
				parameters: {},
			},
		],
		connections: chain('Floor Request'),
	};
}

/**
 * The sandbox under a new origin (a TCP forwarder in this process on a port of its own, 127.0.0.1 only) with a
 * credential for it: the node's pace memory is per base URL origin, so the first run through it is a cold
 * start (nothing learned for that vendor in this n8n) and the next one through it a warm start. The servers
 * stay open until the end (`closeForwarders`) so no port, hence no origin, is used twice.
 */
const forwarders = [];
async function freshVendor(n8n, sb) {
	const target = new URL(sb.baseUrl);
	const sockets = new Set();
	const server = net.createServer((c) => {
		const u = net.connect(Number(target.port), target.hostname);
		for (const s of [c, u]) {
			sockets.add(s);
			s.on('close', () => sockets.delete(s));
			s.on('error', () => (c.destroy(), u.destroy()));
		}
		c.pipe(u);
		u.pipe(c);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	forwarders.push({ server, sockets });
	const baseUrl = `http://127.0.0.1:${server.address().port}`;
	const name = `VTU sandbox via ${baseUrl}`;
	const cred = await n8n.createCredential({ name, data: { baseUrl, apiToken: sb.token }, makeDefault: false });
	return { baseUrl, cred };
}

function closeForwarders() {
	for (const f of forwarders.splice(0)) {
		for (const s of f.sockets) s.destroy();
		f.server.close();
	}
}

/** The vendor of one scenario: answer time on every purchase, capacity and what lies beyond it. */
async function setVendor(sb, v) {
	await sb.admin('DELETE', '/admin/faults');
	await sb.setConfig({ max_in_flight: v.capacity ?? null, over_capacity: v.over ?? 'queue' });
	if (v.latencyMs > 0) {
		await sb.admin('POST', '/admin/faults', {
			endpoint: 'POST /api/topup/',
			kind: 'latency',
			latencyMs: v.latencyMs,
			probability: 1,
		});
	}
}

async function measure(n8n, sb, wf, nodeName) {
	const seq = await sb.lastSeq();
	const refused0 = (await sb.admin('GET', '/admin/capacity')).refusedTotal;
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
	// double charges: a phone of this run debited more than once (net of refunds), from the sandbox's own records
	const txns = await sb.transactions({ username: 'demo', product: 'airtime' });
	const phoneOf = new Map(txns.map((t) => [t.id, t.recipient]));
	const net = new Map();
	for (const l of rows) {
		const phone = phoneOf.get(l.txnId);
		net.set(phone, (net.get(phone) ?? 0) + (l.kind === 'debit' ? 1 : l.kind === 'refund' ? -1 : 0));
	}
	const ok = out.filter((o) => (o.status || o.Status) === 'successful').length;
	return {
		wallMs,
		execMs,
		nodeMs,
		cpuMs: cpu,
		sandboxCpuMs: sandboxCpu,
		rssMb: rss(n8n.child.pid),
		items: out.length,
		successful: ok,
		failed: out.filter((o) => o.error !== undefined).length,
		refused: (await sb.admin('GET', '/admin/capacity')).refusedTotal - refused0,
		debitCount: debits.length,
		debitKobo: debits.reduce((s, l) => s + l.amountKobo, 0),
		refundKobo: refunds.reduce((s, l) => s + l.amountKobo, 0),
		doubleCharges: [...net.values()].filter((n) => n > 1).length,
	};
}

const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const x = (n) => `${n.toFixed(2)}×`;

/** The scenarios of one run: a vendor and which setups and sizes meet it. */
function scenarios() {
	const all = [];
	for (const latencyMs of LATENCIES) {
		all.push({
			key: `lat${latencyMs}`,
			label: latencyMs ? `vendor answering after ${latencyMs / 1000} s, no capacity limit` : 'vendor answering at once',
			latencyMs,
			capacity: null,
			sizes: SIZES,
			setups: ['ours', 'http', 'floor'],
		});
	}
	if (CAPACITY > 0) {
		const cap = (latencyMs, over, sizes, setups) => ({
			key: `cap${latencyMs}${over}`,
			label:
				`vendor answering after ${latencyMs / 1000} s, capacity ${CAPACITY} ` +
				`(${over === 'queue' ? 'more queue' : '429 beyond'})`,
			latencyMs,
			capacity: CAPACITY,
			over,
			sizes,
			setups,
		});
		all.push(cap(1000, 'queue', [CAPACITY_ITEMS], ['ours', 'http']));
		all.push(cap(1000, 'refuse_429', [CAPACITY_ITEMS], ['ours']));
		all.push(cap(3000, 'queue', [Math.min(200, CAPACITY_ITEMS)], ['ours', 'http']));
	}
	return all;
}

function describe(setup, r) {
	return (
		`workflow ${fmt(r.wallMs)}, node ${fmt(r.nodeMs)}, n8n CPU ${fmt(r.cpuMs)} (${(r.cpuMs / r.items).toFixed(2)} ` +
		`ms/item), ` +
		`${r.successful}/${r.items} bought, ${r.failed} failed rows, ${r.debitCount} debits, ${r.doubleCharges} double ` +
		`charges` +
		`${r.refused ? `, ${r.refused} refused by the vendor` : ''}, n8n RSS ${r.rssMb.toFixed(0)} MB`
	);
}

async function main() {
	const sb = await startSandboxProcess();
	let n8n;
	const pkgDir = benchPackage();
	oursPackage = BENCH_PKG;
	try {
		// start-up alone can take minutes on a saturated shared machine
		n8n = await startN8n({ packageDir: pkgDir, timeoutMs: 10 * 60 * 1000 });
		const cred = await n8n.createCredential({ name: 'VTU sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
		const http = args.http.split(',').filter((b) => HTTP_BODIES[b])[0] ?? 'json';
		const setups = {
			ours: { label: `VTU Airtime (${oursLabel()})`, node: 'VTU Airtime', make: oursWorkflow },
			http: {
				label: HTTP_BODIES[http].label,
				node: 'HTTP Request',
				make: (n) => httpWorkflow(sb.baseUrl, cred, http, n),
			},
			floor: { label: 'floor node (one request per item)', node: 'Floor Request', make: floorWorkflow },
		};
		const also = args['also-concurrency'];
		setups.oursWarm = { label: `VTU Airtime (${oursLabel()}, warm: 2nd run)`, node: 'VTU Airtime' };
		if (also)
			setups.oursSet = {
				label: `VTU Airtime (Concurrency set: ${also})`,
				node: 'VTU Airtime',
				make: (n) => oursWorkflow(n, also),
			};
		const plan = scenarios().map((s) => ({
			...s,
			setups: s.setups
				.flatMap((w) => (w === 'ours' && also ? ['ours', 'oursSet'] : [w]))
				.filter((w) => !args.only || w === args.only),
		}));
		// ours runs twice (cold, warm) against a vendor with an answer time
		const perSize = (s) => s.setups.length + (s.latencyMs > 0 && s.setups.includes('ours') ? 1 : 0);
		const purchases = plan.reduce((a, s) => a + s.sizes.reduce((b, n) => b + n, 0) * perSize(s) * ROUNDS, 0);
		await sb.admin('POST', '/admin/users/demo/fund', { amount: `${(purchases + 1000) * AMOUNT}.00` });
		process.stderr.write(
			`# n8n ready in ${n8n.timings.readyMs} ms; sandbox ${sb.baseUrl}; ${purchases} purchases planned\n`,
		);
		// warm-up (not counted): every setup once (module loading, catalogue cache, JIT)
		await setVendor(sb, { latencyMs: 0 });
		for (const w of Object.keys(setups).filter((k) => setups[k].make)) {
			await measure(n8n, sb, setups[w].make(100), setups[w].node);
		}

		const results = {};
		const lines = [''];
		const head =
			`bench/n8n: airtime purchases (MTN VTU ₦${AMOUNT}) in n8n ` +
			`${require('../test/n8n/harness').N8N_VERSION}, one sandbox, ${ROUNDS} round(s), medians; ` +
			`${new Date().toISOString().slice(0, 16)} UTC, ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ` +
			`load ${os.loadavg()[0].toFixed(1)}`;
		lines.push(head);
		for (const sc of plan) {
			await setVendor(sb, sc);
			lines.push(`${sc.label}:`);
			for (const items of sc.sizes) {
				for (const w of sc.setups) {
					// ours against a vendor with an answer time: cold (a new origin) and warm (the same workflow again)
					const byRun =
						w === 'ours' && sc.latencyMs > 0
							? await coldWarm(n8n, sb, items)
							: { [w]: await rounds(() => measure(n8n, sb, setups[w].make(items), setups[w].node)) };
					for (const [k, runs] of Object.entries(byRun)) {
						const med = medianRun(runs);
						(results[sc.key] ??= {})[`${k}${items}`] = { ...med, runs };
						const label =
							k === 'ours' && sc.latencyMs > 0 ? `${setups.ours.label.slice(0, -1)}, cold)` : setups[k].label;
						const line = `  ${String(items).padStart(5)} items  ${label.padEnd(44)} ${describe(k, med)}`;
						process.stderr.write(`#${line} (load ${os.loadavg()[0].toFixed(1)})\n`);
						lines.push(`${line}; load ${os.loadavg()[0].toFixed(1)}`);
					}
				}
			}
		}
		lines.push(...summary(plan, results, n8n));
		process.stdout.write(lines.join('\n') + '\n');
	} finally {
		closeForwarders();
		if (n8n) await n8n.stop();
		await sb.stop();
		fs.rmSync(pkgDir, { recursive: true, force: true });
	}
}

async function rounds(once) {
	const runs = [];
	for (let r = 0; r < ROUNDS; r++) runs.push(await once());
	return runs;
}

/**
 * Ours twice per round through a new origin (freshVendor): cold, the first run to that vendor in this n8n (the
 * pace starts at 10), then warm, the same workflow again right after (the pace starts where the first one got).
 */
async function coldWarm(n8n, sb, items) {
	const cold = [];
	const warm = [];
	for (let r = 0; r < ROUNDS; r++) {
		const { cred } = await freshVendor(n8n, sb);
		const wf = oursWorkflow(items, undefined, cred);
		cold.push(await measure(n8n, sb, wf, 'VTU Airtime'));
		warm.push(await measure(n8n, sb, wf, 'VTU Airtime'));
	}
	return { ours: cold, oursWarm: warm };
}

/** The run with the median node time (its other figures with it). */
function medianRun(runs) {
	return [...runs].sort((a, b) => a.nodeMs - b.nodeMs)[Math.floor(runs.length / 2)];
}

/** Ratios against the floor, HTTP Request and the vendor-bound limit; the ledger audit; the last line. */
function summary(plan, results, n8n) {
	const lines = [''];
	const get = (key, w, n) => results[key]?.[`${w}${n}`];
	const big = Math.max(...SIZES);
	for (const n of SIZES) {
		const ours = get('lat0', 'ours', n);
		const floor = get('lat0', 'floor', n);
		if (ours && floor) {
			lines.push(
				`ours / floor at ${n} items, vendor at once: throughput ${x(floor.nodeMs / ours.nodeMs)} (goal ≥ 0.9×), n8n ` +
					`CPU per item ${x(ours.cpuMs / floor.cpuMs)} the floor's`,
			);
		}
		for (const lat of LATENCIES.filter((l) => l > 0)) {
			const o = get(`lat${lat}`, 'ours', n);
			const h = get(`lat${lat}`, 'http', n);
			const f = get(`lat${lat}`, 'floor', n);
			if (o && h) {
				lines.push(
					`ours (cold) at ${n} items, ${lat / 1000} s vendor: ${x(h.nodeMs / o.nodeMs)} HTTP Request's speed (goal ` +
						`≥ 1×)${f ? `, ${x(f.nodeMs / o.nodeMs)} the floor's` : ''}`,
				);
			}
			const wm = get(`lat${lat}`, 'oursWarm', n);
			if (wm && h) {
				lines.push(
					`ours (warm: 2nd run) at ${n} items, ${lat / 1000} s vendor: ${x(h.nodeMs / wm.nodeMs)} HTTP Request's ` +
						`speed${f ? `, ${x(f.nodeMs / wm.nodeMs)} the floor's` : ''}${o ? `, ${x(o.nodeMs / wm.nodeMs)} cold's` : ''}`,
				);
			}
			const c = get(`lat${lat}`, 'oursSet', n);
			if (c && h) {
				lines.push(
					`ours (Concurrency ${args['also-concurrency']}) at ${n} items, ${lat / 1000} s vendor: ` +
						`${x(h.nodeMs / c.nodeMs)} HTTP Request's speed${f ? `, ${x(f.nodeMs / c.nodeMs)} the floor's` : ''}`,
				);
			}
		}
	}
	const names = {
		ours: 'ours (cold)',
		oursWarm: 'ours (warm: 2nd run)',
		oursSet: `ours (Concurrency ${args['also-concurrency']})`,
		http: 'HTTP Request',
	};
	for (const sc of plan.filter((s) => s.capacity)) {
		for (const n of sc.sizes) {
			const limitMs = (n * sc.latencyMs) / sc.capacity;
			for (const w of sc.setups.flatMap((k) => (k === 'ours' ? ['ours', 'oursWarm'] : [k]))) {
				const r = get(sc.key, w, n);
				if (r)
					lines.push(
						`${names[w]} at ` +
							`${n} items, ${sc.label}: ${x(r.nodeMs / limitMs)} the vendor-bound limit of ${fmt(limitMs)} (goal ≤ ` +
							`1.2×), ${r.failed} failed rows${r.refused ? `, ${r.refused} refusals (429s, retries included)` : ''}`,
					);
			}
		}
	}
	const all = Object.values(results).flatMap((byRun) => Object.values(byRun).flatMap((r) => r.runs));
	const doubles = all.reduce((s, r) => s + r.doubleCharges, 0);
	const overbought = all.filter((r) => r.debitCount - r.refundKobo / (AMOUNT * 100) > r.items).length;
	lines.push(
		`ledger audit: ${all.length} runs, ${all.reduce((s, r) => s + r.debitCount, 0)} debits, ${doubles} double charges, ` +
			`${overbought} runs with more debits than rows`,
	);
	lines.push(
		`n8n process memory: peak ${peakRss(n8n.child.pid).toFixed(0)} MB (VmHWM), now ${rss(n8n.child.pid).toFixed(0)} MB`,
	);
	const r = (() => {
		const o = get('lat0', 'ours', big);
		const f = get('lat0', 'floor', big);
		return o && f ? (f.nodeMs / o.nodeMs).toFixed(2) : '?';
	})();
	const speed = (w) => {
		const o = get('lat1000', w, big);
		const hh = get('lat1000', 'http', big);
		return o && hh ? (hh.nodeMs / o.nodeMs).toFixed(2) : '?';
	};
	const h = speed('ours');
	const hw = speed('oursWarm');
	const l = (() => {
		const o = get('cap1000queue', 'ours', CAPACITY_ITEMS);
		return o ? (o.nodeMs / ((CAPACITY_ITEMS * 1000) / CAPACITY)).toFixed(2) : '?';
	})();
	if (doubles > 0 || overbought > 0) process.exitCode = 1;
	lines.push(
		`n8n: ours ${r}× the floor at ${big.toLocaleString('en')} items; at 1 s vendor ${h}× HTTP Request's speed ` +
			`(warm ${hw}×), ` +
			`${l}× the vendor-bound limit at capacity ${CAPACITY}; ${doubles} double charges`,
	);
	return lines;
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
		`bench/n8n --queue: ${workflows} workflows × ${ITEMS} airtime purchases started at once, ` +
			`n8n ${require('../test/n8n/harness').N8N_VERSION}` +
			`${LATENCY_MS ? `, the site answering each purchase after ${LATENCY_MS} ms` : ''}; ` +
			`${os.cpus().length} CPUs, load ${os
				.loadavg()
				.map((x) => x.toFixed(1))
				.join(' ')}`,
	];
	for (const r of results) {
		const perMin = (r.executions / r.wallMs) * 60000;
		const perS = (r.purchases / r.wallMs) * 1000;
		lines.push(
			`  ${r.label.padEnd(48)} ${perMin.toFixed(1)} executions/min, ${perS.toFixed(1)} purchases/s, peak memory ` +
				`${r.peakMb.join(' + ')} MB`,
		);
	}
	if (results.length === 2) {
		lines.push(
			`  ratio queue / one process: purchases/s ` +
				`${(results[1].purchases / results[1].wallMs / (results[0].purchases / results[0].wallMs)).toFixed(2)}×`,
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
