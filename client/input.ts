/**
 * The one strict parser for what people and programs type. Client calls, the n8n nodes' parameters and
 * the Telegram bot read ids, quantities, yes/no values, phone numbers, amounts and SMS fields through
 * these functions, so a value is accepted or refused the same way wherever it was typed. Every refusal
 * is an `invalid_input` VtuError naming the field and saying what to type; nothing here throws anything
 * else, whatever the value (bigint, circular object, object without a prototype, symbol).
 */
import { VtuInvalidInputError, shown } from './errors';
import { classifyPhone, type PhoneProblem } from './phone';
import type { NetworkName } from './types';

export { parsePlainNaira as parseAmount } from './money';

/**
 * A refusal: `message` for developers and n8n builders; `details` for callers that word it themselves (the bot's
 * message catalogue): the limits and the kind of problem, never the message's words.
 */
function invalid(field: string, message: string, details?: Record<string, unknown>): VtuInvalidInputError {
	return new VtuInvalidInputError(message, details ? { field, details } : { field });
}

/** Digits only, at most 15 (beyond that a number is not exact), spaces around allowed. No "0x2", "1e1", "2.0", "+2". */
const WHOLE = /^\s*\d{1,15}\s*$/;

/**
 * An id (plan, package, denomination, record): a positive whole number, given as a number or as digits.
 * `what` says where to find one, e.g. "the plan ID from the list".
 */
export function parseId(v: unknown, field: string, what: string): number {
	const n = typeof v === 'string' && WHOLE.test(v) ? Number(v) : v;
	if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
		throw invalid(field, `${field} must be a positive whole number (${what}); got ${shown(v)}.`);
	}
	return n;
}

/** A count from `min` to `max`, as a number or as digits. */
export function parseQuantity(v: unknown, field: string, min: number, max: number): number {
	const n = typeof v === 'string' && WHOLE.test(v) ? Number(v) : v;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
		throw invalid(field, `${field} must be a whole number from ${min} to ${max}; got ${shown(v)}.`, { min, max });
	}
	return n;
}

/** A number made of digits (IUC, meter, BVN): spaces and dashes between them are dropped. */
export function parseDigits(v: unknown, field: string, what: string, min: number, max: number): string {
	const s =
		typeof v === 'number' && Number.isInteger(v) && v >= 0
			? String(v)
			: typeof v === 'string'
				? v.replace(/[\s-]/g, '')
				: '';
	if (!/^\d+$/.test(s) || s.length < min || s.length > max) {
		throw invalid(
			field,
			`${field} must be the ${what}: ${min === max ? min : `${min}–${max}`} digits, no letters; got ${shown(v)}.`,
			{ min, max },
		);
	}
	return s;
}

/**
 * A customer_ref chosen by the caller (journalled before the purchase is sent): 1 to 64 printable ASCII
 * characters, no spaces, so it goes into a JSON body and a database column unchanged.
 */
export function parseCustomerRef(v: unknown, field = 'customerRef'): string {
	if (typeof v !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(v))
		throw invalid(
			field,
			`${field} must be 1 to 64 letters, digits or symbols, no spaces (e.g. "ord-7f3a9c"); got ${shown(v)}.`,
		);
	return v;
}

/**
 * A yes/no field: the boolean true or false; absent (undefined or null) is `absent`. Text such as "true",
 * "yes" or "1" is refused, never read as one or the other, so every yes/no field behaves the same.
 */
export function parseBoolean(v: unknown, field: string, absent = false): boolean {
	if (v === undefined || v === null) return absent;
	if (typeof v !== 'boolean') {
		const hint =
			typeof v === 'string' ? ` (text); in an n8n expression compare it, e.g. {{ $json.${field} === "true" }}` : '';
		throw invalid(field, `${field} must be true or false (a boolean), not ${shown(v)}${hint}.`);
	}
	return v;
}

/** An optional text field: a string (trimmed) or nothing; never String({a:1}). */
export function optionalText(v: unknown, field: string, what: string, max: number): string {
	if (v === undefined || v === null) return '';
	if (typeof v !== 'string') throw invalid(field, `${field} must be text (${what}), not ${shown(v)}.`);
	const s = v.trim();
	if (s.length > max) throw invalid(field, `${field} is ${s.length} characters; keep it to ${max} or fewer.`);
	return s;
}

/**
 * Characters a phone shows as nothing: spaces of every kind, control characters, zero-width and other
 * default-ignorable characters (joiners, bidi marks, variation selectors, Hangul fillers), Braille blank.
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** Does `s` have at least one character a reader can see? */
export function hasVisibleText(s: string): boolean {
	return s.replace(INVISIBLE, '') !== '';
}

/**
 * The SMS text: at least one visible character, at most `maxChars` characters as the site counts them (code points).
 */
