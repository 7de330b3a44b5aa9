'use strict';
// The published package in a real n8n, installed the way n8n's community-package installer does it
// (n8n 2.41 CommunityPackagesService.downloadPackage): `npm pack` → unpack into the nodes folder →
// drop devDependencies/peerDependencies/optionalDependencies from its package.json → `npm install
// --ignore-scripts --install-strategy=shallow --package-lock=false` there. Only the tarball's files
// are present (the package has no dependencies; zod comes from n8n itself): no repo, no
// dev packages. The same tarball first passes n8n's community-package scanner
// (test/nodes/scan-package.mjs). Run: npm run test:n8n
const { test, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { useVtuN8n, REPO_ROOT } = require('./harness');
const { oneNode } = require('./sandbox');

let work;
let installed;
let scan;

/** Packs the package, scans the tarball and installs it as n8n's installer does; returns its folder. */
function packAndInstall() {
	work = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-pack-'));
	const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	})
		.trim()
		.split('\n')
		.pop();
	// exits 1 when a leg fails; the test below shows the findings
	const scanned = spawnSync(
		process.execPath,
		[path.join(__dirname, '..', 'nodes', 'scan-package.mjs'), path.join(work, tarball)],
		{
			cwd: REPO_ROOT,
			encoding: 'utf8',
		},
	);
	scan = JSON.parse(scanned.stdout.trim().split('\n').pop() || '{"dist":{},"source":{}}');
	installed = path.join(work, 'n8n-nodes-vtu');
	fs.mkdirSync(installed);
	execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', installed, '--strip-components=1']);
	const pj = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
	delete pj.devDependencies;
	delete pj.peerDependencies;
	delete pj.optionalDependencies;
	fs.writeFileSync(path.join(installed, 'package.json'), JSON.stringify(pj, null, 2));
	execFileSync(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
		],
		{
			cwd: installed,
			stdio: ['ignore', 'ignore', 'inherit'],
		},
	);
	return installed;
}

// start-up is slow on a saturated machine
const vtu = useVtuN8n({ packageDir: packAndInstall, n8n: { timeoutMs: 10 * 60 * 1000 } });

after(() => {
	if (work) fs.rmSync(work, { recursive: true, force: true });
});

test(
	'the tarball passes the scanner, holds only the nodes, credential, client core and icons, and ' + 'installs nothing',
	() => {
		assert.deepEqual({ dist: scan.dist.details, source: scan.source.details }, { dist: null, source: null });
		assert.ok(scan.dist.passed && scan.source.passed);
		const top = fs.readdirSync(path.join(installed, 'dist')).sort();
		assert.deepEqual(top, ['client', 'credentials', 'icons', 'nodes']);
		// the client's standalone entry (node:http transport, timers) is not shipped
		for (const f of ['index.js', 'standalone.js', 'transport-node.js', 'transport-axios.js']) {
			assert.ok(!fs.existsSync(path.join(installed, 'dist', 'client', f)), `${f} not shipped`);
		}
		const deps = fs.existsSync(path.join(installed, 'node_modules'))
			? fs.readdirSync(path.join(installed, 'node_modules')).filter((d) => !d.startsWith('.'))
			: [];
		assert.deepEqual(deps, []);
	},
);

test('n8n loads every node from it; the credential test passes and a purchase runs', async () => {
	const types = await vtu.n8n.loadedNodeTypes();
	for (const t of [
		'vtuWallet',
		'vtuData',
		'vtuAirtime',
		'vtuCableTv',
		'vtuElectricity',
		'vtuExamPin',
		'vtuRechargeCard',
		'vtuBulkSms',
		'vtuIdentity',
		'vtuTransaction',
		'vtuTransactionTrigger',
	]) {
		assert.ok(types.includes(vtu.n8n.nodeType(t)), `${t} loaded`);
	}
	const tested = await vtu.n8n.testCredential({ id: vtu.cred.id });
	assert.equal(tested.status, 'OK', tested.message);

	const seq = await vtu.sb.lastSeq();
	const run = await vtu.n8n.runWorkflow(
		oneNode(
			vtu.n8n,
			'vtuData',
			{ operation: 'buy', network: '1', plan: '2', phone: '={{ $json.phone }}' },
			{ items: [{ phone: '08031234567' }] },
		),
	);
	assert.equal(run.status, 'success', JSON.stringify(run.nodeError('Node')));
	assert.equal(run.nodeOutput('Node')[0].status, 'successful');
	const debits = (await vtu.sb.since('demo', seq)).filter((l) => l.kind === 'debit');
	assert.deepEqual(
		debits.map((l) => [l.product, l.amountKobo]),
		[['data', 25000]],
	);
});
