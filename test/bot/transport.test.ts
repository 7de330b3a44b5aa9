/** Long polling through the fake Bot API's getUpdates, and webhook mode over HTTP with a secret token. */
import { startWebhookServer } from '../../bot/server';
import { useBotEnv } from './harness';

const env = useBotEnv();

test('long polling: getUpdates with offset drives a whole data purchase; stop() confirms the offset', async () => {
  const app = await env.makeBot();
  const u = env.alice;
  let started!: () => void;
  const ready = new Promise<void>((r) => (started = r));
  const done = app.bot.start({ onStart: () => started(), timeout: 5 });
  await ready;
  env.tg.sendText(u, '/balance');
  await env.tg.waitForText(u.id, /Wallet balance: ₦1,000,000\.00/);
  env.tg.sendText(u, '/data');
  await env.tg.waitForText(u.id, /choose the network/);
  env.tg.press(u, 'MTN');
  await env.tg.waitForText(u.id, /choose a plan/);
  env.tg.press(u, /^1GB SME /);
  await env.tg.waitForText(u.id, /Send the MTN phone number/);
  env.tg.sendText(u, '08031234567');
  await env.tg.waitForText(u.id, /^Confirm ₦250\.00 for 0803 123 4567 \(MTN\)\?/);
  const confirm = env.tg.buttonUpdate(u, /^confirm:/);
  env.tg.enqueue(confirm);
  env.tg.enqueue(confirm); // Telegram re-sends an update (same update_id)
  await env.tg.waitForText(u.id, /^✅ Successful/);
  await app.bot.stop();
  await done;
  expect(env.tg.pendingUpdates).toBe(0);
  expect(await env.debits()).toBe(1);
  const offsets = env.tg.callsOf('getUpdates').map((c) => Number(c.payload.offset ?? 0));
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
});

test('webhook mode: webhookCallback(bot, "http", { secretToken }) refuses a wrong secret and handles the right one', async () => {
  const app = await env.makeBot();
  const secret = 'webhook_secret_0123456789';
  const srv = await startWebhookServer(app.bot, { path: '/tg/hook', secretToken: secret, port: 0, host: '127.0.0.1' });
  try {
    const url = `http://127.0.0.1:${srv.port}/tg/hook`;
    const post = (update: unknown, token?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { 'x-telegram-bot-api-secret-token': token } : {}) },
        body: JSON.stringify(update),
      });
    expect((await post(env.tg.textUpdate(env.alice, '/balance'))).status).toBe(401);
    expect((await post(env.tg.textUpdate(env.alice, '/balance'), 'wrong_secret_000000000')).status).toBe(401);
    expect(env.tg.textsTo(env.alice.id)).toHaveLength(0);
    expect((await post(env.tg.textUpdate(env.alice, '/balance'), secret)).status).toBe(200);
    expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
    expect((await fetch(`http://127.0.0.1:${srv.port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${srv.port}/other`, { method: 'POST' })).status).toBe(404);
  } finally {
    await srv.close();
  }
});

test('auto-retry on bot.api and inside conversations: a 429 from the Bot API is retried', async () => {
  const app = await env.makeBot();
  env.tg.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
  await env.send(app, env.tg.textUpdate(env.alice, '/balance'));
  expect(env.tg.lastText(env.alice.id)).toBe('💰 Wallet balance: ₦1,000,000.00');
  env.tg.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } });
  await env.send(app, env.tg.textUpdate(env.alice, '/data')); // sent from inside the conversation
  expect(env.tg.lastText(env.alice.id)).toBe('Buy data: choose the network.');
  expect(env.tg.callsOf('sendMessage').filter((c) => c.payload.text === 'Buy data: choose the network.')).toHaveLength(2);
});

/** Just enough of ioredis for @grammyjs/storage-redis and @grammyjs/ratelimiter (no Redis server here). */
class RedisStub {
  private m = new Map<string, string>();
  calls: string[] = [];
  async get(k: string) {
    this.calls.push('get');
    return this.m.get(k) ?? null;
  }
  async set(k: string, v: string) {
    this.calls.push('set');
    this.m.set(k, v);
    return 'OK';
  }
  async del(k: string) {
    this.calls.push('del');
    return this.m.delete(k) ? 1 : 0;
  }
  async incr(k: string) {
    this.calls.push('incr');
    const n = Number(this.m.get(k) ?? 0) + 1;
    this.m.set(k, String(n));
    return n;
  }
  async pexpire() {
    return 1;
  }
}

test('two webhook instances sharing Redis (conversations via @grammyjs/storage-redis) continue each other\'s flow', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RedisAdapter } = require('@grammyjs/storage-redis');
  const redis = new RedisStub();
  const shared = () => ({ conversationStorage: new RedisAdapter({ instance: redis, ttl: 3600 }), rateLimitRedis: redis });
  const a = await env.makeBot({}, env.dbPath, env.client, shared());
  const b = await env.makeBot({}, env.dbPath, env.client, shared());
  const u = env.alice;
  await env.send(a, env.tg.textUpdate(u, '/data'));
  await env.send(b, env.tg.buttonUpdate(u, 'MTN'));
  await env.send(a, env.tg.buttonUpdate(u, /^1GB SME /));
  await env.send(b, env.tg.textUpdate(u, '08031234567'));
  expect(env.tg.lastText(u.id)).toBe('Confirm ₦250.00 for 0803 123 4567 (MTN)?\nMTN data 1GB SME (30 days)');
  await env.send(a, env.tg.buttonUpdate(u, /^confirm:/));
  expect(env.tg.lastText(u.id)).toMatch(/^✅ Successful/);
  expect(await env.debits()).toBe(1);
  expect(redis.calls).toEqual(expect.arrayContaining(['get', 'set', 'incr']));
  expect(a.db.prepare(`SELECT COUNT(*) AS n FROM kv WHERE key LIKE 'conv:%'`).get()).toEqual({ n: 0 });
});
