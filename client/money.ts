/**
 * Exact money: integer kobo inside, two-decimal naira strings outside. No float arithmetic:
 * numbers are converted through their shortest decimal string (String(1234.5) === "1234.5").
 */
import type { Money } from './types';
import { VtuInvalidInputError, shown } from './errors';

const DEC = /^(-)?(\d*)(?:\.(\d*))?$/;
/** Plain non-negative naira with at most two decimals and at most 13 integer digits. */
const PLAIN = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Comma thousands grouping, exactly: "1,250" and "1,250,000.50", never "1,2" or "12,50". */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;

/**
 * Strip the currency decorations a site (or a person) adds: ₦, N, NGN, "naira", comma thousands grouping.
 * Only unambiguous forms: spaces inside the number (" 1 0 0 ") or commas in other places ("1,5") are left in,
 * so the result is not a number.
 */
function clean(input: string): string {
	let s = input.trim();
	s = s.replace(/^(?:NGN|₦|N)\s*/i, '');
	s = s.replace(/\s*(?:naira|NGN)$/i, '');
	return GROUPED.test(s) ? s.replace(/,/g, '') : s;
}

function numberToDecimalString(n: number): string | null {
	if (!Number.isFinite(n)) return null;
	const s = String(n);
	if (!/e/i.test(s)) return s;
	// Exponent form (|n| < 1e-6 or ≥ 1e21): expand exactly.
	const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/i.exec(s);
	if (!m) return null;
	const digits = m[2] + (m[3] ?? '');
	const exp = Number(m[4]);
	const pointPos = 1 + exp;
	let out: string;
	if (pointPos <= 0) out = '0.' + '0'.repeat(-pointPos) + digits;
	else if (pointPos >= digits.length) out = digits + '0'.repeat(pointPos - digits.length);
	else out = digits.slice(0, pointPos) + '.' + digits.slice(pointPos);
	return m[1] + out;
}

/**
 * Parse a decimal naira amount to kobo. Returns null when it is not a number.
 * `round`: more than two decimals are rounded half-up (server values); otherwise they are refused (null).
 */
export function tryParseKobo(value: unknown, round = true): number | null {
	// Fast path for the usual wire forms ("130.00", "1099870.5", 250): exactly what the general path below
	// computes for them (nothing to clean, at most two decimals, far below MAX_SAFE_INTEGER).
	if (typeof value === 'string') {
		const f = PLAIN.exec(value);
		if (f) return Number(f[1]) * 100 + (f[2] === undefined ? 0 : f[2].length === 1 ? Number(f[2]) * 10 : Number(f[2]));
	} else if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1e13) {
		return value === 0 ? 0 : value * 100; // -0 → 0, as String(-0) === "0" below
	}
	let s: string | null;
	if (typeof value === 'number') s = numberToDecimalString(value);
	else if (typeof value === 'string') s = clean(value);
	else if (typeof value === 'bigint') s = value.toString();
	else return null;
	if (s === null || s === '' || s === '-' || s === '.') return null;
	const m = DEC.exec(s);
	if (!m) return null;
	const neg = m[1] === '-';
	const intPart = m[2] || '0';
	let frac = m[3] ?? '';
	if (m[2] === '' && frac === '') return null;
	let carry = 0;
	if (frac.length > 2) {
		if (!round) return null;
		const rest = frac.slice(2);
		frac = frac.slice(0, 2);
		if (rest.charCodeAt(0) >= 53 /* '5' */) carry = 1;
	}
	frac = frac.padEnd(2, '0');
	if (intPart.length <= 13) {
		// < 10^13 naira: exact in doubles (≤ 10^15 kobo), no BigInt needed
		const kobo = Number(intPart) * 100 + Number(frac) + carry;
		return neg ? -kobo : kobo;
	}
	const big = BigInt(intPart) * 100n + BigInt(frac) + BigInt(carry);
	if (big > BigInt(Number.MAX_SAFE_INTEGER)) return null;
	const kobo = Number(big);
	return neg ? -kobo : kobo;
}

/**
 * Parse a user-supplied naira amount (number or string such as 250, "250.00", "₦1,250.5") to integer kobo.
 * More than two decimals, negatives, or non-numbers → `invalid_input`.
 */
export function parseNaira(value: unknown, field = 'amount'): number {
	const kobo = tryParseKobo(value, false);
	if (kobo === null) {
		throw new VtuInvalidInputError(
			`${field} ${shown(value)} is not a valid naira amount: use digits with at most two decimals, e.g. 250 or "250.50".`,
			{ field, details: { problem: 'not_amount' } },
		);
	}
	if (kobo < 0) {
		throw new VtuInvalidInputError(`${field} must not be negative.`, { field, details: { problem: 'negative' } });
	}
	return kobo;
}

