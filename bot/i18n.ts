/**
 * The message catalogue: every user-facing text of the bot is a Fluent message in locales/<lang>.ftl,
 * loaded by grammY's i18n plugin (@grammyjs/i18n). English only for now, so `t` renders the default
 * locale everywhere (in updates, in conversations and in the follower's notices, which have no update).
 * A second language needs its .ftl file and a locale per user (the plugin's middleware and negotiator,
 * `ctx.t` instead of `t` where an update is at hand, and the user's locale stored for notices).
 *
 * Values are passed pre-formatted (naira as "₦1,000.00", phones as "0803 123 4567") so Fluent does
 * no number formatting of its own; Unicode isolation marks are off (plain-text chat messages).
 */
import { join } from 'node:path';
import { I18n, type I18nFlavor } from '@grammyjs/i18n';
import type { Context } from 'grammy';

export type TextVars = Record<string, string | number>;

export const DEFAULT_LOCALE = 'en';

export const i18n = new I18n<Context & I18nFlavor>({
	defaultLocale: DEFAULT_LOCALE,
	directory: join(__dirname, 'locales'),
	useSession: false,
	fluentBundleOptions: { useIsolating: false },
	fluentOptions: {
		// A missing message is a bug: fail loudly instead of sending the key to a user.
		warningHandler: (w) => {
			throw new Error(
				`message catalogue: ${'messageId' in w ? w.messageId : w.path} is missing (${w.locales.join(', ')})`,
			);
		},
	},
});

/** A catalogue text in the default locale. */
export function t(key: string, vars?: TextVars): string {
	return i18n.t(DEFAULT_LOCALE, key, vars);
}
