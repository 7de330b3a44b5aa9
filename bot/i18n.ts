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

/** Texts without variables, rendered once: the catalogue does not change while the bot runs. */
const plain = new Map<string, string>();

/**
 * A catalogue text in the default locale. Without variables it comes from `plain` (a profile of bench:bot showed
 * the plugin negotiating the locale and matching bundles on every call, for every button label).
 */
export function t(key: string, vars?: TextVars): string {
	if (vars !== undefined) return i18n.t(DEFAULT_LOCALE, key, vars);
	let text = plain.get(key);
	if (text === undefined) plain.set(key, (text = i18n.t(DEFAULT_LOCALE, key)));
	return text;
}
