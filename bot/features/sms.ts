/** /sms: sender → recipients (pasted or a .txt/.csv file) → message → plan → checks → confirm → send. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import type { Feature } from './registry';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { confirmSteps } from '../flow/confirm';
import { tryAgainKeyboard } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { nudge, type Loaded } from '../flow/ui';
import { naira } from '../orders';
import { PRODUCT_TABLE, checkSender } from '../vtu';
import { nonGsmChars, recipientsFromCsv, recipientsFromText, recipientsReport, type Recipients } from './sms-recipients';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface PlanView {
  recipients: string[];
  duplicates: number;
  pages: number;
  costKobo: number;
}

/** The summary shown before the confirm: count, pages, cost, and the Unicode warning. */
export function smsSummary(sender: string, message: string, p: PlanView): string {
  const chars = [...message].length;
  const lines = [
    `Bulk SMS from ${sender}`,
    `Recipients: ${plural(p.recipients.length, 'number')}${p.duplicates ? ` (${plural(p.duplicates, 'duplicate')} removed)` : ''}`,
    `Message: ${plural(chars, 'character')} = ${plural(p.pages, 'page')} per number`,
    `Cost: ${naira(p.costKobo)}`,
  ];
  const odd = nonGsmChars(message);
  if (odd.length) {
    lines.push(
      `⚠️ The message has characters that are not plain SMS text (${odd.slice(0, 5).join(' ')}). The site prices it by length: ${plural(chars, 'character')} = ${plural(p.pages, 'page')}. Phones may show them as "?"; remove them to be safe.`,
    );
  }
  return lines.join('\n');
}

export function smsFeature(s: Services): Composer<MyContext> {
  const { confirmAndBuy } = confirmSteps(s);

  async function askSender(conversation: MyConversation, ctx: ConvContext): Promise<string> {
    await ctx.reply(`Bulk SMS. Send the sender ID (up to ${PRODUCT_TABLE.sms.limits.senderChars} letters or digits, no spaces, e.g. MYSHOP).`);
    for (;;) {
      const m = await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the sender ID as text, or /cancel.') });
      // The client's rule (client.sms.plan applies it again): the vendor refuses anything else.
      try {
        return checkSender(m.message.text);
      } catch {
        await m.reply(`A sender ID is 1 to ${PRODUCT_TABLE.sms.limits.senderChars} letters or digits, with no spaces or symbols (e.g. MYSHOP). Try again.`);
      }
    }
  }

  async function readFile(conversation: MyConversation, doc: { file_id: string; file_name?: string }): Promise<Loaded<Recipients>> {
    const name = doc.file_name ?? 'file';
    return conversation.external(async (): Promise<Loaded<Recipients>> => {
      try {
        const text = (await s.downloadFile(doc.file_id, s.cfg.smsMaxFileBytes)).toString('utf8');
        return { ok: true, value: /\.csv$/i.test(name) ? recipientsFromCsv(text) : recipientsFromText(text) };
      } catch (e) {
        s.logger.warn('recipients file failed', { err: e instanceof Error ? e.message : String(e) });
        return { ok: false, text: 'I could not read that file. Check it is a plain .txt or .csv file and try again.' };
      }
    });
  }

  async function askRecipients(conversation: MyConversation, ctx: ConvContext): Promise<string[]> {
    await ctx.reply('Now the recipients: paste the numbers (one per line), or send a .txt or .csv file.');
    for (;;) {
      const m = await conversation.waitFor(['message:text', 'message:document'], { otherwise: (u) => nudge(u, 'Paste the numbers or send a .txt/.csv file, or /cancel.') });
      let got: Loaded<Recipients> = { ok: true, value: recipientsFromText(m.message.text ?? '') };
      const doc = m.message.document;
      if (doc) {
        if (!/\.(csv|txt)$/i.test(doc.file_name ?? '')) got = { ok: false, text: 'Send a .txt or .csv file (or paste the numbers).' };
        else if ((doc.file_size ?? 0) > s.cfg.smsMaxFileBytes) got = { ok: false, text: `That file is too large (limit ${Math.round(s.cfg.smsMaxFileBytes / 1024)} KB).` };
        else got = await readFile(conversation, doc);
      }
      if (!got.ok) await m.reply(got.text);
      else if (got.value.numbers.length === 0) await m.reply(`${got.value.bad.length ? `${recipientsReport(got.value)}\n\n` : ''}I found no phone numbers there. Paste the numbers (one per line) or send a .txt/.csv file.`);
      else {
        await m.reply(recipientsReport(got.value));
        return got.value.numbers;
      }
    }
  }

  async function sms(conversation: MyConversation, ctx: ConvContext): Promise<void> {
    const sender = await askSender(conversation, ctx);
    const recipients = await askRecipients(conversation, ctx);
    await ctx.reply('Now send the message text.');
    const message = (await conversation.waitFor('message:text', { otherwise: (u) => nudge(u, 'Send the message as text, or /cancel.') })).message.text;
    const plan = await conversation.external(async (): Promise<Loaded<PlanView>> => {
      try {
        const p = await s.client.sms.plan({ sender, message, recipients });
        return { ok: true, value: { recipients: p.recipients, duplicates: p.duplicates, pages: p.pages, costKobo: p.cost.kobo } };
      } catch (e) {
        return { ok: false, text: failText(s, 'Cannot send this', e) };
      }
    });
    if (!plan.ok) return void (await ctx.reply(plan.text, { reply_markup: tryAgainKeyboard('sms') }));
    const p = plan.value;
    await ctx.reply(smsSummary(sender, message, p));
    const n = p.recipients.length;
    if (n > s.cfg.smsMaxRecipients) return void (await ctx.reply(`At most ${s.cfg.smsMaxRecipients} recipients per job. Split the list and try again.`, { reply_markup: tryAgainKeyboard('sms') }));
    const description = `Bulk SMS from ${sender} (${plural(p.pages, 'page')})`;
    await confirmAndBuy(
      conversation,
      ctx,
      { product: 'sms', sender, message, recipients: p.recipients },
      { gets: `${description} to ${plural(n, 'number')}`, target: plural(n, 'number'), description, recipient: plural(n, 'number'), place: 'sms' },
    );
  }

  return new Composer<MyContext>().use(createConversation<MyContext, ConvContext>(sms, s.conversationOptions('sms')));
}

const enter = (ctx: MyContext) => ctx.conversation.enter('sms');

export const sms: Feature = {
  name: 'sms',
  commands: [{ name: 'sms', description: 'cmd-sms', help: 'help-sms' }],
  menu: { label: 'menu-sms', place: 'sms', row: 1 },
  build: (s) => ({ flows: smsFeature(s), commands: { sms: enter }, places: { sms: enter } }),
};
