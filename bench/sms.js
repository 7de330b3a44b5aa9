'use strict';
/**
 * bench/sms: a business's bulk SMS campaigns in ONE real n8n (test/n8n harness) against ONE sandbox:
 *   A. personalised: Code (20,000 messy rows) → VTU Bulk SMS, Message "Hi {{ $json.name }} …" per row
 *   B. fixed:        the same rows → VTU Bulk SMS, one message to every number
 * Each runs twice: Dry Run (the quote), then the send. Rows are seeded: ~3% invalid (blank,
 * letters, short, toll-free 0800, 0700, fixed-line 0711), ~5% duplicates (an earlier row's number
 * in another format, same name), ~1% on the opt-out list.
 * Prints per campaign: wall time, node time, n8n CPU, peak RSS of the n8n process during the send
 * (Linux /proc: VmHWM after resetting it), sendsms requests (ledger debits), and the accounting;
 * fails unless the ledger equals the quote and every row is accounted for.
 *
 *   node bench/sms.js [--rows 20000] [--only personalised|fixed]
 *   npm run bench:sms
 *
 * Needs the cached n8n (bash test/n8n/install.sh) and a built package (npm run build).
 */
const fs = require('node:fs');
const os = require('node:os');
const { parseArgs } = require('node:util');
const { startN8n, REPO_ROOT, N8N_VERSION } = require('../test/n8n/harness');
const { startSandboxProcess } = require('../test/n8n/sandbox');

const { values: args } = parseArgs({
	options: {
		rows: { type: 'string', default: '20000' },
		only: { type: 'string' },
	},
});
const ROWS = Number(args.rows);

/** The campaign's rows as a Code node builds them (deterministic: a seeded LCG). */
const genCode = `let seed = 42;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const prefixes = ['0803', '0806', '0703', '0813', '0810', '0903', '0805', '0807', '0815', '0905', '0802', '0808',
  '0812', '0902', '0809', '0818', '0909'];
const names = ['Ada', 'Bayo', 'Chidinma', 'Dayo', 'Efe', 'Funmi', 'Gbenga', 'Hauwa', 'Ifeanyi', 'Jumoke', 'Kemi',
  'Lanre', 'Musa', 'Ngozi', 'Obinna', 'Segun', 'Tunde', 'Uche', 'Yemi', 'Zainab'];
const bad = ['', '0803ABC4567', '080312345', '08001234567', '07001234567', '07111234567'];
const out = [];
for (let i = 0; i < ${ROWS}; i++) {
  const r = rnd();
  const name = names[i % names.length] + ' ' + String.fromCharCode(65 + (i * 7) % 26) + '.' + (i % 97);
  if (r < 0.03) out.push({ json: { name, phone: bad[i % bad.length] } });
  else if (r < 0.08 && out.length > 10) {
    const prev = out[Math.floor(rnd() * out.length)].json;
    const phone = /^0\\d{10}$/.test(prev.phone) ? '+234 ' + prev.phone.slice(1) : prev.phone;
    out.push({ json: { name: prev.name, phone } });
  } else {
    const phone = prefixes[i % prefixes.length] + String(1000000 + ((i * 7919) % 9000000)).slice(-7);
    out.push({ json: { name, phone } });
  }
}
return out;`;

/** Opt-out list: every 97th generated valid number (as the Code node makes them). */
function optOutList() {
	const prefixes = [
		'0803',
		'0806',
		'0703',
		'0813',
		'0810',
		'0903',
		'0805',
		'0807',
		'0815',
		'0905',
		'0802',
		'0808',
		'0812',
		'0902',
		'0809',
		'0818',
		'0909',
	];
	const list = [];
	for (let i = 0; i < ROWS; i += 97)
		list.push(prefixes[i % prefixes.length] + String(1000000 + ((i * 7919) % 9000000)).slice(-7));
	return list.join(',');
}

const CAMPAIGNS = {
	personalised: {
		message: '={{ "Hi " + $json.name + ", your order is ready at Ade Stores. Reply STOP to opt out." }}',
	},
	fixed: { message: 'Ade Stores: 1GB MTN data for N280 all week. Reply STOP to opt out.' },
};

function workflow(kind, dryRun) {
	return {
		name: `bench: SMS ${kind} × ${ROWS}${dryRun ? ' (dry run)' : ''}`,
		nodes: [
			{
				id: 's',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'g',
				name: 'Customers',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: genCode },
			},
			{
				id: 'v',
				name: 'VTU Bulk SMS',
				type: 'n8n-nodes-vtu.vtuBulkSms',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					operation: 'send',
					sender: 'AdeStores',
					message: CAMPAIGNS[kind].message,
					recipientsFrom: 'allItems',
					phoneField: 'phone',
					options: { dryRun, nameField: 'name', optOut: optOutList() },
				},
			},
		],
		connections: {
			Start: { main: [[{ node: 'Customers', type: 'main', index: 0 }]] },
			Customers: { main: [[{ node: 'VTU Bulk SMS', type: 'main', index: 0 }]] },
		},
	};
}

