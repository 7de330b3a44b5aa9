/** Last in the chain: buttons no flow or feature took, and messages nothing understood. */
import { Composer } from 'grammy';
import type { MyContext, Services } from '../context';
import { confirmWaiting } from '../flow/confirm';
import { mainMenuKeyboard } from '../flow/keyboards';
import { EXPIRED } from '../flow/ui';
import { t } from '../i18n';
import type { Feature } from './registry';

export function unhandledFeature(s: Services): Composer<MyContext> {
	const composer = new Composer<MyContext>();
	composer.on('callback_query:data', (ctx) => ctx.answerCallbackQuery({ text: t(EXPIRED) }));
	composer.on('message', async (ctx) => {
		if (confirmWaiting(s, ctx.from.id)) return void (await ctx.reply(t('unhandled-confirm-waiting')));
		await ctx.reply(t('unhandled-text'), { reply_markup: mainMenuKeyboard(s) });
	});
	return composer;
}

export const unhandled: Feature = { name: 'unhandled', build: (s) => ({ composer: unhandledFeature(s) }) };
