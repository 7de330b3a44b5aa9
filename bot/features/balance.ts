/** /balance and the menu's Balance button. Typed during a flow, it answers without ending the flow. */
import type { MyContext, Services } from '../context';
import { menuButton } from '../flow/keyboards';
import { failText } from '../flow/pickers';
import { flowOpen } from '../flow/confirm';
import { stillOpen } from '../flow/ui';
import { t } from '../i18n';
import { naira } from '../orders';
import type { Feature } from './registry';

export function balanceFeature(s: Services) {
	const showBalance = async (ctx: MyContext) => {
		let text: string;
		try {
			text = t('balance-text', { balance: naira((await s.walletBalance()).kobo) });
		} catch (e) {
			text = failText(s, t('balance-failed'), e);
		}
		// During a flow its buttons are the next step; a Menu button would only be swallowed by it.
		if (flowOpen(s, ctx)) await ctx.reply(text + stillOpen());
		else await ctx.reply(text, { reply_markup: menuButton() });
	};
	return { showBalance };
}

export const balance: Feature = {
	name: 'balance',
	commands: [{ name: 'balance', description: 'cmd-balance', help: 'help-balance', keepsFlow: true }],
	menu: { label: 'menu-balance', place: 'balance', row: 3 },
	build: (s) => {
		const { showBalance } = balanceFeature(s);
		return { commands: { balance: showBalance }, places: { balance: showBalance } };
	},
};
