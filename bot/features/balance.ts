/** /balance and the menu's Balance button. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { naira, userError } from '../orders';
import { errorCode } from '../vtu';

export function balanceFeature(s: Services) {
  const showBalance = async (ctx: MyContext) => {
    try {
      const bal = await s.client.user.balance();
      await ctx.reply(`💰 Wallet balance: ${naira(bal.kobo)}`);
    } catch (e) {
      await ctx.reply(`Could not read the balance: ${userError(errorCode(e) ?? null, e instanceof Error ? e.message : null)}`);
    }
  };
  const composer = new Composer<MyContext>();
  composer.command('balance', showBalance);
  return { composer, showBalance };
}
