/** /start and the main menu, /help (its lines come from the registry), and every final message's Menu button. */
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard } from '../flow/keyboards';
import { t } from '../i18n';
import { naira } from '../orders';
import { commandsOf, type Feature } from './registry';
import { FEATURES } from '.';

function helpText(s: Services, ctx: MyContext): string {
  const isAdmin = s.access.isAdmin(ctx.from?.id);
  const lines = commandsOf(FEATURES, { admin: false }).flatMap((c) => (c.help ? [t(c.help)] : []));
  const admins = commandsOf(FEATURES, { admin: true }).filter((c) => c.admin).map((c) => `/${c.name}`);
  return [
    'I buy data, airtime and bulk SMS from the merchant wallet.',
    '',
    ...lines,
    '',
    `Limits: ${naira(s.cfg.maxPurchaseKobo)} per purchase, ${naira(s.cfg.dailyLimitKobo)} per day (${naira(Math.max(0, s.cfg.dailyLimitKobo - s.journal.spentToday(ctx.from!.id)))} left today).`,
    s.cfg.pinRequired ? 'A PIN is asked before every purchase.' : 'No PIN is required.',
    ...(isAdmin ? ['', `Admin: ${admins.join(', ')} (with a user ID)`] : []),
  ].join('\n');
}

const showMenu = (ctx: MyContext) => ctx.reply('What would you like to do?', { reply_markup: mainMenuKeyboard() });

export const menu: Feature = {
  name: 'menu',
  commands: [{ name: 'start', description: 'cmd-start' }],
  build: () => ({
    commands: { start: (ctx) => ctx.reply(`Hello ${ctx.from?.first_name ?? ''}! What would you like to do?`, { reply_markup: mainMenuKeyboard() }) },
    places: { menu: showMenu },
  }),
};

export const help: Feature = {
  name: 'help',
  commands: [{ name: 'help', description: 'cmd-help' }],
  menu: { label: 'menu-help', place: 'help', row: 2 },
  build: (s) => {
    const showHelp = (ctx: MyContext) => ctx.reply(helpText(s, ctx), { reply_markup: mainMenuKeyboard() });
    return { commands: { help: showHelp }, places: { help: showHelp } };
  },
};
