/**
 * Each user's language: the locale picked with /language (features/language.ts), kept in the bot's SQLite
 * (`user_locales`), and the middleware that renders each update in it (i18n.ts `withLocale`).
 */
import type { NextFunction } from 'grammy';
import type { DB } from './db';
import { DEFAULT_LOCALE, localeCodes, withLocale } from './i18n';

export class UserLocales {
	private readonly stmts;

	constructor(
		db: DB,
		private readonly now: () => number,
	) {
		this.stmts = {
			get: db.prepare(`SELECT locale FROM user_locales WHERE user_id = ?`),
			set: db.prepare(
				`INSERT INTO user_locales (user_id, locale, changed_at) VALUES (?, ?, ?)
         ON CONFLICT(user_id) DO UPDATE SET locale = excluded.locale, changed_at = excluded.changed_at`,
			),
			clear: db.prepare(`DELETE FROM user_locales WHERE user_id = ?`),
		};
	}

	/** The user's locale: the one picked, while its file is there, else the default. */
	of(userId: number | undefined): string {
		if (userId === undefined) return DEFAULT_LOCALE;
		const row = this.stmts.get.get(userId) as { locale: string } | undefined;
		return row && localeCodes().includes(row.locale) ? row.locale : DEFAULT_LOCALE;
	}

	set(userId: number, locale: string): void {
		if (locale === DEFAULT_LOCALE) this.stmts.clear.run(userId);
		else this.stmts.set.run(userId, locale, this.now());
	}

	/** Runs the rest of the update in its user's locale (one locale only: nothing to read). */
	middleware() {
		return (ctx: { from?: { id: number } }, next: NextFunction) =>
			localeCodes().length > 1 ? withLocale(this.of(ctx.from?.id), next) : next();
	}
}
