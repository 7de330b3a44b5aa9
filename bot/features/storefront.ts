/**
 * Storefront mode's own features: /start registers the customer and opens their receiving account,
 * /fund shows it again, /balance shows the customer's wallet (never the vendor's), /help. Buying data and
 * airtime reuses the till's flows, whose confirm step goes to the storefront (bot/storefront/confirm.ts).
 */
import type { MyContext, Services } from '../context';
import { mainMenuKeyboard, menuButton } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { flowOpen } from '../flow/confirm';
import { stillOpen } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import { commandsOf, type Feature } from './registry';
import { features } from '.';

/** The customer's account at the provider (opened on first use) and wallet, as a message. */
async function accountText(s: Services, ctx: MyContext): Promise<string> {
	const side = s.storefront!;
	try {
		const a = await side.register(ctx.from!);
		const w = await side.wallet(ctx.from!.id);
		return t('sf-account', { account: a.accountNumber, bank: a.bankName ?? '', balance: naira(w.available) });
	} catch (e) {
		return failText(s, t('sf-account-failed'), e);
	}
}

export const storefrontMenu: Feature = {
	name: 'storefront-menu',
	commands: [{ name: 'start', description: 'cmd-start' }],
	build: (s) => ({
		commands: {
			start: async (ctx) => {
				const text = await accountText(s, ctx);
				await ctx.reply(`${t('sf-hello', { name: ctx.from?.first_name ?? '' })}\n\n${text}`, {
					reply_markup: mainMenuKeyboard(),
				});
			},
		},
		places: { menu: (ctx) => ctx.reply(t('menu-question'), { reply_markup: mainMenuKeyboard() }) },
	}),
};

export const storefrontFund: Feature = {
	name: 'storefront-fund',
	commands: [{ name: 'fund', description: 'cmd-fund', help: 'help-fund', keepsFlow: true }],
	menu: { label: 'menu-fund', place: 'fund', row: 3 },
	build: (s) => {
		const show = async (ctx: MyContext) => {
			const text = await accountText(s, ctx);
			if (flowOpen(s, ctx)) await ctx.reply(text + stillOpen());
			else await ctx.reply(text, { reply_markup: menuButton() });
		};
		return { commands: { fund: show }, places: { fund: show } };
	},
};

export const storefrontBalance: Feature = {
	name: 'storefront-balance',
	commands: [{ name: 'balance', description: 'cmd-balance', help: 'help-sf-balance', keepsFlow: true }],
	menu: { label: 'menu-balance', place: 'balance', row: 3 },
	build: (s) => {
		const show = async (ctx: MyContext) => {
			let text: string;
			try {
				const w = await s.storefront!.wallet(ctx.from!.id);
				text = t(w.held > 0 ? 'sf-balance-held' : 'sf-balance', {
					balance: naira(w.available),
					held: naira(w.held),
				});
			} catch (e) {
				text = failText(s, t('balance-failed'), e);
			}
			if (flowOpen(s, ctx)) await ctx.reply(text + stillOpen());
			else await ctx.reply(text, { reply_markup: menuButton() });
		};
		return { commands: { balance: show }, places: { balance: show } };
	},
};

export const storefrontHelp: Feature = {
	name: 'storefront-help',
	// a reading command: typed during a flow (or a purchase) it answers at once and the flow stays open
	commands: [{ name: 'help', description: 'cmd-help', keepsFlow: true }],
	menu: { label: 'menu-help', place: 'help', row: 4 },
	build: (s) => {
		const show = (ctx: MyContext) => {
			const lines = commandsOf(features(), { admin: false }).flatMap((c) => (c.help ? [t(c.help)] : []));
			const text = [t('sf-help-intro'), '', ...lines].join('\n');
			if (flowOpen(s, ctx)) return ctx.reply(text + stillOpen());
			return ctx.reply(text, { reply_markup: mainMenuKeyboard() });
		};
		return { commands: { help: show }, places: { help: show } };
	},
};
