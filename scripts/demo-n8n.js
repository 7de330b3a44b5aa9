'use strict';
/**
 * n8n half of `npm run demo` (called by scripts/demo.sh, which starts the sandbox first).
 * Starts real n8n with this repo loaded as the community package n8n-nodes-vtu, creates
 * the owner account, a "VTU Sandbox" credential pointing at the sandbox, imports every
 * examples/*.json workflow, prints how to log in, then runs until SIGINT/SIGTERM.
 *
 * Env: VTU_BASE_URL, VTU_API_TOKEN (required; from the sandbox), VTU_ADMIN_KEY (printed),
 *      DEMO_N8N_PORT (5678), DEMO_N8N_LISTEN (127.0.0.1), DEMO_EMAIL, DEMO_PASSWORD,
 *      DEMO_N8N_USER_FOLDER (keep n8n's state there; default: a temp dir removed on exit),
 *      DEMO_N8N_LOG (file for n8n's console output).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startN8n, DEFAULT_OWNER, REPO_ROOT } = require('../test/n8n/harness');

const CREDENTIAL_NAME = 'VTU Sandbox';

/**
 * n8n 2.x's Read/Write Files node reads only under ~/.n8n-files of the user running n8n (its default file
 * rule), so the CSV example finds its sample file there. Never overwrites a file the user already has.
 */
function placeSampleFiles() {
	const dir = path.join(os.homedir(), '.n8n-files');
	const target = path.join(dir, 'customers.csv');
	if (fs.existsSync(target)) return `${target} (yours, kept)`;
	try {
		fs.mkdirSync(dir, { recursive: true });
		fs.copyFileSync(path.join(REPO_ROOT, 'examples', 'customers.csv'), target);
	} catch (e) {
		return `(could not place ${target}: ${e.message})`;
	}
	return `${target} (sample for the CSV SMS example)`;
}

async function main() {
	const baseUrl = process.env.VTU_BASE_URL;
	const apiToken = process.env.VTU_API_TOKEN;
	if (!baseUrl || !apiToken) throw new Error('VTU_BASE_URL and VTU_API_TOKEN must be set (start the sandbox first)');
	const port = Number(process.env.DEMO_N8N_PORT || 5678);
	const listen = process.env.DEMO_N8N_LISTEN || '127.0.0.1';
	const owner = {
		...DEFAULT_OWNER,
		email: process.env.DEMO_EMAIL || 'demo@example.com',
		password: process.env.DEMO_PASSWORD || DEFAULT_OWNER.password,
	};
	const userFolder = process.env.DEMO_N8N_USER_FOLDER;
	if (userFolder) fs.mkdirSync(userFolder, { recursive: true });

	process.stderr.write(`[demo] starting n8n on http://${listen}:${port} ...\n`);
	const n8n = await startN8n({
		packageDir: REPO_ROOT,
		port,
		owner,
		userFolder: userFolder ? path.resolve(userFolder) : undefined,
		keepUserFolder: !!userFolder,
		requireNodes: false,
		logFile: process.env.DEMO_N8N_LOG,
		env: { N8N_LISTEN_ADDRESS: listen },
	});

	let stopping = false;
	const stop = async (code = 0) => {
		if (stopping) return;
		stopping = true;
		process.stderr.write('\n[demo] stopping n8n ...\n');
		await n8n.stop().catch(() => {});
		process.exit(code);
	};
	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(0));
	n8n.child.once('exit', (code) => {
		if (!stopping) {
			process.stderr.write(`[demo] n8n exited unexpectedly (${code})\n${n8n.tail(30)}\n`);
			process.exit(1);
		}
	});

	if (n8n.loadedNodes.length === 0) {
		process.stderr.write(
			'[demo] WARNING: n8n loaded no n8n-nodes-vtu node (is package.json "n8n.nodes" filled and dist/ built?)\n',
		);
	}

	// credential: create, or update the one kept from an earlier run (DEMO_N8N_USER_FOLDER)
	const data = { baseUrl, apiToken };
	const existing = (await n8n.listCredentials({ name: CREDENTIAL_NAME })).find((c) => c.type === 'vtuApi');
	let cred;
	if (existing) {
		await n8n.updateCredential(existing.id, { name: CREDENTIAL_NAME, type: 'vtuApi', data });
		cred = { id: existing.id, name: CREDENTIAL_NAME, type: 'vtuApi' };
		n8n.defaultCredentials.vtuApi = cred;
	} else {
		try {
			cred = await n8n.createCredential({ name: CREDENTIAL_NAME, type: 'vtuApi', data });
		} catch (e) {
			process.stderr.write(`[demo] WARNING: could not create the vtuApi credential: ${e.message}\n`);
		}
	}
	let credTest;
	if (cred)
		credTest = await n8n.testCredential({ id: cred.id }).catch((e) => ({ status: 'Error', message: e.message }));

	// workflows
	const exDir = path.join(REPO_ROOT, 'examples');
	const files = fs.existsSync(exDir)
		? fs
				.readdirSync(exDir)
				.filter((f) => f.endsWith('.json'))
				.sort()
		: [];
	const imported = [];
	for (const f of files) {
		try {
			const wf = JSON.parse(fs.readFileSync(path.join(exDir, f), 'utf8'));
			wf.name = wf.name || path.basename(f, '.json');
			const same = await n8n.listWorkflows({ name: wf.name });
			if (same.length > 0) {
				imported.push(`${wf.name} (kept, id ${same[0].id})`);
				continue;
			}
			const stored = await n8n.importWorkflow(wf);
			imported.push(`${stored.name} (id ${stored.id})`);
		} catch (e) {
			process.stderr.write(`[demo] WARNING: could not import examples/${f}: ${e.message}\n`);
		}
	}

	const sampleFiles = placeSampleFiles();
	const url = `http://${listen === '0.0.0.0' ? '127.0.0.1' : listen}:${port}`;
	const lines = [
		'',
		'================ n8n-nodes-vtu demo ================',
		`n8n:        ${url}`,
		`  email:    ${owner.email}`,
		`  password: ${owner.password}`,
		`sandbox:    ${baseUrl}`,
		`  token:    ${apiToken}`,
		process.env.VTU_ADMIN_KEY ? `  admin key: ${process.env.VTU_ADMIN_KEY}` : undefined,
		`nodes:      ${n8n.loadedNodes.join(', ') || '(none loaded)'}`,
		cred
			? `credential: "${cred.name}" (id ${cred.id}) → test: ${credTest.status} ${credTest.message || ''}`
			: 'credential: (not created)',
		`workflows:  ${imported.length ? imported.join('\n            ') : '(no examples/*.json)'}`,
		`files:      ${sampleFiles}`,
		`n8n state:  ${n8n.userFolder}${userFolder ? '' : ' (temporary; set DEMO_N8N_USER_FOLDER to keep it)'}`,
		'',
		'Press Ctrl-C to stop.',
		'====================================================',
		'',
	].filter((l) => l !== undefined);
	process.stdout.write(lines.join('\n'));
}

main().catch((e) => {
	process.stderr.write(`[demo] ${e.stack || e.message}\n`);
	process.exit(1);
});
