/**
 * The message catalogue (bot/locales/en.ftl) is complete and has no dead texts: every catalogue key the
 * bot's code names exists, every message in the file is used by the code, and a missing key fails loudly.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../../bot/i18n';

const ROOT = join(__dirname, '..', '..');
const ftl = readFileSync(join(ROOT, 'bot', 'locales', 'en.ftl'), 'utf8');
const keys = new Set([...ftl.matchAll(/^([a-z][a-z0-9-]*) =/gm)].map((m) => m[1]));
const prefixes = new Set([...keys].map((k) => k.split('-')[0]));

function sources(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) return sources(p);
		return p.endsWith('.ts') ? [readFileSync(p, 'utf8')] : [];
	});
}

const code = [...sources(join(ROOT, 'bot')), readFileSync(join(ROOT, 'bench', 'floor-bot.ts'), 'utf8')].join('\n');
/** Quoted strings in the code shaped like catalogue keys ("confirm-gets", 'cmd-data'). */
const named = new Set(
	[...code.matchAll(/['"`]([a-z][a-z0-9]*(?:-[a-z0-9]+)+)['"`]/g)]
		.map((m) => m[1])
		.filter((k) => prefixes.has(k.split('-')[0])),
);

test("the catalogue parses and holds the bot's messages", () => {
	expect(keys.size).toBeGreaterThan(150);
	expect(t('confirm-question-for', { price: '₦250.00', target: '0803 123 4567 (MTN)' })).toBe(
		'Confirm ₦250.00 for 0803 123 4567 (MTN)?',
	);
	// Plural selection, and no Unicode isolation marks around values in plain-text chat messages.
	expect(t('sms-numbers', { n: 1 })).toBe('1 number');
	expect(t('sms-numbers', { n: 3 })).toBe('3 numbers');
	expect(t('balance-text', { balance: '₦5.00' })).not.toMatch(/[\u2068\u2069]/);
});

test('every key the code names is in the catalogue', () => {
	const missing = [...named].filter((k) => !keys.has(k));
	expect(missing).toEqual([]);
});

test('every message of the catalogue is used by the code', () => {
	const unused = [...keys].filter((k) => !named.has(k));
	expect(unused).toEqual([]);
});

test('a missing message throws instead of sending its key to a user', () => {
	expect(() => t('no-such-message')).toThrow(/no-such-message is missing/);
});
