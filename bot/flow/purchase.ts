/**
 * The purchase steps shared by data, airtime and bulk SMS: catalogue, network and phone pickers,
 * the PIN step, and confirm-then-buy. Conversations v2 replay the flow from the top on every
 * update, so EVERY call to the API client, the database or the clock is inside
 * `conversation.external`, and its result is plain JSON. Bot API calls through `ctx` are
 * recorded by the plugin and not repeated on replay.
 *
 * The confirm button is bound to one journalled order (`confirm:<orderId>`), so a stale button
 * never confirms a new order. The money moves only in `orders.execute`, behind the journal's
 * atomic created→sent.
 */
import { InlineKeyboard } from 'grammy';
import type { ConvContext, MyConversation, Services } from '../context';
import { naira, outcomeText, userError } from '../orders';
import { PIN_PLACEHOLDER } from '../pin-gate';
import { detectNetwork, errorCode, formatPhone, tryNormalizePhone, type BotPurchaseRequest } from '../vtu';
import { choose, clockText, grid, nudge, safeEdit, type Loaded } from './ui';

export interface NetView {
  id: number;
  name: string;
  plans: { id: number; label: string; name: string; priceKobo: number }[];
}

export function failText(what: string, e: unknown): string {
  const code = errorCode(e);
  const msg = e instanceof Error ? e.message : String(e);
  return `${what}: ${code ? userError(code, msg) : 'internal error'}`;
}

export interface ConfirmMeta {
  /** First line: "Confirm ₦250.00 for 0803 123 4567 (MTN)?" is built from this target. */
  target: string;
  description: string;
  recipient: string | null;
}

