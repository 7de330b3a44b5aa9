'use strict';
/**
 * The VTU sandbox (sandbox/cli.ts) in a child process, for the real-n8n tests and bench/n8n.js
 * (plain CommonJS: the sandbox is TypeScript, so it runs under the repo's tsx).
 *
 *   const sb = await startSandboxProcess();       // free port
 *   sb.baseUrl, sb.token, sb.adminKey
 *   await sb.admin('GET', '/admin/ledger?username=demo');
 *   await sb.ledger('demo'); await sb.debits('demo', { after: seq }); await sb.balanceKobo('demo');
 *   await sb.stop();
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const fs = require('node:fs');
const { jsonOr } = require('./harness');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function tsxBin() {
	const local = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
	return fs.existsSync(local) ? local : 'tsx';
}

async function startSandboxProcess({ port = 0, dialect = 'seed', seed = 1, timeoutMs = 60000 } = {}) {
	const child = spawn(
		tsxBin(),
		[path.join(REPO_ROOT, 'sandbox', 'cli.ts'), '--port', String(port), '--dialect', dialect, '--seed', String(seed)],
		{
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
			env: { ...process.env, VTU_SANDBOX_TOKEN: '', VTU_ADMIN_KEY: '' },
		},
	);
	const killer = () => {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {}
	};
	process.once('exit', killer);
	let out = '';
	let err = '';
	child.stderr.on('data', (b) => (err += b));
	const vars = await new Promise((resolve, reject) => {
		const t = setTimeout(() => reject(new Error(`sandbox did not start in ${timeoutMs} ms: ${err}`)), timeoutMs);
		child.once('exit', (code) => {
			clearTimeout(t);
			reject(new Error(`sandbox exited (${code}): ${err}`));
		});
		child.stdout.on('data', (b) => {
			out += b;
			const m = Object.fromEntries(
				out
					.split('\n')
					.filter((l) => /^VTU_[A-Z_]+=/.test(l))
					.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
			);
			if (m.VTU_BASE_URL && m.VTU_API_TOKEN && m.VTU_ADMIN_KEY) {
				clearTimeout(t);
				child.removeAllListeners('exit');
				resolve(m);
			}
		});
	});
	const baseUrl = vars.VTU_BASE_URL;
	const adminKey = vars.VTU_ADMIN_KEY;

	async function admin(method, p, body) {
		const res = await fetch(baseUrl + p, {
			method,
			headers: { 'x-admin-key': adminKey, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		const json = text ? jsonOr(text, text) : undefined;
		if (!res.ok) {
			const e = new Error(`sandbox admin ${method} ${p} → ${res.status}: ${text.slice(0, 300)}`);
			e.status = res.status;
			throw e;
		}
		return json;
	}

	return {
		baseUrl,
		token: vars.VTU_API_TOKEN,
		adminKey,
		child,
		admin,
		ledger: (username = 'demo') => admin('GET', `/admin/ledger?username=${encodeURIComponent(username)}`),
		/** Ledger rows of a user with seq > after (default all). */
		async since(username = 'demo', after = 0) {
			return (await admin('GET', `/admin/ledger?username=${encodeURIComponent(username)}`)).filter(
				(r) => r.seq > after,
			);
		},
		/** Highest ledger seq so far (over all users). */
		async lastSeq() {
			const all = await admin('GET', '/admin/ledger');
			return all.length ? all[all.length - 1].seq : 0;
		},
		async balanceKobo(username = 'demo') {
			return (await admin('GET', `/admin/users/${encodeURIComponent(username)}`)).balanceKobo;
		},
		transactions: (q = {}) => admin('GET', `/admin/transactions?${new URLSearchParams(q)}`),
		setConfig: (patch) => admin('PATCH', '/admin/config', patch),
		createUser: (u) => admin('POST', '/admin/users', u),
		setStatus: (product, id, Status) => admin('PATCH', `/admin/transactions/${product}/${id}`, { Status }),
		async stop() {
			process.removeListener('exit', killer);
			if (child.exitCode !== null || child.signalCode !== null) return;
			const exited = new Promise((r) => child.once('exit', r));
			try {
				process.kill(-child.pid, 'SIGTERM');
			} catch {}
			const t = setTimeout(killer, 5000);
			await exited;
			clearTimeout(t);
		},
	};
}

const MANUAL = Object.freeze({
	id: 'start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

/**
 * Manual Trigger → one node. `items` (array of json) are pinned on the trigger as the node's input.
 * `extra` goes onto the node (e.g. { onError: 'continueRegularOutput' }).
 */
function oneNode(n8n, type, parameters, { items, extra = {}, name = 'Node', wfName } = {}) {
	return {
		name: wfName || `${type} ${parameters.operation || ''}`.trim(),
		nodes: [
			{ ...MANUAL },
			{ id: 'node', name, type: n8n.nodeType(type), typeVersion: 1, position: [220, 0], parameters, ...extra },
		],
		connections: { Start: { main: [[{ node: name, type: 'main', index: 0 }]] } },
		...(items ? { pinData: { Start: items.map((json) => ({ json })) } } : {}),
	};
}

/** Everything n8n stored about an execution, as text (for "the token never appears" checks). */
function executionText(run) {
	return JSON.stringify(run.execution || run);
}

module.exports = { startSandboxProcess, oneNode, executionText, MANUAL, REPO_ROOT };
