/**
 * Client overhead benchmark: `npx tsx bench/client.ts [--n 2000] [--concurrency 8] [--rounds 9] [--warmup 300] [--no-gc] [--dialect seed|family]`.
 *
 * The sandbox runs as a CHILD PROCESS (this same file with --child): a real vendor is a separate
 * machine, and sharing one event loop would bill the sandbox's CPU to whichever side is running,
 * blurring the comparison. The same N profile reads and N data purchases then go through
 *   (a) raw node:http with a keep-alive agent (+ JSON.stringify of the body, JSON.parse of the answer), the baseline, and
 *   (b) VtuClient with its default node:http transport, and with the optional axios transport,
 * in rounds in one run. Every round runs every variant once, in a rotated order (the sandbox's state grows
 * with every purchase and the machine may be shared, so no variant may always go first or last); the heap
 * is collected before every phase so no variant pays for another's garbage. Each round gives a ratio
 * (variant time / raw time of the same round); printed are the MEDIAN ratios over the rounds (profile, buy,
 * total; target ≤ 1.15×), their spread, median req/s, and the sandbox's req/s (raw phase throughput).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

const { values } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    n: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    dialect: { type: 'string', default: 'seed' },
    rounds: { type: 'string', default: '9' },
    warmup: { type: 'string', default: '300' },
    'no-gc': { type: 'boolean', default: false },
  },
});

async function child(): Promise<void> {
  const { startSandbox } = await import('../sandbox/server');
  const sb = await startSandbox({ port: 0, dialect: values.dialect as 'seed' | 'family' });
  process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, adminKey: sb.adminKey, token: sb.demo.token }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => sb.close().then(() => process.exit(0)));
}

const noop = (): void => undefined;

/** A full GC between phases (so no variant is billed for another's garbage); a no-op if unavailable. */
function gcFunction(): () => void {
  if (typeof global.gc === 'function') return global.gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    if (typeof gc === 'function') return gc as () => void;
  } catch {
    /* not available: run without */
  }
  return noop;
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
  const WARM = Number(values.warmup);

  const proc = spawn(process.execPath, ['--import', 'tsx', __filename, '--child', '--dialect', String(values.dialect)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (c) => reject(new Error(`sandbox child exited ${c}`)));
  });
  const { baseUrl, adminKey, token } = JSON.parse(line) as { baseUrl: string; adminKey: string; token: string };
  const admin = new SandboxAdmin(baseUrl, adminKey);

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

  const variants = {
    raw: {
      profile: () => raw('GET', '/api/user/'),
      // serialised per request, as any caller (and the client) must do for a purchase
      buy: () => raw('POST', '/api/data/', JSON.stringify({ network: 1, plan: 1, mobile_number: '08031234567', Ported_number: false })),
    },
    'client/axios': (() => {
      const c = new VtuClient({ baseUrl, token, transport: createAxiosTransport() });
      return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
    })(),
    'client/node': (() => {
      const c = new VtuClient({ baseUrl, token, transport: createNodeTransport() });
      return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
    })(),
    // the opt-in ownership proof: a fresh customer_ref in every purchase body (no extra request)
    'client/node+ref': (() => {
      const c = new VtuClient({ baseUrl, token, transport: createNodeTransport(), customerRef: true });
      return { profile: () => c.user.get(), buy: () => c.data.buy({ network: 'MTN', plan: 1, phone: '08031234567' }) };
    })(),
  };
  // enough money for every purchase of every round, warm-up included, and variant
  await admin.fund('demo', String((N * ROUNDS + WARM) * Object.keys(variants).length * 130 + 1000));
  type Name = keyof typeof variants;
  const names = Object.keys(variants) as Name[];
  const collect = values['no-gc'] ? noop : gcFunction();
  // warm-up (JIT, sockets, catalogue cache)
  for (const v of Object.values(variants)) {
    await pool(WARM, C, () => v.profile());
    await pool(WARM, C, () => v.buy());
  }
  const ms: Record<string, { profile: number[]; buy: number[] }> = {};
  for (const name of names) ms[name] = { profile: [], buy: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      const v = variants[name];
      collect();
      ms[name].profile.push(await pool(N, C, () => v.profile()));
      collect();
      ms[name].buy.push(await pool(N, C, () => v.buy()));
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const base = ms.raw;
  /** Per-round ratios of a variant against raw in the same round. */
  const ratios = (name: string) => ({
    profile: ms[name].profile.map((t, i) => t / base.profile[i]),
    buy: ms[name].buy.map((t, i) => t / base.buy[i]),
    total: ms[name].profile.map((t, i) => (t + ms[name].buy[i]) / (base.profile[i] + base.buy[i])),
  });
  const rate = (xs: number[]) => Math.round(N / (median(xs) / 1000));
  const x = (r: number) => `${r.toFixed(3)}×`;
  console.log(`\nbench/client: N=${N} × ${ROUNDS} rounds, concurrency ${C}, dialect ${values.dialect}, sandbox in a child process, order rotated per round${collect === noop ? '' : ', GC before each phase'}\n`);
  console.log('variant          profile req/s   buy req/s   median overhead: profile        buy      total   (total min–max over rounds)');
  const worst: number[] = [];
  for (const name of names) {
    const r = ratios(name);
    if (name !== 'raw') worst.push(median(r.total));
    console.log(
      `${name.padEnd(16)} ${String(rate(ms[name].profile)).padStart(13)} ${String(rate(ms[name].buy)).padStart(11)}` +
        `${x(median(r.profile)).padStart(26)} ${x(median(r.buy)).padStart(10)} ${x(median(r.total)).padStart(10)}   (${x(Math.min(...r.total))}–${x(Math.max(...r.total))})`,
    );
  }
  const perRound = ratios('client/node').total.map((r) => r.toFixed(3)).join(' ');
  console.log(`\nclient/node total ratio per round (run order): ${perRound}`);
  const rawTotal = median(base.profile.map((t, i) => t + base.buy[i]));
  console.log(`sandbox throughput (raw phase): ${Math.round((2 * N) / (rawTotal / 1000))} req/s overall; profile ${rate(base.profile)} req/s, purchases ${rate(base.buy)} req/s`);
  const ratio = (k: string) => median(ratios(k).total).toFixed(3);
  console.log(`client overhead ratio (median of ${ROUNDS} rounds), default transport (node:http): ${ratio('client/node')}× (target ≤ 1.15×); with the axios transport: ${ratio('client/axios')}×; worst ${Math.max(...worst).toFixed(3)}×`);
  const buyRatio = (k: string) => median(ratios(k).buy).toFixed(3);
  console.log(
    `purchase overhead (median of ${ROUNDS} rounds), default transport: ${buyRatio('client/node')}× (target ≤ 1.15×); with customerRef: ${buyRatio('client/node+ref')}×. ` +
      'Proving ownership adds no request to a purchase answered directly; reads happen only when the answer is lost.',
  );
  agent.destroy();
  proc.stdin!.end();
  await new Promise((r) => proc.once('exit', r));
}

(values.child ? child() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
