/**
 * Multi-step flows (conversations v2). The function re-runs from the top on every update
 * (replay), so EVERY call to the API client, the database or the clock is inside
 * `conversation.external`, and its result is plain JSON. Bot API calls through `ctx` are
 * recorded by the plugin and not repeated on replay.
 *
 * Button taps are bound to the message that carries them (message_id check), and the confirm
 * button to one journalled order (`confirm:<orderId>`), so a stale button never confirms a new
 * order. The money moves only in `orders.execute`, behind the journal's atomic created→sent.
 */
import { InlineKeyboard } from 'grammy';
import { parse as parseCsv } from 'csv-parse/sync';
import type { ConvContext, MyConversation, Services } from './context';
import { naira, outcomeText, userError } from './orders';
import { PIN_PLACEHOLDER } from './pin-gate';
import { checkSender, detectNetwork, errorCode, formatNaira, formatPhone, splitRecipients as splitList, tryParseKobo, tryNormalizePhone, type BotPurchaseRequest } from './vtu';

const EXPIRED = 'This button has expired';

interface NetView {
  id: number;
  name: string;
  plans: { id: number; label: string; name: string; priceKobo: number }[];
}

type Loaded<T> = { ok: true; value: T } | { ok: false; text: string };

function failText(what: string, e: unknown): string {
  const code = errorCode(e);
  const msg = e instanceof Error ? e.message : String(e);
  return `${what}: ${code ? userError(code, msg) : 'internal error'}`;
}

async function nudge(c: ConvContext, hint: string): Promise<void> {
  if (c.callbackQuery) await c.answerCallbackQuery({ text: EXPIRED });
  else if (c.message) await c.reply(hint);
}

async function safeEdit(c: ConvContext, text: string, markup?: InlineKeyboard): Promise<void> {
  try {
    await c.editMessageText(text, markup ? { reply_markup: markup } : { reply_markup: { inline_keyboard: [] } });
  } catch {
    // "message is not modified" or deleted: nothing to do.
  }
}

function grid(kb: InlineKeyboard, items: { text: string; data: string }[], perRow: number): InlineKeyboard {
  items.forEach((it, i) => {
    kb.text(it.text, it.data);
    if ((i + 1) % perRow === 0 || i === items.length - 1) kb.row();
  });
  return kb;
}

