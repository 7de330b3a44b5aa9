/**
 * Bot benchmark: `npx tsx bench/bot.ts [--users 500] [--mode polling|sequential|webhook] [--vendor-ms 0]`.
 *
 * N simulated Telegram users buy data AT ONCE through the whole bot. Three processes, so the
 * figures describe the bot alone:
 *   - this process: the fake Bot API on loopback (what grammY's `client.apiRoot` points at) and
 *     the N users who read the bot's messages and tap its buttons (Telegram's side);
 *   - a bot child: createBot on a temp SQLite file (journal + conversation storage), the real
 *     client, exactly as bot/main.ts runs it; it reports when each update is handled (IPC) and its
 *     own CPU time;
 *   - a sandbox child (a real vendor is another machine).
 * Each user: /data → MTN → 1GB SME → phone → Confirm, one step after the other (a user answers
 * what the bot showed); the users run concurrently.
 *
 * Modes (how updates reach the bot):
 *   polling (default): the production path, bot/polling.ts (@grammyjs/runner + sequentialize).
 *     Each update is queued on the fake Bot API and fetched by the runner's getUpdates long poll.
 *   sequential: grammY's bot.start() (one update at a time), for comparison.
 *   webhook: bot.handleUpdate per update, as webhookCallback does (the update is handed to the bot
 *     child over IPC instead of an HTTP POST).
 * Latency of an update = from the moment it is queued (polling) or handed over (webhook) until the
 * bot child reports it handled (includes the getUpdates round trip and any queueing in the bot).
 * `--vendor-ms` adds that delay to every purchase (client.buy), like a vendor that takes seconds;
 * the baseline gets the same delay.
 *
 * Checks: every user got a "Delivered" message, the journal holds N successful orders, and the
 * sandbox ledger shows exactly N new debits. Prints updates/s, p50/p99 latency per update and for
 * the confirm step (which contains the purchase), the bot's CPU time per update (robust to a
 * loaded machine) and a baseline of N direct client.buy() calls at the same concurrency in the
 * same run, with the ratio.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { sqlReport, traceSql, type SqlCounts } from './sql-trace';

const { values } = parseArgs({
  options: {
    child: { type: 'string' },
    users: { type: 'string', default: '500' },
    mode: { type: 'string', default: 'polling' },
    'vendor-ms': { type: 'string', default: '0' },
  },
});

type Mode = 'polling' | 'sequential' | 'webhook';
type SandboxInfo = { baseUrl: string; adminKey: string; token: string; username: string };
/** What the bench tells the bot child. */
type BotSetup = { sb: SandboxInfo; apiRoot: string; dbPath: string; token: string; allowedIds: number[]; mode: Mode; vendorMs: number };
type ToBot = { setup: BotSetup } | { update: unknown } | { cpu: true } | { stop: true };
type FromBot = { ready: true } | { done: number; sql?: SqlCounts } | { cpu: NodeJS.CpuUsage } | { stopped: { errors: string[] } };

async function sandboxChild(): Promise<void> {
  const { startSandbox } = await import('../sandbox/server');
  const sb = await startSandbox({ port: 0 });
  process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, adminKey: sb.adminKey, token: sb.demo.token, username: sb.demo.username }) + '\n');
  process.stdin.resume();
  process.stdin.on('end', () => sb.close().then(() => process.exit(0)));
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p99: pct(s, 99), max: s[s.length - 1] };
}

const f = (ms: number) => `${ms.toFixed(1)} ms`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The client, purchases delayed by --vendor-ms (a slow vendor); everything else untouched. */
async function benchClient(sb: SandboxInfo, vendorMs: number) {
  const { VtuClient } = await import('../client');
  const realClient = new VtuClient({ baseUrl: sb.baseUrl, token: sb.token });
  return Object.assign(Object.create(realClient) as typeof realClient, {
    buy: async (...a: Parameters<typeof realClient.buy>) => {
      if (vendorMs > 0) await sleep(vendorMs);
      return realClient.buy(...a);
    },
  });
}

