/**
 * /language: one button per locale file (its `language-name`); the pick is stored per user (language.ts) and
 * every later text, notices included, is in it. In the registry only when locales/ has more than one file.
 */
import { Composer, InlineKeyboard } from 'grammy';
import type { MyContext, Services } from '../context';
import { cb, onCallback } from '../callback-data';
import { menuButton } from '../flow/keyboards';
import { localeCodes, localeName, t, withLocale } from '../i18n';
import type { Feature } from './registry';

function languageKeyboard(): InlineKeyboard {
	const kb = new InlineKeyboard();
	for (const code of localeCodes()) kb.text(localeName(code), cb.lang(code)).row();
	return kb;
}

export const language: Feature = {
	name: 'language',
	commands: [{ name: 'language', description: 'cmd-language', help: 'help-language' }],
	build: (s: Services) => {
		const composer = new Composer<MyContext>();
		onCallback(composer, ['lang'], async (ctx, tap) => {
			const userId = ctx.from.id;
			if (!localeCodes().includes(tap.code)) return void (await ctx.answerCallbackQuery({ text: t('button-expired') }));
			s.locales.set(userId, tap.code);
			await withLocale(tap.code, async () => {
				await ctx.answerCallbackQuery();
				await ctx.editMessageText(t('language-set', { language: localeName(tap.code) }), {
					reply_markup: menuButton(),
				});
			});
		});
		return {
			commands: { language: (ctx) => ctx.reply(t('language-choose'), { reply_markup: languageKeyboard() }) },
			composer,
		};
	},
};
