/** /balance and the menu's Balance button. Typed during a flow, it answers without ending the flow. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { menuButton } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { flowOpen } from '../flow/confirm';
import { STILL_OPEN } from '../flow/ui';
import { naira } from '../orders';

export function balanceFeature(s: Services) {
  const showBalance = async (ctx: MyContext) => {
    let text: string;
    try {
      text = `💰 Wallet balance: ${naira((await s.walletBalance()).kobo)}`;
    } catch (e) {
      text = failText(s, 'Could not read the balance', e);
    }
    // During a flow its buttons are the next step; a Menu button would only be swallowed by it.
    if (flowOpen(s, ctx)) await ctx.reply(text + STILL_OPEN);
    else await ctx.reply(text, { reply_markup: menuButton() });
  };
  const composer = new Composer<MyContext>();
  composer.command('balance', showBalance);
  return { composer, showBalance };
}
