/** /history and /status <reference>. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { dateText } from '../flow/ui';
import { naira, outcomeText, productName, resultOf, storedOf, viewOf } from '../orders';
import { errorCode, formatPhone } from '../vtu';

export function historyFeature(s: Services) {
  const showHistory = async (ctx: MyContext) => {
    const list = s.journal.recentForUser(ctx.from!.id, 10);
    if (!list.length) return void (await ctx.reply('No orders yet. Try /data or /airtime.'));
    const lines = list.map((o, i) => {
      const to = o.recipient ? ` → ${o.product === 'sms' ? o.recipient : formatPhone(o.recipient)}` : '';
      return `${i + 1}. ${dateText(o.createdAt)} ${o.description}${to}, ${naira(o.chargedKobo ?? o.amountKobo)}: ${o.state}${o.ident ? ` (${o.ident})` : ''}`;
    });
    await ctx.reply(`🧾 Recent orders\n${lines.join('\n')}\n\nDetails: /status <reference>`);
  };

  const composer = new Composer<MyContext>();
  composer.command('history', showHistory);
  composer.command('status', async (ctx) => {
    const ref = ctx.match.trim();
    if (!ref) return void (await ctx.reply('Usage: /status <reference>, e.g. /status Data123. See /history for references.'));
    let o = s.journal.findForUser(ctx.from!.id, ref);
    if (!o) return void (await ctx.reply('No order with that reference in your history.'));
    const prev = resultOf(o);
    if (prev && (o.state === 'processing' || o.state === 'successful')) {
      try {
        const now = await s.client.transactions.refresh(prev);
        if (now.status !== o.state) {
          o = s.journal.recordResult(o.id, storedOf(now));
          s.journal.markNotified(o.id, o.state);
        }
      } catch (e) {
        s.logger.warn('status refresh failed', { order: o.id, code: errorCode(e) });
      }
    }
    await ctx.reply(`${productName(o.product)} order of ${dateText(o.createdAt)}\n${outcomeText(viewOf(o))}`);
  });
  return { composer, showHistory };
}