function cpuMs(pid) {
	const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // USER_HZ = 100
}

/** Peak resident memory (MB) since the last reset; "5" to clear_refs resets it (Linux ≥ 4.0). */
const resetPeak = (pid) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
const peakMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function run(n8n, sb, kind, dryRun) {
	const seq = await sb.lastSeq();
	const pid = n8n.child.pid;
	resetPeak(pid);
	const c0 = cpuMs(pid);
	const t0 = process.hrtime.bigint();
	const r = await n8n.runWorkflow(workflow(kind, dryRun), { timeoutMs: 60 * 60 * 1000 });
	const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
	if (r.status !== 'success')
		throw new Error(`${kind}: ${r.status} ${JSON.stringify(r.nodeError('VTU Bulk SMS') || r.error).slice(0, 600)}`);
	const [out] = r.nodeOutput('VTU Bulk SMS');
	const debits = (await sb.since('demo', seq)).filter((l) => l.product === 'sms' && l.kind === 'debit');
	return {
		out,
		wallMs,
		nodeMs: r.nodeRun('VTU Bulk SMS').executionTime,
		cpuMs: cpuMs(pid) - c0,
		peakMb: peakMb(pid),
		requests: debits.length,
		debitKobo: debits.reduce((s, l) => s + l.amountKobo, 0),
	};
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const naira = (kobo) => `${Math.floor(kobo / 100).toLocaleString('en-US')}.${String(kobo % 100).padStart(2, '0')}`;

async function main() {
	const sb = await startSandboxProcess();
	let n8n;
	try {
		n8n = await startN8n({ packageDir: REPO_ROOT });
		await n8n.createCredential({ name: 'VTU sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
		await sb.admin('POST', '/admin/users/demo/fund', { amount: '10000000.00' });
		const kinds = Object.keys(CAMPAIGNS).filter((k) => !args.only || k === args.only);
		const lines = [
			'',
			`bench/sms: ${ROWS} rows per campaign in n8n ${N8N_VERSION}, one sandbox; ${os.cpus().length} CPUs, load ${os
				.loadavg()
				.map((x) => x.toFixed(1))
				.join(' ')}`,
		];
		const total = { rows: 0, sent: 0, dup: 0, invalid: 0, opted: 0, charged: 0, quoted: 0 };
		let ok = true;
		for (const kind of kinds) {
			const q = await run(n8n, sb, kind, true);
			process.stderr.write(
				`# ${kind} dry run: ${s(q.wallMs)}, peak ${q.peakMb.toFixed(0)} MB, quote ₦${naira(q.out.costKobo)}\n`,
			);
			const x = await run(n8n, sb, kind, false);
			const o = x.out;
			const accounted =
				o.sent + o.duplicates + o.invalid + o.optedOut + o.failed + o.unknownOutcome + o.notSent === o.rows &&
				o.rows === ROWS;
			const equal = x.debitKobo === q.out.costKobo && o.chargedKobo === x.debitKobo;
			ok = ok && accounted && equal && o.failed + o.unknownOutcome + o.notSent === 0;
			lines.push(
				`  ${kind.padEnd(12)} send: workflow ${s(x.wallMs)}, node ${s(x.nodeMs)}, n8n CPU ${s(x.cpuMs)}, peak n8n RSS ` +
					`${x.peakMb.toFixed(0)} MB, ` +
					`${x.requests} sendsms requests; dry run ${s(q.wallMs)} (peak ${q.peakMb.toFixed(0)} MB)`,
				`  ${kind.padEnd(12)} ${o.summary}; ledger ₦${naira(x.debitKobo)}, quote ` +
					`₦${naira(q.out.costKobo)}${equal ? '' : '  ← DIFFER'}${accounted ? '' : '  ← ROWS NOT ACCOUNTED FOR'}`,
			);
			total.rows += o.rows;
			total.sent += o.sent;
			total.dup += o.duplicates;
			total.invalid += o.invalid;
			total.opted += o.optedOut;
			total.charged += x.debitKobo;
			total.quoted += q.out.costKobo;
		}
		lines.push(
			`sms: ${total.rows} rows, ${total.sent} sent, ${total.dup} duplicates, ${total.invalid} invalid, ${total.opted} ` +
				`opted out, charged ₦${naira(total.charged)} = quoted ` +
				`₦${naira(total.quoted)}${ok ? '' : ' (FAILED: see above)'}`,
		);
		process.stdout.write(lines.join('\n') + '\n');
		if (!ok || total.charged !== total.quoted) process.exitCode = 1;
	} finally {
		if (n8n) await n8n.stop();
		await sb.stop();
	}
}

main().catch((e) => {
	process.stderr.write(`bench/sms: ${e.stack || e.message}\n`);
	process.exit(1);
});
