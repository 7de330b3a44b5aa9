/**
 * Storefront mode's own features: /start registers the customer and opens their receiving account,
 * /fund shows it again, /balance shows the customer's wallet (never the vendor's), /help. Buying data and
 * airtime reuses the till's flows, whose confirm step goes to the storefront (bot/storefront/confirm.ts).
 */
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard } from '../flow/keyboards';
import { t } from '../i18n';
import { naira } from '../orders';
import { commandsOf, type Feature } from './registry';
import { orFailed, readingFeature, replyReading } from './reading';

/** The customer's account at the provider (opened on first use) and wallet, as a message. */
async function accountText(s: Services, ctx: MyContext): Promise<string> {
	const side = s.storefront!;
	const a = await side.register(ctx.from!);
	const w = await side.wallet(ctx.from!.id);
	return t('sf-account', { account: a.accountNumber, bank: a.bankName ?? '', balance: naira(w.available) });
}

export const storefrontMenu: Feature = {
	name: 'storefront-menu',
	commands: [{ name: 'start', description: 'cmd-start' }],
	build: (s) => ({
		commands: {
			start: async (ctx) => {
				const text = await orFailed(s, 'sf-account-failed', () => accountText(s, ctx));
				await ctx.reply(`${t('sf-hello', { name: ctx.from?.first_name ?? '' })}\n\n${text}`, {
					reply_markup: mainMenuKeyboard(s),
				});
			},
		},
		places: { menu: (ctx) => ctx.reply(t('menu-question'), { reply_markup: mainMenuKeyboard(s) }) },
	}),
};

export const storefrontFund = readingFeature('storefront-fund', 'fund', {
	command: { name: 'fund', description: 'cmd-fund', help: 'help-fund' },
	menu: { label: 'menu-fund', row: 3 },
	read: accountText,
	failed: 'sf-account-failed',
});

/** The customer's wallet, never the vendor's; money held for an order still being bought is shown apart. */
export const storefrontBalance = readingFeature('storefront-balance', 'balance', {
	command: { name: 'balance', description: 'cmd-balance', help: 'help-sf-balance' },
	menu: { label: 'menu-balance', row: 3 },
	read: async (s, ctx) => {
		const w = await s.storefront!.wallet(ctx.from!.id);
		return t(w.held > 0 ? 'sf-balance-held' : 'sf-balance', { balance: naira(w.available), held: naira(w.held) });
	},
	failed: 'balance-failed',
});

export const storefrontHelp: Feature = {
	name: 'storefront-help',
	// a reading command: typed during a flow (or a purchase) it answers at once and the flow stays open
	commands: [{ name: 'help', description: 'cmd-help', keepsFlow: true }],
	menu: { label: 'menu-help', place: 'help', row: 4 },
	build: (s) => {
		const show = (ctx: MyContext) => {
			const lines = commandsOf(s.features, { admin: false }).flatMap((c) => (c.help ? [t(c.help)] : []));
			const text = [t('sf-help-intro'), '', ...lines].join('\n');
			return replyReading(s, ctx, text, mainMenuKeyboard(s));
		};
		return { commands: { help: show }, places: { help: show } };
	},
};
