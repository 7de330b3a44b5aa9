/**
 * Confirm, then buy: shared by data, airtime, bulk SMS and "Buy again".
 *
 * 1. Every check that can refuse the purchase runs BEFORE the Confirm button is shown: the
 *    price (client.quote), the per-purchase and daily limits, the PIN (set, not locked) and the
 *    wallet balance (with the shortfall). A repeat of the same purchase within minutes asks first.
 * 2. The order is journalled (`created`) and the Confirm button carries its id (`confirm:<id>`),
 *    so a stale button never confirms another order.
 * 3. On Confirm the message becomes "⏳ Sending… don't pay again", typing is re-sent while the
 *    vendor works, and the same message is edited to the outcome with the next step's buttons.
 * The money moves only in `orders.execute`, behind the journal's atomic created→sent (limits are
 * checked again there, inside the transaction).
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { naira, outcomeText } from '../orders';
import { PIN_PLACEHOLDER } from '../pin-gate';
import type { BotPurchaseRequest } from '../vtu';
import { menuButton, nextStepKeyboard, tryAgainKeyboard, type Place } from './keyboards';
import { failText, pickers } from './pickers';
import { choose, clockText, nudge, safeEdit } from './ui';

export interface ConfirmMeta {
  /** What the customer gets, e.g. "MTN data 1GB SME (30 days) to 0803 123 4567 (MTN)". */
  gets: string;
  /** Journal description ("MTN data 1GB SME (30 days)") and recipient (phone, or "3 numbers"). */
  description: string;
  recipient: string | null;
  /** Where "Try again" leads when the purchase is refused before anything was bought. */
  place: Place;
  /** Why the price differs from what the customer gets (airtime discount). */
  payNote?: string;
}

type Checked =
  | { ok: true; kobo: number; balanceKobo: number | null; repeat: { ago: string; ref: string } | null }
  | { ok: false; text: string; retry?: { place: Place; label: string } };

/** States of an order that was (or may have been) bought: a new identical one is a repeat. */
const BOUGHT = new Set(['sent', 'successful', 'processing', 'unknown']);

export function agoText(ms: number): string {
  const sec = Math.max(1, Math.round(ms / 1000));
  return sec < 90 ? `${sec} s` : `${Math.round(sec / 60)} min`;
}

