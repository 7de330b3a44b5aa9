/**
 * Admin commands: /allow, /deny, /users, /unlock (PIN lockout), /resetpin (forgotten PIN). Admins see
 * names, not bare IDs.
 */
import type { Services } from '../context';
import { mainMenuKeyboard, tryAgainKeyboard } from '../flow/keyboards';
import { adminFeature, type CommandHandler } from './registry';
import { t, withLocale } from '../i18n';
import type { InlineKeyboard } from 'grammy';

const parseId = (s: string) => (/^\d{1,15}$/.test(s.trim()) ? Number(s.trim()) : null);

function adminCommands(s: Services): Record<string, CommandHandler> {
	/**
	 * Tell a user something, in their language (`text` is rendered in it); they may never have opened the bot
	 * (Telegram then refuses).
	 */
	const tell = async (userId: number, text: () => string, markup?: () => InlineKeyboard) => {
		try {
			await withLocale(s.locales.of(userId), () =>
				s.api.sendMessage(userId, text(), { reply_markup: markup ? markup() : mainMenuKeyboard(s) }),
			);
			return true;
		} catch (e) {
			s.logger.warn('could not message user', { user: userId, err: e instanceof Error ? e.message : String(e) });
			return false;
		}
	};

	const allow: CommandHandler = async (ctx) => {
		const id = parseId(ctx.match);
		if (id === null) return void (await ctx.reply(t('admin-allow-usage')));
		s.access.allow(id, ctx.from!.id);
		s.logger.info('user allowed', { user: id, by: ctx.from!.id });
		const told = await tell(id, () => t('admin-welcome'));
		await ctx.reply(t(told ? 'admin-allowed-told' : 'admin-allowed-untold', { user: s.access.describe(id) }));
	};
	const deny: CommandHandler = async (ctx) => {
		const id = parseId(ctx.match);
		if (id === null) return void (await ctx.reply(t('admin-deny-usage')));
		if (!s.access.deny(id, ctx.from!.id)) return void (await ctx.reply(t('admin-cannot-deny-admin')));
		s.journal.cancelCreatedFor(id);
		s.logger.info('user denied', { user: id, by: ctx.from!.id });
		await ctx.reply(t('admin-denied', { user: s.access.describe(id) }));
	};
	const users: CommandHandler = (ctx) => {
		const pending = s.access.pendingRequests().map((id) => s.access.describe(id));
		const allowed = s.access.listAllowed().map((id) => s.access.describe(id));
		return ctx.reply(
			[t('admin-users'), ...allowed, ...(pending.length ? ['', t('admin-pending'), ...pending] : [])].join('\n'),
		);
	};
	const unlock: CommandHandler = async (ctx) => {
		const id = parseId(ctx.match);
		if (id === null) return void (await ctx.reply(t('admin-unlock-usage')));
		if (!s.pins.unlock(id)) return void (await ctx.reply(t('admin-no-pin', { user: s.access.describe(id) })));
		s.logger.info('PIN lockout reset', { user: id, by: ctx.from!.id });
		await tell(id, () => t('admin-unlocked-user'));
		await ctx.reply(t('admin-unlocked', { user: s.access.describe(id) }));
	};
	/** A forgotten PIN: the old one is dropped and the customer sets a new one (/unlock keeps it). */
	const resetpin: CommandHandler = async (ctx) => {
		const id = parseId(ctx.match);
		if (id === null) return void (await ctx.reply(t('admin-resetpin-usage')));
		if (!s.pins.reset(id)) return void (await ctx.reply(t('admin-no-pin', { user: s.access.describe(id) })));
		s.pinGate.disarm(id);
		s.logger.info('PIN reset', { user: id, by: ctx.from!.id });
		await tell(
			id,
			() => t('admin-resetpin-user'),
			() => tryAgainKeyboard('setpin', t('btn-set-pin')),
		);
		await ctx.reply(t('admin-resetpin-done', { user: s.access.describe(id) }));
	};
	return { allow, deny, users, unlock, resetpin };
}

export const admin = adminFeature(
	'admin',
	{ allow: 'cmd-allow', deny: 'cmd-deny', users: 'cmd-users', unlock: 'cmd-unlock', resetpin: 'cmd-resetpin' },
	adminCommands,
);