export function parseMessage(v: unknown, maxChars: number, field = 'message'): string {
	const empty = { problem: 'empty', max: maxChars };
	if (v === undefined || v === null || v === '') throw invalid(field, `${field} is empty; write the SMS text.`, empty);
	if (typeof v !== 'string') throw invalid(field, `${field} must be text (the SMS to send), not ${shown(v)}.`, empty);
	if (v.trim() === '') throw invalid(field, `${field} is empty; write the SMS text.`, empty);
	if (!hasVisibleText(v)) {
		throw invalid(
			field,
			`${field} has no visible characters (only spaces or invisible characters such as zero-width spaces); write the ` +
				`SMS text.`,
			{ problem: 'invisible', max: maxChars },
		);
	}
	const n = [...v].length;
	if (n > maxChars) {
		throw invalid(
			field,
			`${field} is ${n} characters; the maximum is ${maxChars} (6 pages). Shorten it by ${n - maxChars}.`,
			{ problem: 'too_long', length: n, max: maxChars },
		);
	}
	return v;
}

/** The SMS sender ID: 1–`maxChars` letters or digits. */
export function parseSender(v: unknown, maxChars: number, field = 'sender'): string {
	const s = typeof v === 'string' ? v.trim() : '';
	if (!/^[A-Za-z0-9]+$/.test(s) || s.length > maxChars) {
		throw invalid(
			field,
			`${field} ${shown(v)} must be 1–${maxChars} letters or digits (no spaces or symbols), e.g. "MyShop".`,
			{ max: maxChars },
		);
	}
	return s;
}

/** One list entry as text: strings trimmed, whole numbers as digits; null/undefined → '' (skipped by the caller). */
function entryText(v: unknown, field: string, i: number): string {
	if (v === undefined || v === null) return '';
	if (typeof v === 'string') return v.trim();
	if ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n))
		return String(v);
	throw invalid(
		field,
		`${field} entry ${i + 1} is ${shown(v)}: give each phone number as text or digits, e.g. "08031234567".`,
	);
}

/**
 * Recipients as given: text separated by commas, semicolons, tabs or line breaks, or a list of numbers
 * (text or digits). Blank entries are dropped; anything else (an object, a list inside the list) is refused.
 */
export function splitRecipients(v: unknown, field = 'recipients'): string[] {
	if (v === undefined || v === null) return [];
	if (Array.isArray(v)) return v.map((x, i) => entryText(x, field, i)).filter(Boolean);
	if (typeof v === 'string')
		return v
			.split(/[,;\n\r\t]+/)
			.map((r) => r.trim())
			.filter(Boolean);
	if (typeof v === 'number' || typeof v === 'bigint') return [entryText(v, field, 0)].filter(Boolean);
	throw invalid(
		field,
		`${field} must be phone numbers as text separated by commas, or a list of them; got ${shown(v)}.`,
	);
}

/** What to type, after any phone refusal. */
export const MOBILE_EXAMPLE = 'use 11 digits like 08031234567 (or +234 803 123 4567)';

/** A number's prefix as dialled at home ("0800", "07027"), or '' when it is too short to have one. */
export function mobilePrefix(input: unknown): string {
	const digits = typeof input === 'string' || typeof input === 'number' ? String(input).replace(/\D/g, '') : '';
	const local = digits.startsWith('234') ? '0' + digits.slice(3).replace(/^0/, '') : digits;
	// 0702 is shared: 07025/07026 are MTN's, the rest of 0702 is not mobile
	return local.length >= 4 ? local.slice(0, local.startsWith('0702') ? 5 : 4) : '';
}

/** Why a number is not a Nigerian mobile number, in a clause that fits after "is not a Nigerian mobile number: ". */
export function phoneProblemText(problem: PhoneProblem, input?: unknown): string {
	switch (problem) {
		case 'blank':
			return 'it is empty';
		case 'letters':
			return 'it has letters or symbols (only digits, spaces, dashes, brackets and a leading + are allowed)';
		case 'wrong length':
			return 'it has the wrong number of digits (a mobile number has 11, like 08031234567)';
		case 'not a Nigerian mobile prefix':
			return (
				`${mobilePrefix(input) || 'its prefix'} is not the prefix of a mobile network (toll-free, premium ` +
				`and fixed-line numbers cannot get airtime, data or SMS; a ported number keeps its original prefix)`
			);
	}
}

/** The refusal text for a number, or null when it is a Nigerian mobile number (for the bot's replies). */
export function mobileProblem(input: unknown): string | null {
	const c = classifyPhone(input);
	return 'problem' in c ? `That is not a Nigerian mobile number: ${phoneProblemText(c.problem, input)}.` : null;
}

/**
 * A Nigerian mobile number (known mobile prefix: the same rule for data, airtime, SMS and the bot) →
 * its 11-digit local form and network by prefix.
 */
export function parseMobile(v: unknown, field = 'phone'): { phone: string; network: NetworkName } {
	if (v !== undefined && v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') {
		throw invalid(field, `${field} must be a phone number as text or digits, not ${shown(v)}; ${MOBILE_EXAMPLE}.`);
	}
	const c = classifyPhone(v);
	if ('problem' in c)
		throw invalid(
			field,
			`${field} ${shown(v)} is not a Nigerian mobile number: ${phoneProblemText(c.problem, v)}; ${MOBILE_EXAMPLE}.`,
			{ problem: c.problem, prefix: mobilePrefix(v) },
		);
	return c;
}
