/**
 * What every update passes before any feature: update dedupe, rate limit, allowlist, private
 * chats only. Each gate drops (and, where useful, answers) what it refuses.
 */
import { Composer } from 'grammy';
import { limit } from '@grammyjs/ratelimiter';
import type { MyContext, Services } from '../context';
import { t } from '../i18n';
import { tellAdmins } from '../owner-alerts';

/** Remembers update ids across instances (Redis); the default is the SQLite `seen_updates` table. */
export interface UpdateDedupe {
	/** True the first time an update id is seen, false for a duplicate. */
	firstSeen(updateId: number): Promise<boolean> | boolean;
}

export interface RateLimitRedis {
	incr(key: string): Promise<number>;
	pexpire(key: string, ms: number): Promise<number>;
}

export interface GateOptions {
	updateDedupe?: UpdateDedupe;
	rateLimit: number;
	rateWindowMs: number;
	rateLimitRedis?: RateLimitRedis;
}

export function gates(s: Services, o: GateOptions): Composer<MyContext> {
	const { journal, logger, access } = s;
	const firstSeen = async (updateId: number): Promise<boolean> => {
		if (!o.updateDedupe) return journal.firstSeen(updateId);
		try {
			return await o.updateDedupe.firstSeen(updateId);
		} catch (e) {
			// Redis unreachable: the journal file is shared by the instances too, so dedupe there.
			logger.warn('shared update dedupe failed, using the journal', { update: updateId, err: e });
			return journal.firstSeen(updateId);
		}
	};
	const composer = new Composer<MyContext>();
	composer.use(async (ctx, next) => {
		if (!(await firstSeen(ctx.update.update_id))) {
			logger.info('duplicate update ignored', { update: ctx.update.update_id });
			return;
		}
		await next();
	});

	composer.use(
		limit<MyContext, RateLimitRedis>({
			timeFrame: o.rateWindowMs,
			limit: o.rateLimit,
			keyGenerator: (ctx) => ctx.from?.id.toString(),
			...(o.rateLimitRedis ? { storageClient: o.rateLimitRedis } : {}),
			onLimitExceeded: (ctx) => {
				logger.warn('rate limited', { user: ctx.from?.id });
				if (ctx.callbackQuery) void ctx.answerCallbackQuery({ text: t('gate-slow-down') }).catch(() => undefined);
			},
		}),
	);

	composer.use(async (ctx, next) => {
		const uid = ctx.from?.id;
		if (uid === undefined) return;
		access.remember(ctx.from!);
		// A storefront serves anyone who opens it; the till only its staff.
		if (s.storefront || access.isAllowed(uid)) return next();
		logger.info('stranger refused', { user: uid });
		// a stranger asking for the till: its admins are told once (they answer with /allow)
		if (access.requestAccess(uid))
			await tellAdmins(s, () => t('owner-access-request', { user: access.describe(uid), id: String(uid) }));
		if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: t('gate-not-allowed') });
		else if (ctx.chat?.type === 'private' && ctx.message) {
			await ctx.reply(t('gate-private-bot', { id: String(uid) }));
		}
	});

	composer.use(async (ctx, next) => {
		if (ctx.chat?.type === 'private') return next();
		if (ctx.callbackQuery) return void (await ctx.answerCallbackQuery({ text: t('gate-private-chat-only') }));
		if (ctx.message?.text?.startsWith('/') && ctx.chat) {
			await ctx.reply(t('gate-private-chat', { bot: ctx.me.username }));
		}
	});
	return composer;
}
