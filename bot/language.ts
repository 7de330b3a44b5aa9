/**
 * Each user's language: the locale picked with /language (features/language.ts), kept like the PIN gate's
 * state in the bot's key/value storage (storage.ts `SqliteStorage`, table `kv`, key `locale:<user id>`), and
 * the middleware that renders each update in it (i18n.ts `withLocale`).
 */
import type { NextFunction } from 'grammy';
import type { DB } from './db';
import { DEFAULT_LOCALE, localeCodes, withLocale } from './i18n';
import { SqliteStorage } from './storage';

/**
 * The key of a user's locale in the key/value storage (its value: the locale code, JSON). Migration 7 (db.ts)
 * wrote the picks of the former `user_locales` table under the same keys.
 */
export function localeKey(userId: number): string {
	return `locale:${userId}`;
}

export class UserLocales {
	private readonly kv: SqliteStorage<string>;

	constructor(db: DB) {
		// the kv table, with JSON values, as the PIN gate and the conversations' storage read and write it
		this.kv = new SqliteStorage<string>(db);
	}

	/** The user's locale: the one picked, while its file is there, else the default. */
	of(userId: number | undefined): string {
		if (userId === undefined) return DEFAULT_LOCALE;
		const locale = this.kv.read(localeKey(userId));
		return locale !== undefined && localeCodes().includes(locale) ? locale : DEFAULT_LOCALE;
	}

	set(userId: number, locale: string): void {
		if (locale === DEFAULT_LOCALE) this.kv.delete(localeKey(userId));
		else this.kv.write(localeKey(userId), locale);
	}

	/** Runs the rest of the update in its user's locale (one locale only: nothing to read). */
	middleware() {
		return (ctx: { from?: { id: number } }, next: NextFunction) =>
			localeCodes().length > 1 ? withLocale(this.of(ctx.from?.id), next) : next();
	}
}
