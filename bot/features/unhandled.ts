/** Last in the chain: stale buttons and messages nothing else took. */
import { Composer } from 'grammy';
import type { MyContext } from '../context';
import { EXPIRED } from '../flow/ui';

export function unhandledFeature(): Composer<MyContext> {
  const composer = new Composer<MyContext>();
  composer.on('callback_query:data', (ctx) => ctx.answerCallbackQuery({ text: EXPIRED }));
  composer.on('message', (ctx) => ctx.reply('I did not understand that. Send /start for the menu or /help.'));
  return composer;
}