/** A plain amount as a caller sends it: digits (up to 13: far above any cap) and at most two decimals. */
const PLAIN_INPUT = /^\d{1,13}(?:\.\d{1,2})?$/;

/**
 * A purchase amount: a plain number (250, 250.5) or a plain numeric string ("250", "250.50"), surrounding
 * spaces allowed. Currency signs, grouping, inner spaces, exponents, more than two decimals → `invalid_input`
 * saying what to type (e.g. "₦1,250" → "type 1250"), so what is bought is exactly what was typed.
 */
export function parsePlainNaira(value: unknown, field = 'amount'): number {
	const fail = (why: string, details: Record<string, unknown> = { problem: 'not_amount' }) =>
		new VtuInvalidInputError(`${field} ${why}`, { field, details });
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw fail(`must be a number such as 250 or text such as "250.50", not ${shown(value)}.`);
	}
	const s = typeof value === 'string' ? value.trim() : numberToDecimalString(value);
	if (s !== null && PLAIN_INPUT.test(s)) return tryParseKobo(s, false)!;
	const typed = shown(value);
	const extra = s === null ? null : /^(\d+\.\d{2})\d+$/.exec(s);
	if (extra) {
		const example = typeof value === 'number' ? value.toFixed(2) : extra[1];
		throw fail(`${typed} has more than two decimals: type at most two decimals, e.g. ${example}.`, {
			problem: 'decimals',
			example,
		});
	}
	if (s !== null && /^\d{14,}(?:\.\d*)?$/.test(s))
		throw fail(`${typed} is far too large for one purchase: type the amount in naira, e.g. 5000.`, {
			problem: 'too_large',
		});
	const meant = typeof value === 'string' ? tryParseKobo(value, false) : s !== null && s.startsWith('-') ? -1 : null;
	if (meant !== null && meant < 0)
		throw fail(`${typed} must not be negative: type the amount to pay, e.g. 250.`, { problem: 'negative' });
	if (meant !== null) {
		const example = formatNaira(meant).replace(/\.00$/, '');
		throw fail(
			`${typed} must be a plain number: type ${example} (digits and at most two decimals; no ₦, commas or spaces).`,
			{ problem: 'not_plain', example },
		);
	}
	throw fail(`${typed} is not a naira amount: type digits with at most two decimals, e.g. 250 or 250.50.`);
}

/** Two-decimal naira string: 25050 → "250.50". */
export function formatNaira(kobo: number, opts: { symbol?: boolean; grouping?: boolean } = {}): string {
	const neg = kobo < 0;
	const abs = Math.abs(Math.trunc(kobo));
	let whole = String(Math.floor(abs / 100));
	const frac = String(abs % 100).padStart(2, '0');
	if (opts.grouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
	return `${neg ? '-' : ''}${opts.symbol ? '₦' : ''}${whole}.${frac}`;
}

/** Money for people, the same everywhere (labels, messages, chat): 100000000 → "₦1,000,000.00". */
export function nairaText(kobo: number): string {
	return formatNaira(kobo, { symbol: true, grouping: true });
}

export function money(kobo: number): Money {
	return { kobo, naira: formatNaira(kobo) };
}

/** Parse a percent given as decimal string/number into [scaledInt, scale]. */
function parsePercent(p: string | number): [bigint, bigint] | null {
	const s = typeof p === 'number' ? numberToDecimalString(p) : clean(String(p)).replace(/%$/, '');
	if (s === null) return null;
	const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
	if (!m) return null;
	const frac = m[2] ?? '';
	return [BigInt(m[1] + frac), 10n ** BigInt(frac.length)];
}

/** Normalise a percent to an exact decimal string ("98", "97.5"); null if invalid. */
export function percentString(p: unknown): string | null {
	if (typeof p !== 'string' && typeof p !== 'number') return null;
	const s = typeof p === 'number' ? numberToDecimalString(p) : clean(String(p)).replace(/%$/, '');
	if (s === null || !/^\d+(?:\.\d+)?$/.test(s)) return null;
	let out = s.replace(/^0+(?=\d)/, '');
	if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
	return out;
}

/**
 * amountKobo × percent / 100, exact, rounded half-up to the kobo.
 * e.g. percentOf(10000, "98") = 9800; percentOf(5500, "97.5") = 5363 (53.625 → 53.63).
 */
export function percentOf(amountKobo: number, percent: string | number): number {
	const pp = parsePercent(percent);
	if (!pp) throw new VtuInvalidInputError(`invalid percent ${String(percent)}`, { field: 'percent' });
	const [num, scale] = pp;
	const denom = 100n * scale;
	const prod = BigInt(amountKobo) * num;
	const q = prod / denom;
	const r = prod % denom;
	return Number(r * 2n >= denom ? q + 1n : q);
}