export function createConversations(s: Services) {
  /** Wait for a tap on `messageId` whose data matches `pattern` (or the flow's Cancel). Halts on Cancel. */
  async function choose(conversation: MyConversation, messageId: number, pattern: RegExp, hint: string) {
    const c = await conversation.waitUntil(
      (u) => {
        const d = u.callbackQuery?.data;
        return !!d && u.callbackQuery?.message?.message_id === messageId && (pattern.test(d) || d === 'x');
      },
      { otherwise: (u) => nudge(u, hint) },
    );
    await c.answerCallbackQuery();
    if (c.callbackQuery!.data === 'x') {
      await safeEdit(c, 'Cancelled. Nothing was bought.');
      await conversation.halt();
    }
    return { c, data: c.callbackQuery!.data! };
  }

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

  interface ConfirmMeta {
    /** First line: "Confirm ₦250.00 for 0803 123 4567 (MTN)?" is built from this target. */
    target: string;
    description: string;
    recipient: string | null;
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

  // ------------------------------------------------------------------ /data
  async function data(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const loaded = await loadNetworks(conversation);
    if (!loaded.ok) return void (await ctx.reply(loaded.text));
    const nets = loaded.value.filter((n) => n.plans.length > 0);
    if (!nets.length) return void (await ctx.reply('No data plans are available right now.'));
    const { c, net, messageId } = await pickNetwork(conversation, ctx, 'Buy data: choose the network.', nets);
    const kb = grid(new InlineKeyboard(), net.plans.map((p) => ({ text: p.label, data: `plan:${p.id}` })), 1).text('Cancel', 'x');
    await safeEdit(c, `${net.name} data: choose a plan.`, kb);
    const chosen = await choose(conversation, messageId, /^plan:\d+$/, 'Please choose a plan with the buttons above, or /cancel.');
    const plan = net.plans.find((p) => `plan:${p.id}` === chosen.data)!;
    await safeEdit(chosen.c, `${net.name} data: ${plan.label}`);
    const { phone, ported } = await askPhone(conversation, ctx, net.name);
    await confirmAndBuy(
      conversation,
      ctx,
      { product: 'data', network: net.id, plan: plan.id, phone, ported },
      { target: `${formatPhone(phone)} (${net.name}${ported ? ', ported' : ''})`, description: `${net.name} data ${plan.name}`, recipient: phone },
    );
  }

  // ------------------------------------------------------------------ /airtime
  async function airtime(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const loaded = await loadNetworks(conversation);
    if (!loaded.ok) return void (await ctx.reply(loaded.text));
    const { c, net } = await pickNetwork(conversation, ctx, 'Buy airtime: choose the network.', loaded.value);
    await safeEdit(c, `${net.name} airtime.`);
    await ctx.reply(`How much ${net.name} airtime? Send an amount in naira (at least ₦50), e.g. 200.`);
    let faceKobo = 0;
    for (;;) {
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the amount as a number, or /cancel.') });
      // The client's exact parser: "200", "₦1,500", "150.50"; more than two decimals is refused.
      const kobo = tryParseKobo(m.message.text, false);
      if (kobo === null || kobo < 0) {
        await m.reply('Send the amount as a number of naira, e.g. 200 or 150.50.');
        continue;
      }
      faceKobo = kobo;
      if (faceKobo < 5000) {
        await m.reply('The smallest airtime top-up is ₦50.');
        continue;
      }
      if (faceKobo > s.cfg.maxPurchaseKobo) {
        await m.reply(`That is above your per-purchase limit of ${naira(s.cfg.maxPurchaseKobo)}. Send a smaller amount.`);
        continue;
      }
      break;
    }
    const { phone, ported } = await askPhone(conversation, ctx, net.name);
    const amount = formatNaira(faceKobo);
    await confirmAndBuy(
      conversation,
      ctx,
      { product: 'airtime', network: net.id, amount, phone, type: 'VTU', ported },
      { target: `${formatPhone(phone)} (${net.name}${ported ? ', ported' : ''})`, description: `${net.name} airtime ${naira(faceKobo)}`, recipient: phone },
    );
  }

  // ------------------------------------------------------------------ /sms
  /** The client's list split (commas, semicolons, lines, tabs), then pasted "0803… 0805…" runs split on spaces. */
  function splitRecipients(text: string): string[] {
    const out: string[] = [];
    for (const p of splitList(text)) {
      if (!/\d/.test(p)) continue;
      if (tryNormalizePhone(p) || !/\s/.test(p)) out.push(p);
      else out.push(...p.split(/\s+/).filter((x) => /\d/.test(x)));
    }
    return out;
  }

  function recipientsFromFile(name: string, buf: Buffer): string[] {
    const text = buf.toString('utf8');
    if (/\.csv$/i.test(name)) {
      const rows = parseCsv(text, { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
      return rows.flat().map((x) => String(x).trim()).filter((x) => /\d/.test(x));
    }
    return splitRecipients(text);
  }

  async function sms(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    await ctx.reply('Bulk SMS. Send the sender ID (up to 11 letters or digits, no spaces, e.g. MYSHOP).');
    let sender = '';
    for (;;) {
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the sender ID as text, or /cancel.') });
      // The client's rule (client.sms.plan applies it again): the vendor refuses anything else.
      try {
        sender = checkSender(m.message.text);
        break;
      } catch {
        await m.reply('A sender ID is 1 to 11 letters or digits, with no spaces or symbols (e.g. MYSHOP). Try again.');
      }
    }
    await ctx.reply('Now the recipients: paste the numbers (one per line or comma-separated), or send a .txt or .csv file.');
    let recipients: string[] = [];
    for (;;) {
      const m = await conversation.waitFor(['message:text', 'message:document'], {
        otherwise: (u) => nudge(u, 'Paste the numbers or send a .txt/.csv file, or /cancel.'),
      });
      if (m.message.document) {
        const doc = m.message.document;
        const name = doc.file_name ?? 'file';
        if (!/\.(csv|txt)$/i.test(name)) {
          await m.reply('Send a .txt or .csv file (or paste the numbers).');
          continue;
        }
        if ((doc.file_size ?? 0) > s.cfg.smsMaxFileBytes) {
          await m.reply(`That file is too large (limit ${Math.round(s.cfg.smsMaxFileBytes / 1024)} KB).`);
          continue;
        }
        const got = await conversation.external(async (): Promise<Loaded<string[]>> => {
          try {
            return { ok: true, value: recipientsFromFile(name, await s.downloadFile(doc.file_id, s.cfg.smsMaxFileBytes)) };
          } catch (e) {
            s.logger.warn('recipients file failed', { err: e instanceof Error ? e.message : String(e) });
            return { ok: false, text: 'I could not read that file. Check it is a plain .txt or .csv file and try again.' };
          }
        });
        if (!got.ok) {
          await m.reply(got.text);
          continue;
        }
        recipients = got.value;
      } else recipients = splitRecipients(m.message.text ?? '');
      if (recipients.length === 0) {
        await m.reply('I found no phone numbers there. Paste the numbers or send a .txt/.csv file.');
        continue;
      }
      break;
    }
    await ctx.reply('Now send the message text.');
    const mt = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the message as text, or /cancel.') });
    const message = mt.message.text;
    const plan = await conversation.external(async () => {
      try {
        const p = await s.client.sms.plan({ sender, message, recipients });
        return { ok: true as const, recipients: p.recipients, invalid: p.invalid, duplicates: p.duplicates, pages: p.pages, costKobo: p.cost.kobo };
      } catch (e) {
        return { ok: false as const, text: failText('Cannot send this', e) };
      }
    });
    if (!plan.ok) return void (await ctx.reply(plan.text));
    const lines = [
      `Bulk SMS from ${sender}`,
      `Recipients: ${plan.recipients.length}${plan.duplicates ? ` (${plan.duplicates} duplicate${plan.duplicates === 1 ? '' : 's'} removed)` : ''}`,
      `Pages per message: ${plan.pages}`,
      `Cost: ${naira(plan.costKobo)}`,
    ];
    if (plan.invalid.length) {
      const shown = plan.invalid.slice(0, 30).join(', ');
      lines.push(`Invalid numbers (${plan.invalid.length}, skipped): ${shown}${plan.invalid.length > 30 ? ', …' : ''}`);
    }
    await ctx.reply(lines.join('\n'));
    if (plan.recipients.length === 0) return void (await ctx.reply('No valid numbers to send to. Start again with /sms.'));
    if (plan.recipients.length > s.cfg.smsMaxRecipients) {
      return void (await ctx.reply(`At most ${s.cfg.smsMaxRecipients} recipients per job. Split the list and try again.`));
    }
    const n = plan.recipients.length;
    await confirmAndBuy(
      conversation,
      ctx,
      { product: 'sms', sender, message, recipients: plan.recipients },
      {
        target: `${n} recipient${n === 1 ? '' : 's'}`,
        description: `Bulk SMS from ${sender}, ${plan.pages} page${plan.pages === 1 ? '' : 's'} to ${n} number${n === 1 ? '' : 's'}`,
        recipient: `${n} recipient${n === 1 ? '' : 's'}`,
      },
    );
  }

  // ------------------------------------------------------------------ /setpin
  async function setpin(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const userId = ctx.from!.id;
    const ask = async (mode: 'current' | 'new' | 'repeat', prompt: string) => {
      await conversation.external(() => s.pinGate.expect(userId, mode));
      await ctx.reply(prompt);
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the PIN as a text message, or /cancel.') });
      return conversation.external(() => s.pinGate.takeVerdict(userId, m.update.update_id));
    };
    const st = await conversation.external(() => ({ has: s.pins.has(userId), locked: s.pins.lockedUntil(userId) }));
    if (st.locked) return void (await ctx.reply(`Your PIN is locked until ${clockText(st.locked)}.`));
    if (st.has) {
      const v = await ask('current', 'Send your current PIN. (I delete PIN messages right away.)');
      if (v.kind !== 'ok') {
        await conversation.external(() => s.pinGate.disarm(userId));
        const why = v.kind === 'wrong' ? `Wrong PIN (${v.attemptsLeft} attempts left).` : v.kind === 'locked' ? `Too many wrong PINs: locked until ${clockText(v.until)}.` : 'PIN not checked.';
        return void (await ctx.reply(`${why} Your PIN was not changed.`));
      }
    }
    for (;;) {
      const v = await ask('new', 'Send a new PIN: 4 to 6 digits. (I delete the message right away.)');
      if (v.kind === 'ok') break;
      await ctx.reply('A PIN is 4 to 6 digits.');
    }
    const v = await ask('repeat', 'Send the same PIN again to confirm.');
    await conversation.external(() => s.pinGate.disarm(userId));
    if (v.kind === 'ok') await ctx.reply('✅ PIN set. I will ask for it before every purchase.');
    else await ctx.reply('The two PINs did not match. Nothing changed; start again with /setpin.');
  }

  return { data, airtime, sms, setpin };
}

export function clockText(ms: number): string {
  return new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit' }) + ' (Lagos time)';
}
