/**
 * Client overhead benchmark: `npx tsx bench/client.ts [--n 2000] [--concurrency 8] [--dialect seed|family]`.
 *
 * The sandbox runs as a CHILD PROCESS (this same file with --child): a real vendor is a separate
 * machine, and sharing one event loop would bill the sandbox's CPU to whichever side is running,
 * blurring the comparison. The same N profile reads and N data purchases then go through
 *   (a) raw node:http with a keep-alive agent (+ JSON.parse), the baseline, and
 *   (b) VtuClient with its default node:http transport, and with the optional axios transport,
 * in alternating rounds in one run. Printed: per-phase req/s, overhead ratios (target ≤ 1.15×), and the
 * sandbox's req/s (raw phase throughput).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    n: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    dialect: { type: 'string', default: 'seed' },
    rounds: { type: 'string', default: '6' },
  },
});

async function child(): Promise<void> {
  const { startSandbox } = await import('../sandbox/server');
  const sb = await startSandbox({ port: 0, dialect: values.dialect as 'seed' | 'family' });
  process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, adminKey: sb.adminKey, token: sb.demo.token }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => sb.close().then(() => process.exit(0)));
}

async function pool(n: number, conc: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: conc }, async () => {
    while (next < n) await fn(next++);
  }));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function main(): Promise<void> {
  const { VtuClient, createAxiosTransport, createNodeTransport } = await import('../client');
  const { SandboxAdmin } = await import('../sandbox/admin-client');
  const N = Number(values.n);
  const C = Number(values.concurrency);
  const ROUNDS = Number(values.rounds);

  const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', '--dialect', String(values.dialect)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (c) => reject(new Error(`sandbox child exited ${c}`)));
  });
  const { baseUrl, adminKey, token } = JSON.parse(line) as { baseUrl: string; adminKey: string; token: string };
  const admin = new SandboxAdmin(baseUrl, adminKey);
  // enough money for every purchase of every round and variant
  await admin.fund('demo', String(N * ROUNDS * 3 * 130 + 1000));

  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const u = new URL(baseUrl);
  const raw = (method: 'GET' | 'POST', path: string, body?: string) =>
    new Promise<unknown>((resolve, reject) => {
      const headers: Record<string, string> = { Authorization: `Token ${token}`, Accept: 'application/json' };
      if (body) {
        headers['Content-Type'] = 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(body));
      }
      const r = http.request({ hostname: u.hostname, port: u.port, path, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const j = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`HTTP ${res.statusCode}`));
          else resolve(j);
        });
      });
      r.on('error', reject);
      r.end(body);
    });
  const dataBody = JSON.stringify({ network: 1, plan: 1, mobile_number: '08031234567', Ported_number: false });

  const variants = {
    raw: {
      profile: () => raw('GET', '/api/user/'),
      buy: () => raw('POST', '/api/data/', dataBody),
    },
    'client/axios': (() => {
      const c = new VtuClient({ baseUrl, token, transport: createAxiosTransport() });
      return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
    })(),
    'client/node': (() => {
      const c = new VtuClient({ baseUrl, token, transport: createNodeTransport() });
      return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
    })(),
  };
  type Name = keyof typeof variants;
  const totals: Record<string, { profile: number; buy: number }> = {};
  // warm-up (JIT, sockets, catalogue cache)
  for (const v of Object.values(variants)) {
    await pool(200, C, () => v.profile());
    await pool(20, C, () => v.buy());
  }
  const names = Object.keys(variants) as Name[];
  for (let round = 0; round < ROUNDS; round++) {
    // rotate the order each round: the sandbox's state grows with every purchase, so no variant may
    // always run against the smallest (or largest) state
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      const v = variants[name];
      const t = (totals[name] ??= { profile: 0, buy: 0 });
      t.profile += await pool(N, C, () => v.profile());
      t.buy += await pool(N, C, () => v.buy());
    }
  }
  const reqs = N * ROUNDS;
  const rate = (ms: number) => Math.round(reqs / (ms / 1000));
  console.log(`\nbench/client: N=${N} × ${ROUNDS} rounds, concurrency ${C}, dialect ${values.dialect}, sandbox in a child process\n`);
  console.log('variant          profile req/s   buy req/s   overhead profile   overhead buy   overhead total');
  const base = totals.raw;
  for (const [name, t] of Object.entries(totals)) {
    const op = t.profile / base.profile;
    const ob = t.buy / base.buy;
    const ot = (t.profile + t.buy) / (base.profile + base.buy);
    console.log(`${name.padEnd(16)} ${String(rate(t.profile)).padStart(13)} ${String(rate(t.buy)).padStart(11)} ${op.toFixed(3).padStart(17)}× ${ob.toFixed(3).padStart(13)}× ${ot.toFixed(3).padStart(15)}×`);
  }
  const worst = Math.max(...Object.entries(totals).filter(([k]) => k !== 'raw').map(([, t]) => (t.profile + t.buy) / (base.profile + base.buy)));
  console.log(`\nsandbox throughput (raw phase): ${rate(base.profile + base.buy) * 2} req/s overall; profile ${rate(base.profile)} req/s, purchases ${rate(base.buy)} req/s`);
  const ratio = (k: string) => ((totals[k].profile + totals[k].buy) / (base.profile + base.buy)).toFixed(3);
  console.log(`client overhead ratio, default transport (node:http): ${ratio('client/node')}× (target ≤ 1.15×); with the axios transport: ${ratio('client/axios')}×; worst ${worst.toFixed(3)}×`);
  agent.destroy();
  proc.stdin!.end();
  await new Promise((r) => proc.once('exit', r));
}

(values.child ? child() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
