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

/** What the plugin's Fluent keeps per locale (not in its typings: `matchBundles` is private). */
type Bundle = {
	getMessage(id: string): { value: unknown; attributes: Record<string, unknown> } | undefined;
	formatPattern(pattern: unknown, vars: TextVars): string;
};
let bundle: Bundle | null | undefined;

/**
 * The default locale's bundle, looked up once: the plugin negotiates the locale and matches bundles on every
 * call (a profile of bench:bot: 1.5% of the bot's CPU and 5% of what it allocated, in @fluent/langneg).
 * null when the plugin no longer has that shape: texts then go through `i18n.t` as before.
 */
function defaultBundle(): Bundle | null {
	if (bundle !== undefined) return bundle;
	const fluent = i18n.fluent as unknown as { matchBundles?: (locales: string[]) => Set<Bundle> };
	const first = fluent.matchBundles?.call(fluent, [DEFAULT_LOCALE]).values().next().value;
	return (bundle = typeof first?.formatPattern === 'function' ? first : null);
}

/** A text with variables: the bundle's pattern formatted as the plugin does (its first error thrown). */
function withVars(key: string, vars: TextVars): string {
	const b = defaultBundle();
	const [id, attribute] = key.split('.', 2);
	const message = b?.getMessage(id);
	const pattern = attribute ? message?.attributes[attribute] : message?.value;
	// a missing message or attribute: the plugin's path, whose warning handler throws
	if (!b || pattern === undefined || pattern === null) return i18n.t(DEFAULT_LOCALE, key, vars);
	return b.formatPattern(pattern, vars);
}

/**
 * A catalogue text in the default locale. Without variables it comes from `plain` (a profile of bench:bot showed
 * the plugin negotiating the locale and matching bundles on every call, for every button label).
 */
export function t(key: string, vars?: TextVars): string {
	if (vars !== undefined) return withVars(key, vars);
	let text = plain.get(key);
	if (text === undefined) plain.set(key, (text = i18n.t(DEFAULT_LOCALE, key)));
	return text;
}