export function purchaseSteps(s: Services) {
  async function loadNetworks(conversation: MyConversation): Promise<Loaded<NetView[]>> {
    return conversation.external(async (): Promise<Loaded<NetView[]>> => {
      try {
        const nets = await s.client.catalog.networks();
        return {
          ok: true,
          value: nets.map((n) => ({
            id: n.id,
            name: String(n.name),
            plans: n.plans
              .filter((p) => p.available)
              .map((p) => ({ id: p.id, label: p.label, name: `${p.size} ${p.kind}${p.validity ? ` (${p.validity})` : ''}`, priceKobo: p.price.kobo })),
          })),
        };
      } catch (e) {
        return { ok: false, text: failText('Could not load the catalogue', e) };
      }
    });
  }

  async function askPhone(conversation: MyConversation, ctx: ConvContext, networkName: string): Promise<{ phone: string; ported: boolean }> {
    await ctx.reply(`Send the ${networkName} phone number (e.g. 0803 123 4567).`);
    for (;;) {
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Please send the phone number as text, or /cancel.') });
      const phone = tryNormalizePhone(m.message.text);
      if (!phone) {
        await m.reply('That is not a Nigerian mobile number. Send 11 digits like 08031234567 (or +234 803 123 4567).');
        continue;
      }
      const detected = detectNetwork(phone);
      if (detected && detected.toUpperCase() === networkName.toUpperCase()) return { phone, ported: false };
      const q = await m.reply(
        `${formatPhone(phone)} looks like ${detected ?? 'an unknown network'}, not ${networkName}. Has this number been ported to ${networkName}?`,
        {
          reply_markup: new InlineKeyboard()
            .text(`Yes, it is on ${networkName}`, 'ported:y')
            .row()
            .text('No, use another number', 'ported:n')
            .row()
            .text('Cancel', 'x'),
        },
      );
      const { c, data } = await choose(conversation, q.message_id, /^ported:[yn]$/, 'Please use the buttons above, or /cancel.');
      if (data === 'ported:y') {
        await safeEdit(c, `${formatPhone(phone)}: ported to ${networkName}.`);
        return { phone, ported: true };
      }
      await safeEdit(c, 'OK, send another phone number.');
    }
  }

  /** PIN step. Returns true when the PIN was right. The PIN itself never reaches this function. */
  async function pinCheck(conversation: MyConversation, ctx: ConvContext, orderId: string): Promise<boolean> {
    const userId = ctx.from!.id;
    const st = await conversation.external(() => ({ has: s.pins.has(userId), locked: s.pins.lockedUntil(userId) }));
    const cancel = (text: string) =>
      conversation.external(() => {
        s.journal.cancel(orderId);
        s.pinGate.disarm(userId);
      }).then(() => ctx.reply(text));
    if (!st.has) {
      await cancel('A PIN is required for purchases. Set one with /setpin, then try again. Nothing was bought.');
      return false;
    }
    if (st.locked) {
      await cancel(`Purchases are locked after too many wrong PINs until ${clockText(st.locked)}. Nothing was bought.`);
      return false;
    }
    for (;;) {
      await conversation.external(() => s.pinGate.expect(userId, 'verify'));
      await ctx.reply('🔒 Send your PIN to authorise this purchase. (I delete the message right away.)');
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send your PIN as a text message, or /cancel.') });
      const v = await conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
      if (v.kind === 'ok') return true;
      if (v.kind === 'wrong') {
        await ctx.reply(`Wrong PIN. ${v.attemptsLeft} attempt${v.attemptsLeft === 1 ? '' : 's'} left.`);
        continue;
      }
      if (v.kind === 'locked') {
        await cancel(`Too many wrong PINs: purchases are locked until ${clockText(v.until)}. Nothing was bought.`);
        return false;
      }
      if (v.kind === 'no_pin') {
        await cancel('You have no PIN. Set one with /setpin. Nothing was bought.');
        return false;
      }
      if (m.message.text !== PIN_PLACEHOLDER) continue;
    }
  }

  async function confirmAndBuy(conversation: MyConversation, ctx: ConvContext, req: BotPurchaseRequest, meta: ConfirmMeta): Promise<void> {
    const userId = ctx.from!.id;
    const chatId = ctx.chat!.id;
    const q = await conversation.external(async (): Promise<{ ok: true; id: string; kobo: number } | { ok: false; text: string }> => {
      let kobo: number;
      try {
        kobo = (await s.client.quote(req)).amount.kobo;
      } catch (e) {
        return { ok: false, text: failText('Cannot buy this', e) };
      }
      if (kobo > s.cfg.maxPurchaseKobo) {
        return { ok: false, text: `${naira(kobo)} is above your per-purchase limit of ${naira(s.cfg.maxPurchaseKobo)}. Nothing was bought.` };
      }
      const spent = s.journal.spentToday(userId);
      if (spent + kobo > s.cfg.dailyLimitKobo) {
        const left = Math.max(0, s.cfg.dailyLimitKobo - spent);
        return { ok: false, text: `${naira(kobo)} would exceed your daily limit of ${naira(s.cfg.dailyLimitKobo)} (${naira(left)} left today). Nothing was bought.` };
      }
      const o = s.journal.create({
        userId,
        chatId,
        product: req.product,
        request: req as unknown as Record<string, unknown>,
        description: meta.description,
        recipient: meta.recipient,
        amountKobo: kobo,
      });
      return { ok: true, id: o.id, kobo };
    });
    if (!q.ok) {
      await ctx.reply(q.text);
      return;
    }
    const text = `Confirm ${naira(q.kobo)} for ${meta.target}?\n${meta.description}`;
    await ctx.reply(text, {
      reply_markup: new InlineKeyboard().text(`✅ Confirm ${naira(q.kobo)}`, `confirm:${q.id}`).text('✖️ Cancel', `cancel:${q.id}`),
    });
    const c = await conversation.waitUntil(
      (u) => u.callbackQuery?.data === `confirm:${q.id}` || u.callbackQuery?.data === `cancel:${q.id}`,
      { otherwise: (u) => nudge(u, 'Tap Confirm or Cancel above, or send /cancel.') },
    );
    if (c.callbackQuery!.data === `cancel:${q.id}`) {
      await conversation.external(() => s.journal.cancel(q.id));
      await c.answerCallbackQuery({ text: 'Cancelled' });
      await safeEdit(c, `${text}\n\nCancelled. Nothing was bought.`);
      return;
    }
    await c.answerCallbackQuery({ text: 'Confirmed' });
    await safeEdit(c, `${text}\n\nConfirmed.`);
    if (s.cfg.pinRequired && !(await pinCheck(conversation, ctx, q.id))) return;
    await ctx.replyWithChatAction('typing').catch(() => undefined);
    const out = await conversation.external(() => s.orders.execute(q.id));
    if (out.kind === 'refused') {
      await ctx.reply(out.text);
      return;
    }
    // 'already': another tap / instance won the created→sent race and reports the result.
    if (out.kind === 'already') return;
    await ctx.reply(outcomeText(out.order));
    await conversation.external(() => s.journal.markNotified(q.id, out.order.state));
  }

  async function pickNetwork(conversation: MyConversation, ctx: ConvContext, title: string, nets: NetView[]) {
    const kb = grid(new InlineKeyboard(), nets.map((n) => ({ text: n.name, data: `net:${n.id}` })), 2).text('Cancel', 'x');
    const m = await ctx.reply(title, { reply_markup: kb });
    const { c, data } = await choose(conversation, m.message_id, /^net:\d+$/, 'Please choose with the buttons above, or /cancel.');
    return { c, net: nets.find((n) => `net:${n.id}` === data)!, messageId: m.message_id };
  }

  return { loadNetworks, askPhone, pinCheck, confirmAndBuy, pickNetwork };
}