export function confirmSteps(s: Services) {
  const { withButtons } = pickers(s);

  function limitRefusal(userId: number, kobo: number): string | null {
    if (kobo > s.cfg.maxPurchaseKobo) return `${naira(kobo)} is above your per-purchase limit of ${naira(s.cfg.maxPurchaseKobo)}. Nothing was bought.`;
    const spent = s.journal.spentToday(userId);
    if (spent + kobo <= s.cfg.dailyLimitKobo) return null;
    const left = Math.max(0, s.cfg.dailyLimitKobo - spent);
    return `${naira(kobo)} would exceed your daily limit of ${naira(s.cfg.dailyLimitKobo)} (${naira(left)} left today). Nothing was bought.`;
  }

  function pinRefusal(userId: number): Checked | null {
    if (!s.cfg.pinRequired) return null;
    if (!s.pins.has(userId)) {
      return { ok: false, text: 'A PIN is required for purchases. Set one first, then try again. Nothing was bought.', retry: { place: 'setpin', label: '🔒 Set PIN' } };
    }
    const locked = s.pins.lockedUntil(userId);
    if (locked) return { ok: false, text: `Purchases are locked after too many wrong PINs until ${clockText(locked)} (an admin can unlock you sooner). Nothing was bought.` };
    return null;
  }

  function recentSame(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): { ago: string; ref: string } | null {
    const now = s.clock.now();
    const same = s.journal
      .recentForUser(userId, 20)
      .find((o) => o.createdAt >= now - s.cfg.repeatWindowMs && BOUGHT.has(o.state) && o.product === req.product && o.recipient === meta.recipient && o.description === meta.description);
    return same ? { ago: agoText(now - same.createdAt), ref: same.ident ?? same.id } : null;
  }

  /** Runs inside conversation.external: price, limits, PIN, balance, repeat. */
  async function check(userId: number, req: BotPurchaseRequest, meta: ConfirmMeta): Promise<Checked> {
    let kobo: number;
    try {
      kobo = (await s.client.quote(req)).amount.kobo;
    } catch (e) {
      return { ok: false, text: `${failText(s, 'Cannot buy this', e)} Nothing was bought.` };
    }
    const limit = limitRefusal(userId, kobo);
    if (limit) return { ok: false, text: limit };
    const pin = pinRefusal(userId);
    if (pin) return pin;
    let balanceKobo: number | null = null;
    try {
      balanceKobo = (await s.client.user.balance()).kobo;
    } catch (e) {
      // Not a refusal: the vendor refuses a purchase the wallet cannot pay, and says so.
      s.logger.warn('balance check before confirm failed', { err: e instanceof Error ? e.message : String(e) });
    }
    if (balanceKobo !== null && balanceKobo < kobo) {
      const short = naira(kobo - balanceKobo);
      return { ok: false, text: `Not enough in the wallet: it has ${naira(balanceKobo)}, this costs ${naira(kobo)} (${short} short). Fund the wallet, then tap Try again. Nothing was bought.` };
    }
    return { ok: true, kobo, balanceKobo, repeat: recentSame(userId, req, meta) };
  }

  async function repeatGuard(conversation: MyConversation, ctx: ConvContext, r: { ago: string; ref: string }, meta: ConfirmMeta): Promise<boolean> {
    const kb = new InlineKeyboard().text('🔁 Yes, buy again', 'repeat:y').text('No', 'repeat:n');
    const q = await withButtons(conversation, ctx, `You bought this ${r.ago} ago (ref ${r.ref}): ${meta.gets}. Buy it again?`, kb);
    const { c, data } = await choose(conversation, q.message_id, /^repeat:[yn]$/, 'Please use the buttons above, or /cancel.');
    if (data === 'repeat:y') {
      await safeEdit(c, `Buying again: ${meta.gets}.`);
      return true;
    }
    await safeEdit(c, 'OK, not bought again. Nothing was bought.', menuButton());
    return false;
  }

  /** PIN step after Confirm. Returns true when the PIN was right. The PIN itself never reaches this function. */
  async function pinCheck(conversation: MyConversation, ctx: ConvContext, orderId: string): Promise<boolean> {
    const userId = ctx.from!.id;
    const cancel = async (text: string) => {
      await conversation.external(() => {
        s.journal.cancel(orderId);
        s.pinGate.disarm(userId);
      });
      await ctx.reply(text, { reply_markup: menuButton() });
      return false;
    };
    for (;;) {
      await conversation.external(() => s.pinGate.expect(userId, 'verify'));
      await ctx.reply('🔒 Send your PIN to authorise this purchase. (I delete the message right away.)');
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send your PIN as a text message, or /cancel.') });
      const v = await conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
      if (v.kind === 'ok') return true;
      if (v.kind === 'wrong') await ctx.reply(`Wrong PIN. ${v.attemptsLeft} attempt${v.attemptsLeft === 1 ? '' : 's'} left.`);
      else if (v.kind === 'locked') return cancel(`Too many wrong PINs: purchases are locked until ${clockText(v.until)}. Nothing was bought.`);
      else if (v.kind === 'no_pin') return cancel('You have no PIN. Set one with /setpin. Nothing was bought.');
      else if (m.message.text !== PIN_PLACEHOLDER) continue;
    }
  }

  /** Runs inside conversation.external: the purchase, with "typing…" re-sent until it is done. */
  async function executeWithTyping(chatId: number, orderId: string) {
    const typing = () => void s.api.sendChatAction(chatId, 'typing').catch(() => undefined);
    typing();
    const timer = setInterval(typing, s.cfg.typingEveryMs);
    try {
      return await s.orders.execute(orderId);
    } finally {
      clearInterval(timer);
    }
  }

  /** The confirm message becomes "Sending…", then the outcome with the next step's buttons. */
  async function send(conversation: MyConversation, ctx: ConvContext, messageId: number, orderId: string, meta: ConfirmMeta): Promise<void> {
    const chatId = ctx.chat!.id;
    const edit = (text: string, kb?: InlineKeyboard) =>
      ctx.api.editMessageText(chatId, messageId, text, { reply_markup: kb ?? { inline_keyboard: [] } }).catch(() => undefined);
    await edit(`⏳ Sending… don't pay again.\n${meta.gets}`);
    const out = await conversation.external(() => executeWithTyping(chatId, orderId));
    // 'already': another tap / instance won the created→sent race and reports the result.
    if (out.kind === 'already') return;
    if (out.kind === 'refused') return void (await edit(out.text, tryAgainKeyboard(meta.place)));
    await edit(outcomeText(out.order), nextStepKeyboard(out.order));
    await conversation.external(() => {
      s.journal.markNotified(orderId, out.order.state);
      s.keyboards.forget(chatId);
    });
  }

  function confirmText(meta: ConfirmMeta, kobo: number, balanceKobo: number | null): string {
    return [
      'Please check, then confirm:',
      `Customer gets: ${meta.gets}`,
      `You pay: ${naira(kobo)} from the wallet${meta.payNote ? ` (${meta.payNote})` : ''}`,
      ...(balanceKobo !== null ? [`Wallet after: ${naira(balanceKobo - kobo)}`] : []),
    ].join('\n');
  }

  async function confirmAndBuy(conversation: MyConversation, ctx: ConvContext, req: BotPurchaseRequest, meta: ConfirmMeta): Promise<void> {
    const userId = ctx.from!.id;
    const chatId = ctx.chat!.id;
    const p = await conversation.external(() => check(userId, req, meta));
    if (!p.ok) return void (await ctx.reply(p.text, { reply_markup: tryAgainKeyboard(p.retry?.place ?? meta.place, p.retry?.label) }));
    if (p.repeat && !(await repeatGuard(conversation, ctx, p.repeat, meta))) return;
    const id = await conversation.external(
      () => s.journal.create({ userId, chatId, product: req.product, request: req as unknown as Record<string, unknown>, description: meta.description, recipient: meta.recipient, amountKobo: p.kobo }).id,
    );
    const text = confirmText(meta, p.kobo, p.balanceKobo);
    const kb = new InlineKeyboard().text(`✅ Confirm: pay ${naira(p.kobo)}`, `confirm:${id}`).text('✖️ Cancel', `cancel:${id}`);
    const m = await withButtons(conversation, ctx, text, kb);
    const c = await conversation.waitUntil((u) => u.callbackQuery?.data === `confirm:${id}` || u.callbackQuery?.data === `cancel:${id}`, {
      otherwise: (u) => nudge(u, 'Tap Confirm or Cancel above, or send /cancel.'),
    });
    if (c.callbackQuery!.data === `cancel:${id}`) {
      await conversation.external(() => s.journal.cancel(id));
      await c.answerCallbackQuery({ text: 'Cancelled' });
      return void (await safeEdit(c, `${text}\n\nCancelled. Nothing was bought.`, menuButton()));
    }
    await c.answerCallbackQuery({ text: 'Confirmed' });
    if (s.cfg.pinRequired) {
      await safeEdit(c, `${text}\n\n🔒 Waiting for your PIN.`);
      if (!(await pinCheck(conversation, ctx, id))) return;
    }
    await send(conversation, ctx, m.message_id, id, meta);
  }

  return { confirmAndBuy };
}
