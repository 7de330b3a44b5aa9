/**
 * MEASURING BASELINE for bench/bot.ts, not a product path: the barest grammY bot that can serve
 * the bench's buyers. It answers the five updates of a data purchase (/data → MTN → plan → phone →
 * Confirm) with exactly the Bot API calls the real bot makes for them (same methods, same count,
 * texts and keyboards of the same shape and size, copied from what the real bot sends) and does
 * the one real `client.buy` at Confirm. Nothing else: no storage, no journal, no conversations,
 * no gates, no checks, no retries. What the real bot costs above this is what its layers cost.
 *
 * Kept equal to the real bot: grammY itself, `sequentialize(sequentialKey)` first, the Bot API
 * client of bot/bot.ts `botApiClient` (keep-alive pool and fetch), and (in the bench) bot/polling.ts's
 * runner setup.
 */
import { Bot, InlineKeyboard } from 'grammy';
import { sequentialize } from '@grammyjs/runner';
import { botApiClient, sequentialKey } from '../bot/bot';
import { TYPING_AFTER_MS } from '../bot/flow/confirm';
import { grid } from '../bot/flow/ui';
import type { VtuClientLike } from '../bot/vtu';
import { nairaText } from '../client/money';
import { formatPhone } from '../client/phone';

/** "typing…" every 4 s, the bot's default `typingEveryMs`. */
const TYPING_EVERY_MS = 4_000;

export async function createFloorBot(token: string, apiRoot: string, client: VtuClientLike): Promise<Bot> {
  // The price list once, up front: the real bot reads the client's cached catalogue per update.
  const nets = (await client.catalog.networks()).filter((n) => n.plans.some((p) => p.available));
  const netKb = grid(new InlineKeyboard(), nets.map((n) => ({ text: String(n.name), data: `net:${n.id}` })), 2).text('Cancel', 'x');
  const plans = new Map(
    nets.map((n) => {
      const kb = grid(new InlineKeyboard(), n.plans.filter((p) => p.available).map((p) => ({ text: p.label, data: `plan:${n.id}.${p.id}` })), 1);
      return [n.id, { name: String(n.name), kb: kb.text('Cancel', 'x'), plans: n.plans }];
    }),
  );
  /** "MTN data 1GB SME (30 days)", as the real bot names a plan. */
  const planName = (net: number, plan: number) => {
    const n = plans.get(net)!;
    const p = n.plans.find((x) => x.id === plan)!;
    return { n, p, name: `${n.name} data ${p.size} ${p.kind}${p.validity ? ` (${p.validity})` : ''}` };
  };

  const bot = new Bot(token, { client: { ...botApiClient(apiRoot), apiRoot } });
  bot.use(sequentialize(sequentialKey));
  /** The one thing a bot must remember between updates: the plan a chat chose, until its phone number comes. */
  const chosen = new Map<number, { net: number; plan: number }>();
  const noKeyboard = { inline_keyboard: [] };

  bot.command('data', (ctx) => ctx.reply('Buy data: choose the network.', { reply_markup: netKb }));
  bot.callbackQuery(/^net:(\d+)$/, async (ctx) => {
    const n = plans.get(Number(ctx.match[1]))!;
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(`${n.name} data: choose a plan.`, { reply_markup: n.kb });
  });
  bot.callbackQuery(/^plan:(\d+)\.(\d+)$/, async (ctx) => {
    const [net, plan] = [Number(ctx.match[1]), Number(ctx.match[2])];
    const n = plans.get(net)!;
    chosen.set(ctx.chat!.id, { net, plan });
    await ctx.answerCallbackQuery();
    await ctx.editMessageText(`${n.name} data: ${n.plans.find((p) => p.id === plan)!.label}\nSend the ${n.name} phone number (e.g. 0803 123 4567).`, { reply_markup: noKeyboard });
  });
  bot.on('message:text', async (ctx) => {
    const c = chosen.get(ctx.chat.id);
    if (!c) return;
    chosen.delete(ctx.chat.id);
    const { n, p, name } = planName(c.net, c.plan);
    const to = `${formatPhone(ctx.message.text)} (${n.name})`;
    const price = nairaText(p.price.kobo);
    const kb = new InlineKeyboard().text(`✅ Confirm: pay ${price}`, `confirm:${c.net}.${c.plan}.${ctx.message.text}`).text('✖️ Cancel', 'cancel:x');
    const text = `Confirm ${price} for ${to}?\nCustomer gets: ${name} to ${to}\nYou pay: ${price} from the wallet\nWallet after: (not checked)`;
    await ctx.reply(text, { reply_markup: kb });
  });
  bot.callbackQuery(/^confirm:(\d+)\.(\d+)\.(\d+)$/, async (ctx) => {
    const [network, plan, phone] = [Number(ctx.match[1]), Number(ctx.match[2]), ctx.match[3]];
    const what = `${planName(network, plan).name} to ${formatPhone(phone)}`;
    await ctx.answerCallbackQuery({ text: 'Confirmed' });
    await ctx.editMessageText(`⏳ Sending… don't pay again.\n${what}`, { reply_markup: noKeyboard });
    const typing = () => void ctx.api.sendChatAction(ctx.chat!.id, 'typing').catch(() => undefined);
    let every: NodeJS.Timeout | undefined;
    const start = setTimeout(() => {
      typing();
      every = setInterval(typing, TYPING_EVERY_MS);
    }, TYPING_AFTER_MS);
    try {
      const r = await client.buy({ product: 'data', network, plan, phone });
      const bal = r.balanceAfter ? `\nWallet balance: ${nairaText(r.balanceAfter.kobo)}` : '';
      const kb = new InlineKeyboard().text('🔁 Buy again', `again:${network}.${plan}`).text('🏠 Menu', 'go:menu');
      await ctx.editMessageText(`✅ Delivered: ${what}.\nCharged: ${nairaText(r.amount.kobo)}\nReference: ${r.ident}${bal}`, { reply_markup: kb });
    } finally {
      clearTimeout(start);
      clearInterval(every);
    }
  });
  return bot;
}
