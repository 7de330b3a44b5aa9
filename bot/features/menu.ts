/** /start and the main menu, /help (its lines come from the registry), and every final message's Menu button. */
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard } from '../flow/keyboards';
import { flowOpen } from '../flow/confirm';
import { stillOpen } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import { commandsOf, type Feature } from './registry';

function helpText(s: Services, ctx: MyContext): string {
	const isAdmin = s.access.isAdmin(ctx.from?.id);
	const lines = commandsOf(s.features, { admin: false }).flatMap((c) => (c.help ? [t(c.help)] : []));
	const admins = commandsOf(s.features, { admin: true })
		.filter((c) => c.admin)
		.map((c) => `/${c.name}`);
	return [
		t('help-intro'),
		'',
		...lines,
		'',
		t('help-limits', {
			max: naira(s.cfg.maxPurchaseKobo),
			daily: naira(s.cfg.dailyLimitKobo),
			left: naira(Math.max(0, s.cfg.dailyLimitKobo - s.journal.spentToday(ctx.from!.id))),
		}),
		s.cfg.pinRequired ? t('help-pin-required') : t('help-no-pin'),
		...(isAdmin ? ['', t('help-admin', { commands: admins.join(', ') })] : []),
	].join('\n');
}

const showMenu = (s: Services) => (ctx: MyContext) =>
	ctx.reply(t('menu-question'), { reply_markup: mainMenuKeyboard(s) });

export const menu: Feature = {
	name: 'menu',
	commands: [{ name: 'start', description: 'cmd-start' }],
	build: (s) => ({
		commands: {
			start: (ctx) =>
				ctx.reply(t('menu-hello', { name: ctx.from?.first_name ?? '' }), { reply_markup: mainMenuKeyboard(s) }),
		},
		places: { menu: showMenu(s) },
	}),
};

export const help: Feature = {
	name: 'help',
	// a reading command: typed during a flow (or a purchase) it answers at once and the flow stays open
	commands: [{ name: 'help', description: 'cmd-help', keepsFlow: true }],
	menu: { label: 'menu-help', place: 'help', row: 4 },
	build: (s) => {
		const showHelp = (ctx: MyContext) =>
			flowOpen(s, ctx)
				? ctx.reply(helpText(s, ctx) + stillOpen())
				: ctx.reply(helpText(s, ctx), { reply_markup: mainMenuKeyboard(s) });
		return { commands: { help: showHelp }, places: { help: showHelp } };
	},
};
