'use strict';
// The published package in a real n8n, installed the way n8n's community-package installer does it
// (n8n 2.41 CommunityPackagesService.downloadPackage): `npm pack` → unpack into the nodes folder →
// drop devDependencies/peerDependencies/optionalDependencies from its package.json → `npm install
// --ignore-scripts --install-strategy=shallow --package-lock=false` there. Only the tarball's files
// and its own dependencies are present: no repo, no dev packages. Run: npm run test:n8n
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startN8n, REPO_ROOT } = require('./harness');
const { startSandboxProcess, oneNode } = require('./sandbox');

let n8n;
let sb;
let work;
let installed;

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'vtu-pack-'));
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], { cwd: REPO_ROOT, encoding: 'utf8' }).trim().split('\n').pop();
  installed = path.join(work, 'n8n-nodes-vtu');
  fs.mkdirSync(installed);
  execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', installed, '--strip-components=1']);
  const pj = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  delete pj.devDependencies;
  delete pj.peerDependencies;
  delete pj.optionalDependencies;
  fs.writeFileSync(path.join(installed, 'package.json'), JSON.stringify(pj, null, 2));
  execFileSync('npm', ['install', '--audit=false', '--fund=false', '--bin-links=false', '--install-strategy=shallow', '--ignore-scripts=true', '--package-lock=false'], {
    cwd: installed,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  sb = await startSandboxProcess();
  n8n = await startN8n({ packageDir: installed });
});

after(async () => {
  if (n8n) await n8n.stop();
  if (sb) await sb.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the tarball holds only the nodes, credential, client and icons; installs only axios, zod and p-limit', () => {
  const top = fs.readdirSync(path.join(installed, 'dist')).sort();
  assert.deepEqual(top, ['client', 'credentials', 'icons', 'nodes']);
  const deps = fs.readdirSync(path.join(installed, 'node_modules')).filter((d) => !d.startsWith('.'));
  for (const d of ['axios', 'zod', 'p-limit']) assert.ok(deps.includes(d), `${d} installed`);
  for (const d of ['grammy', 'fastify', 'better-sqlite3', 'ioredis', 'n8n-workflow']) assert.ok(!deps.includes(d), `${d} not installed`);
});

test('n8n loads every node from it; the credential test passes and a purchase runs', async () => {
  const types = await n8n.loadedNodeTypes();
  for (const t of ['vtuWallet', 'vtuData', 'vtuAirtime', 'vtuCableTv', 'vtuElectricity', 'vtuExamPin', 'vtuRechargeCard', 'vtuBulkSms', 'vtuIdentity', 'vtuTransaction', 'vtuTransactionTrigger']) {
    assert.ok(types.includes(n8n.nodeType(t)), `${t} loaded`);
  }
  const cred = await n8n.createCredential({ name: 'VTU sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
  const tested = await n8n.testCredential({ id: cred.id });
  assert.equal(tested.status, 'OK', tested.message);

  const seq = await sb.lastSeq();
  const run = await n8n.runWorkflow(
    oneNode(n8n, 'vtuData', { operation: 'buy', network: '1', plan: '2', phone: '={{ $json.phone }}' }, { items: [{ phone: '08031234567' }] }),
  );
  assert.equal(run.status, 'success', JSON.stringify(run.nodeError('Node')));
  assert.equal(run.nodeOutput('Node')[0].status, 'successful');
  const debits = (await sb.since('demo', seq)).filter((l) => l.kind === 'debit');
  assert.deepEqual(debits.map((l) => [l.product, l.amountKobo]), [['data', 25000]]);
});
