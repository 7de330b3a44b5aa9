/** `npm run bot` as a real process: config errors, long polling against the fake Bot API, SIGTERM shutdown. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxAdmin } from '../../sandbox/admin-client';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { FakeTelegram, makeUser } from './fake-telegram';
import { BOT_TOKEN } from './harness';

const ROOT = join(__dirname, '..', '..');

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bot/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exited, output: () => out };
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sb.close();
});

test('invalid configuration: clear message naming the variables, exit code 2, no secret echoed', async () => {
  const p = run({ TELEGRAM_BOT_TOKEN: 'garbage-secret-value', VTU_API_TOKEN: sb.demo.token, BOT_MODE: 'webhook' });
  expect(await p.exited).toBe(2);
  const out = p.output();
  expect(out).toMatch(/Invalid bot configuration/);
  for (const v of ['TELEGRAM_BOT_TOKEN', 'VTU_BASE_URL', 'WEBHOOK_URL', 'WEBHOOK_SECRET', 'BOT_ADMIN_IDS']) expect(out).toContain(v);
  expect(out).not.toContain('garbage-secret-value');
  expect(out).not.toContain(sb.demo.token);
}, 30_000);

test('long polling process: registers commands, answers, shuts down cleanly on SIGTERM; tokens never printed', async () => {
  await new SandboxAdmin(sb.baseUrl, sb.adminKey).reset();
  const tg = await new FakeTelegram().start();
  const dir = mkdtempSync(join(tmpdir(), 'vtu-main-'));
  const u = makeUser(undefined, 'Main');
  const p = run({
    TELEGRAM_BOT_TOKEN: BOT_TOKEN,
    VTU_BASE_URL: sb.baseUrl,
    VTU_API_TOKEN: sb.demo.token,
    BOT_ALLOWED_IDS: String(u.id),
    BOT_DB_PATH: join(dir, 'bot.sqlite'),
    TELEGRAM_API_ROOT: tg.apiRoot,
    BOT_LOG_LEVEL: 'debug',
  });
  try {
    await tg.waitFor(() => tg.callsOf('setMyCommands').length > 0, 20_000, 'setMyCommands');
    tg.sendText(u, '/balance');
    await tg.waitForText(u.id, /Wallet balance: ₦1,000,000\.00/, 20_000);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(tg.pendingUpdates).toBe(0);
    const out = p.output();
    expect(out).toMatch(/long polling started/);
    expect(out).toMatch(/shutting down/);
    expect(out).not.toContain(BOT_TOKEN.split(':')[1]);
    expect(out).not.toContain(sb.demo.token);
  } finally {
    if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await tg.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
