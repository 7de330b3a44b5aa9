/**
 * A command typed during a flow abandons it: its unconfirmed order is cancelled and the buttons
 * of its messages are taken away. /cancel says so. (/balance, /history and /status are answered
 * before this and leave the flow open.)
 */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { flowOpen } from '../flow/confirm';
import { menuButton } from '../flow/keyboards';

const CANCEL = /^\/cancel(@\w+)?\b/;

export function flowCommands(s: Services): Composer<MyContext> {
  const abandon = async (ctx: MyContext) => {
    await ctx.conversation.exitAll();
    const uid = ctx.from!.id;
    s.journal.cancelCreatedFor(uid);
    s.pinGate.disarm(uid);
    await s.keyboards.clear(ctx.chat!.id, ctx.api, s.logger);
  };
  const composer = new Composer<MyContext>();
  composer.use(async (ctx, next) => {
    const text = ctx.message?.text;
    if (text?.startsWith('/')) {
      const active = flowOpen(s, ctx);
      if (active || CANCEL.test(text)) await abandon(ctx);
      if (CANCEL.test(text)) return void (await ctx.reply(active ? 'Cancelled. Nothing was bought.' : 'Nothing to cancel.', { reply_markup: menuButton() }));
    }
    await next();
  });
  return composer;
}
