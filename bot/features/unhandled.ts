/** Last in the chain: buttons no flow or feature took, and messages nothing understood. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard } from '../flow/keyboards';
import { EXPIRED } from '../flow/ui';

/** Orders whose Confirm was already used: a replayed tap is told so instead of "expired". */
const USED = new Set(['sent', 'successful', 'processing', 'unknown', 'failed', 'not_charged']);

export function unhandledFeature(s: Services): Composer<MyContext> {
  const composer = new Composer<MyContext>();
  composer.callbackQuery(/^confirm:([\w-]+)$/, async (ctx) => {
    const o = s.journal.get(ctx.match[1]);
    if (o && o.userId === ctx.from.id && USED.has(o.state)) return void (await ctx.answerCallbackQuery({ text: `Already bought (ref ${o.ident ?? o.id})` }));
    await ctx.answerCallbackQuery({ text: EXPIRED });
  });
  composer.on('callback_query:data', (ctx) => ctx.answerCallbackQuery({ text: EXPIRED }));
  composer.on('message', (ctx) => ctx.reply('I did not understand that. What would you like to do?', { reply_markup: mainMenuKeyboard() }));
  return composer;
}
