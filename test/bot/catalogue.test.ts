/**
 * The message catalogue (bot/locales/en.ftl) is complete and has no dead texts: every catalogue key the
 * bot's code names exists, every message in the file is used by the code and renders, and a missing key fails
 * loudly. A refused typed value is said by a catalogue text (bot/refusals.ts), never by the client's message.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../../bot/i18n';
import { refusalWords } from '../../bot/refusals';
import {
	checkMessage,
	checkSender,
	parseAmount,
	parseDigits,
	parseMobile,
	parseNaira,
	parseQuantity,
} from '../../bot/vtu';
import { VtuError, VtuInvalidInputError } from '../../client/errors';
import { dayBounds } from '../../store/report';

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

/** Every variable a message (or its plural branches) names: `{ $name }`. */
function variablesOf(key: string): string[] {
	const body = ftl.split(new RegExp(`^${key} =`, 'm'))[1].split(/^\S/m)[0];
	return [...new Set([...body.matchAll(/\{\s*\$([A-Za-z]+)/g)].map((m) => m[1]))];
}

test('every message renders with its variables, and no placeholder is left in the text', () => {
	for (const key of keys) {
		const vars = Object.fromEntries(variablesOf(key).map((v) => [v, 2]));
		const rendered = t(key, vars);
		expect(rendered).not.toMatch(/\{\s*\$|\{\?\}|[\u2068\u2069]/);
		expect(rendered.trim()).not.toBe('');
	}
});

/** A text that is exactly one catalogue message, whatever its variables (each variable any text). */
const catalogueText = (() => {
	const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	// messages with words of their own (not "{ $day }" alone, which would match any text)
	const sources = [...keys].flatMap((key) => {
		const parts = t(key, Object.fromEntries(variablesOf(key).map((v) => [v, '\u0001']))).split('\u0001');
		return parts.join('').trim().length < 8 ? [] : [parts.map(escape).join('[^]*')];
	});
	const all = new RegExp(`^(?:${sources.join('|')})$`);
	return (s: string) => all.test(s);
})();

/** What the client and the store refuse, as the bot meets it: typed in a flow or in an owner's command. */
const refused: [string, () => unknown][] = [
	['amount ₦1,500', () => parseAmount('₦1,500', 'amount')],
	['amount 1.555', () => parseAmount('1.555', 'amount')],
	['amount -5', () => parseAmount('-5', 'amount')],
	['amount letters', () => parseAmount('two hundred', 'amount')],
	['amount far too large', () => parseAmount('123456789012345', 'amount')],
	['naira letters (/credit)', () => parseNaira('two', 'amount')],
	['quantity 40 of 1..39', () => parseQuantity('40', 'quantity', 1, 39)],
	['IUC with a letter', () => parseDigits('70123x5678', 'iuc', 'IUC number', 8, 12)],
	['meter too short', () => parseDigits('450', 'meter', 'meter number', 6, 13)],
	['phone empty', () => parseMobile('')],
	['phone letters', () => parseMobile('0803 ABC 4567')],
	['phone short', () => parseMobile('12345')],
	['phone toll-free', () => parseMobile('0800 123 4567')],
	['sender with a space', () => checkSender('MY SHOP')],
	['message empty', () => checkMessage(' ')],
	['message invisible', () => checkMessage('\u200B\u2060')],
	['message too long', () => checkMessage('x'.repeat(1000))],
	['/report a day that does not exist', () => dayBounds('2026-02-30')],
];

test.each(refused)('a refused %s is said by a catalogue text, never by the client message', (_name, refuse) => {
	let error: unknown;
	try {
		refuse();
	} catch (e) {
		error = e;
	}
	expect(error).toBeInstanceOf(VtuError);
	const fallback = '\u0000fallback';
	const said = refusalWords(error, fallback);
	expect(said).not.toBe(fallback); // named: not the fallback
	expect(said).not.toContain((error as Error).message);
	expect(catalogueText(said)).toBe(true);
});

test('the fallback, and the store refusals of owner commands, are catalogue texts', () => {
	const fallback = t('input-refused');
	const unnamed = new VtuInvalidInputError('network 9 is not offered; pick one from the list.', { field: 'network' });
	expect(refusalWords(unnamed, fallback)).toBe(fallback);
	expect(refusalWords(new Error('boom'), fallback)).toBe(fallback);
	// the vendor's own refusal (it answered): the seller words for a detail refused by name
	const vendor = new VtuInvalidInputError('The server refused the request (HTTP 400).', {
		field: 'phone',
		httpStatus: 400,
		serverMessage: 'Invalid number',
	});
	expect(refusalWords(vendor, fallback)).toBe(t('err-refused-phone'));
	for (const field of ['percent', 'fixed', 'tier', 'reason']) {
		const said = refusalWords(new VtuInvalidInputError(`${field} is wrong (for developers).`, { field }), fallback);
		expect(said).not.toBe(fallback);
		expect(catalogueText(said)).toBe(true);
	}
});

test("no chat text is an error's message: the bot's code reads e.message only for logs", () => {
	// startup errors (stderr, before any chat), the logger itself, and the journal's record of the client's message
	const allowed = new Set(['main.ts', 'redis.ts', 'logger.ts', 'config.ts', 'orders.ts']);
	const offending: string[] = [];
	const scan = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const p = join(dir, name);
			if (statSync(p).isDirectory()) scan(p);
			else if (p.endsWith('.ts') && !allowed.has(name))
				readFileSync(p, 'utf8')
					.split('\n')
					.forEach((line, i) => {
						if (/\b(e|err|error)\.message\b|as Error\)\.message/.test(line) && !/\berr: /.test(line))
							offending.push(`${p.slice(ROOT.length + 1)}:${i + 1}: ${line.trim()}`);
					});
		}
	};
	scan(join(ROOT, 'bot'));
	expect(offending).toEqual([]);
});
