/** /sms: sender → recipients (pasted or a .txt/.csv file) → message → plan → confirm → send. */
import { Composer } from 'grammy';
import { createConversation } from '@grammyjs/conversations';
import { parse as parseCsv } from 'csv-parse/sync';
import type { ConvContext, MyContext, MyConversation, Services } from '../context';
import { naira } from '../orders';
import { failText, purchaseSteps } from '../flow/purchase';
import { nudge, type Loaded } from '../flow/ui';
import { checkSender, splitRecipients as splitList, tryNormalizePhone } from '../vtu';

export function smsFeature(s: Services): Composer<MyContext> {
  const { confirmAndBuy } = purchaseSteps(s);
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

  const composer = new Composer<MyContext>();
  composer.use(createConversation<MyContext, ConvContext>(sms, s.conversationOptions('sms')));
  composer.command('sms', (ctx) => ctx.conversation.enter('sms'));
  return composer;
}