/** The bot child: the bot as bot/main.ts runs it, reporting each handled update to the bench. */
async function botChild(): Promise<void> {
  const send = (m: FromBot) => process.send!(m);
  const setup = await new Promise<BotSetup>((resolve) => process.once('message', (m: ToBot) => 'setup' in m && resolve(m.setup)));
  const { createBot } = await import('../bot/bot');
  const { openDatabase } = await import('../bot/db');
  const { createLogger } = await import('../bot/logger');
  const { startPolling } = await import('../bot/polling');
  const errors: string[] = [];
  const logger = createLogger({ level: 'warn', secrets: [setup.token, setup.sb.token], write: (l) => errors.push(l) });
  const client = await benchClient(setup.sb, setup.vendorMs);
  const db = openDatabase(setup.dbPath);
  const sql = process.env.BENCH_SQL ? traceSql(db) : undefined;
  const app = createBot(
    { telegramToken: setup.token, adminIds: [], allowedIds: setup.allowedIds, maxPurchaseKobo: 10_000_00, dailyLimitKobo: 100_000_00, rateLimit: 1000 },
    { client, db, logger, botConfig: { client: { apiRoot: setup.apiRoot } } },
  );
  await app.init();
  await client.catalog.networks(); // warm the catalogue cache (not measured)

  const handleUpdate = app.bot.handleUpdate.bind(app.bot);
  app.bot.handleUpdate = async (update, webhookReplyEnvelope) => {
    const traced = sql?.run(() => handleUpdate(update, webhookReplyEnvelope));
    try {
      return await (traced?.done ?? handleUpdate(update, webhookReplyEnvelope));
    } finally {
      send({ done: update.update_id, sql: traced?.counts });
    }
  };
  let stopPolling: () => Promise<void> = async () => undefined;
  if (setup.mode === 'polling') {
    const poller = await startPolling(app.bot, { timeoutSeconds: 30 });
    stopPolling = () => poller.stop();
  } else if (setup.mode === 'sequential') {
    await new Promise<void>((resolve) => void app.bot.start({ timeout: 30, onStart: () => resolve() }));
    stopPolling = () => app.bot.stop();
  }
  process.on('message', (m: ToBot) => {
    if ('update' in m) void app.bot.handleUpdate(m.update as never).catch((e) => errors.push(String(e)));
    else if ('cpu' in m) send({ cpu: process.cpuUsage() });
    else if ('stop' in m) {
      void (async () => {
        await stopPolling();
        await app.close();
        app.db.close();
        send({ stopped: { errors } });
        process.disconnect();
      })();
    }
  });
  send({ ready: true });
}

type User = { id: number; first_name: string };
type Bench = Awaited<ReturnType<typeof setup>>;

async function startSandboxChild() {
  const proc = spawn(process.execPath, [...process.execArgv, __filename, '--child', 'sandbox'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve);
    proc.once('exit', (c) => reject(new Error(`sandbox child exited ${c}`)));
  });
  return { proc, info: JSON.parse(first) as SandboxInfo };
}

