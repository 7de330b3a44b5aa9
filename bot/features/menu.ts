/** /start (main menu), /help, and the `go:<place>` buttons that every final message carries. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard, type Place } from '../flow/keyboards';
import { naira } from '../orders';
import { ADMIN_ONLY } from './admin';
import { onCallback } from '../callback-data';

export function menuFeature(s: Services, show: { balance: (ctx: MyContext) => Promise<void>; history: (ctx: MyContext) => Promise<void> }): Composer<MyContext> {
  const helpText = (ctx: MyContext) =>
    [
      'I buy data, airtime and bulk SMS from the merchant wallet.',
      '',
      '/data – buy a data plan',
      '/airtime – buy airtime',
      '/sms – send bulk SMS (paste numbers or send a .txt/.csv file)',
      '/balance – wallet balance',
      '/history – your recent orders',
      '/status <reference> – one order',
      '/setpin – set or change your purchase PIN',
      '/cancel – stop the current step',
      '',
      `Limits: ${naira(s.cfg.maxPurchaseKobo)} per purchase, ${naira(s.cfg.dailyLimitKobo)} per day (${naira(Math.max(0, s.cfg.dailyLimitKobo - s.journal.spentToday(ctx.from!.id)))} left today).`,
      s.cfg.pinRequired ? 'A PIN is asked before every purchase.' : 'No PIN is required.',
      ...(s.access.isAdmin(ctx.from?.id) ? ['', `Admin: ${ADMIN_ONLY.map((c) => `/${c}`).join(', ')} (with a user ID)`] : []),
    ].join('\n');
  const showMenu = (ctx: MyContext) => ctx.reply('What would you like to do?', { reply_markup: mainMenuKeyboard() });
  const showHelp = (ctx: MyContext) => ctx.reply(helpText(ctx), { reply_markup: mainMenuKeyboard() });

  const go: Record<Place, (ctx: MyContext) => Promise<unknown>> = {
    menu: showMenu,
    help: showHelp,
    balance: show.balance,
    history: show.history,
    data: (ctx) => ctx.conversation.enter('data'),
    airtime: (ctx) => ctx.conversation.enter('airtime'),
    sms: (ctx) => ctx.conversation.enter('sms'),
    setpin: (ctx) => ctx.conversation.enter('setpin'),
  };

  const composer = new Composer<MyContext>();
  composer.command('start', (ctx) => ctx.reply(`Hello ${ctx.from?.first_name ?? ''}! What would you like to do?`, { reply_markup: mainMenuKeyboard() }));
  composer.command('help', showHelp);
  onCallback(composer, ['go'], async (ctx, tap) => {
    await ctx.answerCallbackQuery();
    await go[tap.place](ctx);
  });
  return composer;
}
