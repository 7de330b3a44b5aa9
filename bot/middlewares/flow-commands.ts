/** A command typed during a flow abandons it (its unconfirmed order is cancelled); /cancel says so. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';

const CANCEL = /^\/cancel(@\w+)?\b/;

export function flowCommands(s: Services): Composer<MyContext> {
  const abandon = async (ctx: MyContext) => {
    await ctx.conversation.exitAll();
    const uid = ctx.from!.id;
    s.journal.cancelCreatedFor(uid);
    s.pinGate.disarm(uid);
  };
  const composer = new Composer<MyContext>();
  composer.use(async (ctx, next) => {
    const text = ctx.message?.text;
    if (text?.startsWith('/')) {
      const active = Object.keys(ctx.conversation.active()).length > 0;
      if (active || CANCEL.test(text)) await abandon(ctx);
      if (CANCEL.test(text)) return void (await ctx.reply(active ? 'Cancelled. Nothing was bought.' : 'Nothing to cancel.'));
    }
    await next();
  });
  return composer;
}