/** The bot child over IPC: hand it updates, hear when each is handled, read its CPU time. */
async function startBotChild(setup: BotSetup) {
  const proc: ChildProcess = fork(__filename, ['--child', 'bot'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const finished = new Map<number, (sql?: SqlCounts) => void>();
  let reply: ((m: FromBot) => void) | undefined;
  proc.on('message', (m: FromBot) => {
    if ('done' in m) {
      finished.get(m.done)?.(m.sql);
      finished.delete(m.done);
    } else reply?.(m);
  });
  const ask = (m: ToBot) =>
    new Promise<FromBot>((resolve, reject) => {
      reply = resolve;
      proc.once('exit', (c) => reject(new Error(`bot child exited ${c}`)));
      proc.send(m);
    });
  const ready = await ask({ setup });
  if (!('ready' in ready)) throw new Error('bot child did not start');
  return {
    finished,
    handOver: (update: unknown) => proc.send({ update } satisfies ToBot),
    cpu: async () => ((await ask({ cpu: true })) as { cpu: NodeJS.CpuUsage }).cpu,
    stop: async () => ((await ask({ stop: true })) as { stopped: { errors: string[] } }).stopped,
  };
}

/** Sandbox child, fake Bot API here, the bot child on a temp SQLite file. */
async function setup(N: number, mode: Mode, vendorMs: number) {
  const { proc, info: sbInfo } = await startSandboxChild();
  const { SandboxAdmin } = await import('../sandbox/admin-client');
  const { FakeTelegram } = await import('../test/bot/fake-telegram');
  const admin = new SandboxAdmin(sbInfo.baseUrl, sbInfo.adminKey);
  await admin.fund(sbInfo.username, 1_000_000);
  const tg = await new FakeTelegram().start();
  const dir = mkdtempSync(join(tmpdir(), 'vtu-bot-bench-'));
  const dbPath = join(dir, 'bench.sqlite');
  const token = '7000001:AAH-bench_token_value_0123456789abcdef';
  const users: User[] = Array.from({ length: N }, (_, i) => ({ id: 900_001 + i, first_name: `U${i}` }));
  const bot = await startBotChild({ sb: sbInfo, apiRoot: tg.apiRoot, dbPath, token, allowedIds: [900_000, ...users.map((u) => u.id)], mode, vendorMs });
  const client = await benchClient(sbInfo, vendorMs);
  let stopped: { errors: string[] } | undefined;
  const stopBot = async () => (stopped ??= await bot.stop());
  const close = async () => {
    await stopBot();
    await tg.close();
    proc.stdin!.end();
    rmSync(dir, { recursive: true, force: true });
  };
  return { admin, sbInfo, tg, bot, dbPath, client, users, mode, stopBot, close };
}

/** One user's purchase, update by update (a user answers what the bot showed); latencies into `all` / `confirm`. */
function flows(b: Bench) {
  const lat = { all: [] as number[], confirm: [] as number[] };
  /** BENCH_SQL=1: SQLite statements of each update, per step of the flow. */
  const sql = new Map<string, SqlCounts[]>();
  const handle = async (step: string, make: () => unknown, isConfirm = false) => {
    const upd = make() as { update_id: number };
    const done = new Promise<SqlCounts | undefined>((r) => b.bot.finished.set(upd.update_id, r));
    const t0 = performance.now();
    if (b.mode === 'webhook') b.bot.handOver(upd);
    else b.tg.enqueue(upd);
    const counts = await done;
    if (counts) sql.set(step, [...(sql.get(step) ?? []), counts]);
    const ms = performance.now() - t0;
    lat.all.push(ms);
    if (isConfirm) lat.confirm.push(ms);
  };
  const flow = async (u: User, phone: string) => {
    await handle('/data', () => b.tg.textUpdate(u, '/data'));
    await handle('MTN', () => b.tg.buttonUpdate(u, 'MTN'));
    await handle('plan', () => b.tg.buttonUpdate(u, /^1GB SME /));
    await handle('phone', () => b.tg.textUpdate(u, phone));
    await handle('Confirm', () => b.tg.buttonUpdate(u, /^confirm:/), true);
  };
  return { lat, sql, flow };
}

/**
 * Sandbox debits so far. A GET, so it is asked again once when the pooled socket was closed under
 * it: after a minute of load the admin's idle keep-alive socket can be closed by the sandbox just
 * as it is reused ("other side closed", seen on a loaded machine).
 */
async function debits(b: Bench): Promise<number> {
  const read = async () => (await b.admin.ledger(b.sbInfo.username)).filter((e) => e.kind === 'debit').length;
  try {
    return await read();
  } catch {
    return read();
  }
}

const phoneOf = (prefix: string, n: number) => `${prefix}${String(1_000_000 + (n % 1_000_000)).slice(-7)}`;

/** The same N purchases straight through the client, same concurrency, same run. */
async function baseline(b: Bench) {
  const base: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    b.users.map(async (u) => {
      const t = performance.now();
      await b.client.buy({ product: 'data', network: 1, plan: 2, phone: phoneOf('0806', u.id) });
      base.push(performance.now() - t);
    }),
  );
  return { stats: stats(base), wall: performance.now() - t0 };
}

/** Bot API calls per method, most first: "sendMessage 3000, …". */
function callMix(calls: { method: string }[]): string {
  const n = new Map<string, number>();
  for (const c of calls) n.set(c.method, (n.get(c.method) ?? 0) + 1);
  return [...n].sort((a, b) => b[1] - a[1]).map(([m, k]) => `${m} ${k}`).join(', ');
}

async function main(): Promise<void> {
  const N = Number(values.users);
  const mode = values.mode as Mode;
  if (!['polling', 'sequential', 'webhook'].includes(mode)) throw new Error('--mode must be polling, sequential or webhook');
  const vendorMs = Number(values['vendor-ms']);
  const b = await setup(N, mode, vendorMs);

  // Unloaded reference: 20 purchases by one user after another (also warms everything up).
  const solo = { id: 900_000, first_name: 'Solo' };
  const warm = flows(b);
  for (let i = 0; i < 20; i++) await warm.flow(solo, phoneOf('0703', i)); // a new number each time (no repeat prompt)

  const debitsBefore = await debits(b);
  const callsBefore = b.tg.calls.length;
  const run = flows(b);
  const botCpu0 = await b.bot.cpu();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(b.users.map((u) => run.flow(u, phoneOf('0803', u.id))));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const botCpu1 = await b.bot.cpu();
  const botCpuMs = (botCpu1.user - botCpu0.user + botCpu1.system - botCpu0.system) / 1000;
  const driverCpuMs = (cpu.user + cpu.system) / 1000;
  const calls = b.tg.calls.slice(callsBefore);

  const ok = b.users.filter((u) => (b.tg.lastText(u.id) ?? '').startsWith('✅ Delivered')).length;
  const debitsBot = (await debits(b)) - debitsBefore;
  const { errors } = await b.stopBot();
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(b.dbPath, { readonly: true });
  const successful = (db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE state = 'successful' AND user_id <> ?`).get(solo.id) as { n: number }).n;
  db.close();
  const base = await baseline(b);

  const updates = N * 5;
  const a = stats(run.lat.all);
  const c = stats(run.lat.confirm);
  const idle = { all: stats(warm.lat.all), confirm: stats(warm.lat.confirm) };
  const how = { polling: 'long polling via @grammyjs/runner (bot/polling.ts)', sequential: "long polling via grammY's sequential bot.start()", webhook: 'webhook-style bot.handleUpdate' }[mode];
  console.log(`bot bench: ${N} users buying data at once (5 updates each, ${how}; vendor delay ${vendorMs} ms per purchase)`);
  console.log(`  completed:        ${ok}/${N} users told "Delivered"; journal successful=${successful}; sandbox debits=${debitsBot} (expected ${N})`);
  console.log(`  wall time:        ${f(wall)}  (${(updates / (wall / 1000)).toFixed(0)} updates/s, ${(N / (wall / 1000)).toFixed(0)} purchases/s)`);
  console.log(`  per update:       p50 ${f(a.p50)}  p99 ${f(a.p99)}  max ${f(a.max)}  (n=${a.n})`);
  console.log(`  confirm (buy):    p50 ${f(c.p50)}  p99 ${f(c.p99)}  max ${f(c.max)}`);
  console.log(`  CPU, bot process: ${f(botCpuMs)} = ${(botCpuMs / updates).toFixed(2)} ms per update (the bot alone: fake Bot API, users and sandbox are other processes)`);
  console.log(`  CPU, fake Bot API + users (this process): ${(driverCpuMs / updates).toFixed(2)} ms per update`);
  console.log(`  Bot API calls:    ${(calls.length / updates).toFixed(2)} per update (${callMix(calls)})`);
  console.log(`  unloaded reference (1 user, 20 purchases in a row): per update p50 ${f(idle.all.p50)} p99 ${f(idle.all.p99)}; confirm p50 ${f(idle.confirm.p50)}`);
  console.log(`  baseline client.buy x${N} concurrent: wall ${f(base.wall)}  p50 ${f(base.stats.p50)}  p99 ${f(base.stats.p99)}`);
  console.log(`  ratio bot confirm / direct buy:      p50 ${(c.p50 / base.stats.p50).toFixed(2)}x  p99 ${(c.p99 / base.stats.p99).toFixed(2)}x; wall ${(wall / base.wall).toFixed(2)}x for 5x the updates`);
  if (run.sql.size) console.log(`  SQLite per update, by step (BENCH_SQL):\n${sqlReport(run.sql)}`);
  console.log(`  warnings/errors logged by the bot: ${errors.length}`);
  if (errors.length) console.log(errors.slice(0, 5).join('\n'));

  await b.close();
  const pass = ok === N && successful === N && debitsBot === N;
  console.log(pass ? 'PASS' : 'FAIL');
  process.exit(pass ? 0 : 1);
}

if (values.child === 'sandbox') void sandboxChild();
else if (values.child === 'bot') void botChild();
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
