/**
 * The message catalogue: every user-facing text of the bot is a Fluent message in locales/<lang>.ftl,
 * loaded by grammY's i18n plugin (@grammyjs/i18n). A language is a file: each .ftl of locales/ is a locale a
 * user can pick with /language (features/language.ts), stored per user (language.ts). `t` renders in the
 * locale of the code running: `withLocale` (AsyncLocalStorage) is entered once per update by a middleware
 * and by the follower for each notice, so no ctx is threaded through. Outside them, and for the default
 * locale, `t` takes the fast path of the default bundle; a message a translation lacks is the default's.
 *
 * Values are passed pre-formatted (naira as "₦1,000.00", phones as "0803 123 4567") so Fluent does
 * no number formatting of its own; Unicode isolation marks are off (plain-text chat messages).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
/** The same for the other locales, keyed `<locale>\n<key>`. */
const plainIn = new Map<string, string>();

/** The locale of the update or notice being handled (none: the default). */
const current = new AsyncLocalStorage<string>();

/**
 * Run `fn` with `t` rendering in `locale` (the default one when it has no file). Already in the default, it
 * just runs: on Node 20 the first `run` turns on promise hooks for the whole process, a cost per promise that a
 * bot with English only (or an English-speaking user's notice) need not pay.
 */
export function withLocale<T>(locale: string | undefined, fn: () => T): T {
	const target = locale && locale !== DEFAULT_LOCALE && bundleOf(locale) ? locale : DEFAULT_LOCALE;
	if (target === DEFAULT_LOCALE && currentLocale() === DEFAULT_LOCALE) return fn();
	return current.run(target, fn);
}

/** The locale `t` renders in here. */
export function currentLocale(): string {
	return current.getStore() ?? DEFAULT_LOCALE;
}

/** Load more locale files (a directory of <locale>.ftl) beside locales/: createBot's `localesDir` (tests). */
export function loadLocales(directory: string): void {
	i18n.loadLocalesDirSync(directory);
	bundles.clear();
	codes = undefined;
}

let codes: readonly string[] | undefined;

/** The locales of the catalogue, the default first. */
export function localeCodes(): readonly string[] {
	return (codes ??= [DEFAULT_LOCALE, ...i18n.locales.filter((l) => l !== DEFAULT_LOCALE).sort()]);
}

/** A locale's own name (its `language-name` message), or its code when its file has none. */
export function localeName(locale: string): string {
	const b = bundleOf(locale);
	const m = b?.getMessage('language-name');
	return b && m?.value ? b.formatPattern(m.value, {}) : locale;
}

/** What the plugin's Fluent keeps per locale (not in its typings: `matchBundles` is private). */
type Bundle = {
	locales: string[];
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

/** Bundles of the other locales, by locale (null: no file for it). */
const bundles = new Map<string, Bundle | null>();

function bundleOf(locale: string): Bundle | null {
	let b = bundles.get(locale);
	if (b !== undefined) return b;
	const all = (i18n.fluent as unknown as { bundles?: Set<Bundle> }).bundles ?? new Set<Bundle>();
	b = [...all].find((x) => x.locales.includes(locale) && typeof x.formatPattern === 'function') ?? null;
	bundles.set(locale, b);
	return b;
}

/** The pattern of `key` (`message` or `message.attribute`) in a bundle, if it has it. */
function patternOf(b: Bundle | null, key: string): unknown {
	const [id, attribute] = key.split('.', 2);
	const message = b?.getMessage(id);
	const pattern = attribute ? message?.attributes[attribute] : message?.value;
	return pattern ?? undefined;
}

/** A text with variables: the bundle's pattern formatted as the plugin does (its first error thrown). */
function withVars(key: string, vars: TextVars): string {
	const b = defaultBundle();
	const pattern = patternOf(b, key);
	// a missing message or attribute: the plugin's path, whose warning handler throws
	if (!b || pattern === undefined) return i18n.t(DEFAULT_LOCALE, key, vars);
	return b.formatPattern(pattern, vars);
}

/**
 * A text in another locale: its translation, or the default's when the file lacks it (or formatting it fails):
 * a partial translation never sends a key or stops a reply.
 */
function translated(locale: string, key: string, vars: TextVars | undefined): string {
	const b = bundleOf(locale);
	const pattern = patternOf(b, key);
	if (!b || pattern === undefined) return inDefault(key, vars);
	if (vars !== undefined) {
		try {
			return b.formatPattern(pattern, vars);
		} catch {
			return inDefault(key, vars);
		}
	}
	const k = `${locale}\n${key}`;
	let text = plainIn.get(k);
	if (text === undefined) {
		try {
			text = b.formatPattern(pattern, {});
		} catch {
			text = inDefault(key, undefined);
		}
		plainIn.set(k, text);
	}
	return text;
}

/**
 * A catalogue text in the current locale (withLocale). In the default locale, without variables it comes from
 * `plain` (a profile of bench:bot showed the plugin negotiating the locale and matching bundles on every call,
 * for every button label).
 */
export function t(key: string, vars?: TextVars): string {
	const locale = current.getStore();
	if (locale !== undefined && locale !== DEFAULT_LOCALE) return translated(locale, key, vars);
	return inDefault(key, vars);
}

/** A catalogue text in the default locale. */
function inDefault(key: string, vars: TextVars | undefined): string {
	if (vars !== undefined) return withVars(key, vars);
	let text = plain.get(key);
	if (text === undefined) plain.set(key, (text = i18n.t(DEFAULT_LOCALE, key)));
	return text;
}
