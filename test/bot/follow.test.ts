/** The follower: processing → settle, refunds, and reconciling orders a crash left in `sent`. */
import { openDatabase } from '../../bot/db';
import { Journal } from '../../bot/journal';
import { rawBuy } from '../client/helpers';
import { dataToConfirm, useBotEnv } from './harness';

const env = useBotEnv();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Button texts of the newest message the bot sent to a chat. */
const lastButtons = (chatId: number) => (env.tg.botMessages(chatId).at(-1)?.reply_markup?.inline_keyboard ?? []).flat().map((b: { text: string }) => b.text);

test('processing → successful: the user is told once when it settles', async () => {
  await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 300, finalStatus: 'successful' } });
  const app = await env.makeBot();
  const u = env.alice;
  await dataToConfirm(env, app, u);
  await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
  const first = env.tg.lastText(u.id)!;
  expect(first).toMatch(/^⏳ Pending: MTN data 1GB SME \(30 days\) to 0803 123 4567\.\nCharged: ₦250\.00\nReference: (\S+)\nThe provider is still working on it; I will tell you when it settles\. Don't pay again\.$/);
  const ident = /Reference: (\S+)/.exec(first)![1];
  await app.follower.tick(); // still processing: nothing said
  expect(env.tg.lastText(u.id)).toBe(first);
  await sleep(400);
  await app.follower.tick();
  expect(env.tg.lastText(u.id)).toMatch(new RegExp(`^Update on order ${ident}:\\n✅ Delivered: MTN data 1GB SME`));
  expect(lastButtons(u.id)).toEqual(['🔁 Buy again', '🧾 Details', '🏠 Menu']); // a notice is no dead end
  const n = env.tg.textsTo(u.id).length;
  await app.follower.tick();
  expect(env.tg.textsTo(u.id)).toHaveLength(n);
  expect(app.journal.recentForUser(u.id)[0]).toMatchObject({ state: 'successful', notifiedState: 'successful' });
  expect(await env.debits()).toBe(1);
});

test('processing → failed: told it failed; the sandbox refunded', async () => {
  await env.admin.setConfig({ settle: { mode: 'processing', delayMs: 200, finalStatus: 'failed' } });
  const app = await env.makeBot();
  await dataToConfirm(env, app, env.bob);
  await env.send(app, env.tg.buttonUpdate(env.bob, /^confirm:/));
  await sleep(300);
  await app.follower.tick();
  expect(env.tg.lastText(env.bob.id)).toMatch(/^Update on order \S+:\n↩️ Refunded ₦250\.00: MTN data .*\nThe provider could not deliver it; the money is back in the wallet\.$/s);
  expect(lastButtons(env.bob.id)).toEqual(['Try again', '🧾 Details', '🏠 Menu']);
  const kinds = (await env.demoLedger()).map((e) => e.kind);
  expect(kinds.filter((k) => k === 'debit')).toHaveLength(1);
  expect(kinds.filter((k) => k === 'refund')).toHaveLength(1);
});

test('successful → failed (refund) is reported', async () => {
  const app = await env.makeBot({ followIntervalMs: 1 });
  const u = env.alice;
  await dataToConfirm(env, app, u);
  await env.send(app, env.tg.buttonUpdate(u, /^confirm:/));
  expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered/);
  const o = app.journal.recentForUser(u.id)[0];
  await app.follower.tick();
  expect(env.tg.lastText(u.id)).toMatch(/^✅ Delivered/); // no change, no message
  await env.admin.setStatus('data', o.vendorId!, 'failed');
  await sleep(10);
  await app.follower.tick();
  expect(env.tg.lastText(u.id)).toBe(
    `↩️ Refunded ₦250.00: your MTN data 1GB SME (30 days) to 0803 123 4567 (reference ${o.ident}) was reversed by the provider. The money goes back to the wallet.`,
  );
  expect(app.journal.get(o.id)!.state).toBe('failed');
  const ledger = await env.demoLedger();
  expect(ledger.filter((e) => e.kind === 'refund').map((e) => e.amountKobo)).toEqual([25_000]);
  // A failed order no longer counts toward the daily limit.
  expect(app.journal.spentToday(u.id)).toBe(0);
});

test('orders found in `sent` at start-up (crash mid-purchase) are reconciled: adopted or not charged', async () => {
  // Simulate the crash: the journal says `sent`, the bot died before recording the answer.
  const db = openDatabase(env.dbPath);
  const journal = new Journal(db);
  const limits = { maxPurchaseKobo: 1e9, dailyLimitKobo: 1e9 };
  const reqA = { product: 'data', network: 1, plan: 2, phone: '08031234567', ported: false };
  const a = journal.create({ userId: env.alice.id, chatId: env.alice.id, product: 'data', request: reqA, description: 'MTN data 1GB SME (30 days)', recipient: '08031234567', amountKobo: 25_000 });
  expect(journal.beginSend(a.id, limits).ok).toBe(true);
  // The crashed process reached the server: charged (a raw POST: this process never saw its answer).
  const boughtId = await rawBuy(env.client, env.sb.demo.token, reqA as any);
  const bought = await env.client.transactions.get('data', boughtId);
  const reqB = { product: 'data', network: 1, plan: 2, phone: '08069999999', ported: false };
  const b = journal.create({ userId: env.bob.id, chatId: env.bob.id, product: 'data', request: reqB, description: 'MTN data 1GB SME (30 days)', recipient: '08069999999', amountKobo: 25_000 });
  expect(journal.beginSend(b.id, limits).ok).toBe(true); // never reached the server
  db.close();

  const app = await env.makeBot(); // init() reconciles before taking updates
  expect(app.journal.get(a.id)).toMatchObject({ state: 'successful', ident: bought.ident, notifiedState: 'successful' });
  expect(app.journal.get(b.id)).toMatchObject({ state: 'not_charged' });
  expect(env.tg.lastText(env.alice.id)).toMatch(/^Update on an order interrupted by a restart:\n✅ Delivered: MTN data 1GB SME \(30 days\) to 0803 123 4567\./);
  expect(env.tg.lastText(env.bob.id)).toMatch(/^Update on an order interrupted by a restart:\n❌ Failed \(not charged\): .*You were not charged\.$/s);
  expect(await env.debits()).toBe(1);
  // Nothing left to reconcile on the next start.
  expect(await app.follower.recoverSent()).toBe(0);
});
