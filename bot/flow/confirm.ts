/**
 * Confirm, then buy: shared by data, airtime, bulk SMS and "Buy again".
 *
 * 1. Every check that can refuse the purchase runs BEFORE the Confirm button is shown
 *    (checks.ts: price, limits, PIN, balance). A repeat of the same purchase within minutes asks first.
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
import type { BotPurchaseRequest } from '../vtu';
import { purchaseChecks } from './checks';
import { pinStep } from './pin-step';
import { menuButton, nextStepKeyboard, tryAgainKeyboard, type Place } from './keyboards';
import { pickers } from './pickers';
import { choose, nudge, safeEdit } from './ui';

/** How long a purchase may take before "typing…" is shown (the "Sending…" edit is immediate). */
const TYPING_AFTER_MS = 1_000;

export interface ConfirmMeta {
  /** What the customer gets, e.g. "MTN data 1GB SME (30 days) to 0803 123 4567 (MTN)". */
  gets: string;
  /** Who gets it, for the confirm question: "0803 123 4567 (MTN)", "3 numbers". */
  target: string | null;
  /** Journal description ("MTN data 1GB SME (30 days)") and recipient (phone, or "3 numbers"). */
  description: string;
  recipient: string | null;
  /** Where "Try again" leads when the purchase is refused before anything was bought. */
  place: Place;
  /** Why the price differs from what the customer gets (airtime discount). */
  payNote?: string;
}

export function confirmSteps(s: Services) {
  const { withButtons } = pickers(s);
  const { check } = purchaseChecks(s);
  const { pinCheck } = pinStep(s);

  async function repeatGuard(conversation: MyConversation, ctx: ConvContext, r: { ago: string; ref: string }, meta: ConfirmMeta): Promise<boolean> {
    const kb = new InlineKeyboard().text('🔁 Yes, buy again', 'repeat:y').text('No', 'repeat:n');
    const q = await withButtons(conversation, ctx, `You bought this ${r.ago} ago (ref ${r.ref}): ${meta.gets}. Buy it again?`, kb);
    const { c, data } = await choose(conversation, q.message_id, /^repeat:[yn]$/, 'Please use the buttons above, or /cancel.');
    if (data === 'repeat:y') {
      await safeEdit(conversation, c, `Buying again: ${meta.gets}.`);
      return true;
    }
    await safeEdit(conversation, c, 'OK, not bought again. Nothing was bought.', menuButton());
    return false;
  }

  /**
   * Runs inside conversation.external: the purchase, with "typing…" re-sent until it is done. The
   * "⏳ Sending…" edit already shows progress, so typing starts only when the vendor takes longer
   * than a moment (most purchases answer sooner: one Bot API call less), then is kept alive.
   */
  async function executeWithTyping(chatId: number, orderId: string) {
    const typing = () => void s.api.sendChatAction(chatId, 'typing').catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const start = setTimeout(() => {
      typing();
      timer = setInterval(typing, s.cfg.typingEveryMs);
    }, Math.min(TYPING_AFTER_MS, s.cfg.typingEveryMs));
    try {
      return await s.orders.execute(orderId);
    } finally {
      clearTimeout(start);
      clearInterval(timer);
    }
  }

  /** The confirm message becomes "Sending…", then the outcome with the next step's buttons. */
  async function send(conversation: MyConversation, ctx: ConvContext, messageId: number, orderId: string, meta: ConfirmMeta): Promise<void> {
    const chatId = ctx.chat!.id;
    // From conversation.external, like safeEdit: the state keeps nothing of the edited message.
    const edit = (text: string, kb?: InlineKeyboard) =>
      conversation.external((outside) => outside.api.editMessageText(chatId, messageId, text, { reply_markup: kb ?? { inline_keyboard: [] } }).then(() => undefined, () => undefined));
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
      `Confirm ${naira(kobo)}${meta.target ? ` for ${meta.target}` : ''}?`,
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
      return void (await safeEdit(conversation, c, `${text}\n\nCancelled. Nothing was bought.`, menuButton()));
    }
    await c.answerCallbackQuery({ text: 'Confirmed' });
    if (s.cfg.pinRequired) {
      await safeEdit(conversation, c, `${text}\n\n🔒 Waiting for your PIN.`);
      if (!(await pinCheck(conversation, ctx, id))) return;
    }
    await send(conversation, ctx, m.message_id, id, meta);
  }

  return { confirmAndBuy };
}
