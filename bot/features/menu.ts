/** /start (main menu) and /help. */
import { Composer } from 'grammy';
import { Menu } from '@grammyjs/menu';
import type { MyContext, Services } from '../context';
import { EXPIRED } from '../flow/ui';
import { naira } from '../orders';

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
      ...(s.access.isAdmin(ctx.from?.id) ? ['', 'Admin: /allow <id>, /deny <id>, /users'] : []),
    ].join('\n');

  const mainMenu = new Menu<MyContext>('main', { onMenuOutdated: EXPIRED })
    .text('📶 Buy data', (ctx) => ctx.conversation.enter('data'))
    .text('📞 Airtime', (ctx) => ctx.conversation.enter('airtime'))
    .row()
    .text('✉️ Bulk SMS', (ctx) => ctx.conversation.enter('sms'))
    .text('💰 Balance', show.balance)
    .row()
    .text('🧾 History', show.history)
    .text('❓ Help', (ctx) => ctx.reply(helpText(ctx)));

  const composer = new Composer<MyContext>();
  composer.use(mainMenu);
  composer.command('start', (ctx) => ctx.reply(`Hello ${ctx.from?.first_name ?? ''}! What would you like to do?`, { reply_markup: mainMenu }));
  composer.command('help', (ctx) => ctx.reply(helpText(ctx)));
  return composer;
}
