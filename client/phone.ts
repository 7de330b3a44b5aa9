/** Nigerian mobile numbers: normalise to the 11-digit local form, detect the network by prefix. */
import type { NetworkName } from './types';
import { VtuInvalidInputError } from './errors';

/**
 * Mobile prefixes of the four GSM networks, from the NCC's National Numbering Plan allocations
 * (ncc.gov.ng, "Numbering" / allocated number ranges), as also shipped by the family's apps
 * (docs/real-sites.md §3.3: bukkydatasup `common/enums/Network.kt`). 07025/07026 and 0704 are the
 * ex-Visafone ranges MTN holds. Anything else is not a mobile number we can text or top up:
 * 0800 is toll-free, 0700 premium/personal, 0701x not listed, 0711 and friends are fixed-line or
 * unallocated. A ported number keeps its original prefix, so it is still in this table.
 */
const PREFIXES: Record<string, NetworkName> = {};
const add = (net: NetworkName, list: string) => list.split(' ').forEach((p) => (PREFIXES[p] = net));
add('MTN', '0803 0806 0703 0706 0813 0816 0810 0814 0903 0906 0913 0916 0704 07025 07026');
add('GLO', '0805 0807 0705 0815 0811 0905 0915');
add('AIRTEL', '0802 0808 0708 0812 0701 0902 0901 0904 0907 0912');
add('9MOBILE', '0809 0818 0817 0909 0908');

/**
 * Accepts 0803…, 803…, 234803…, +234 803 …, 2340803…, with spaces, dashes, dots or brackets.
 * Returns the 11-digit local form or null when it is not a Nigerian mobile number.
 */
const LOCAL = /^0[789][01]\d{8}$/;

/**
 * Separators people type inside a number (spaces, dashes, dots, brackets) and the invisible format
 * characters a copy from a chat app adds (bidi marks, zero-width spaces): dropped, they change no digit.
 */
const SEPARATORS = /[\s\-.()\p{Cf}]/gu;

export function tryNormalizePhone(input: unknown): string | null {
	// already in the local 11-digit form (the usual case): nothing to strip or re-prefix
	if (typeof input === 'string' && input.length === 11 && LOCAL.test(input)) return input;
	if ((typeof input === 'number' && Number.isInteger(input)) || typeof input === 'bigint') input = String(input);
	if (typeof input !== 'string') return null;
	let s = input.replace(SEPARATORS, '');
	if (s.startsWith('+')) s = s.slice(1);
	if (!/^\d+$/.test(s)) return null;
	if (s.startsWith('234')) {
		const rest = s.slice(3);
		if (rest.length === 10) s = '0' + rest;
		else if (rest.length === 11 && rest.startsWith('0')) s = rest;
		else return null;
	} else if (s.length === 10 && !s.startsWith('0')) s = '0' + s;
	if (!LOCAL.test(s)) return null;
	return s;
}

/** Why an entry is not a Nigerian mobile number, in the words a campaign summary shows. */
export type PhoneProblem = 'blank' | 'letters' | 'wrong length' | 'not a Nigerian mobile prefix';

/**
 * One recipient entry checked against the numbering plan: the 11-digit local form and its network,
 * or why it cannot be texted. Stricter than tryNormalizePhone (which keeps unknown prefixes for
 * ported numbers): a bulk SMS goes only to known mobile prefixes (detectNetwork's table).
 */
export function classifyPhone(input: unknown): { phone: string; network: NetworkName } | { problem: PhoneProblem } {
	const raw =
		(typeof input === 'number' && Number.isInteger(input)) || typeof input === 'bigint'
			? String(input)
			: typeof input === 'string'
				? input
				: '';
	const compact = raw.replace(SEPARATORS, '').replace(/^\+/, '');
	if (compact === '') return { problem: 'blank' };
	if (!/^\d+$/.test(compact)) return { problem: 'letters' };
	const phone = tryNormalizePhone(compact);
	if (!phone)
		return {
			problem: /^(?:0[789][01]|[789][01]|2340?[789][01])/.test(compact) ? 'wrong length' : lengthOrPrefix(compact),
		};
	const network = detectNetwork(phone);
	return network ? { phone, network } : { problem: 'not a Nigerian mobile prefix' };
}

/** Digits of a plausible length (10, 11, 13 or 14 with 234) but no 07x/08x/09x mobile start: the prefix is wrong. */
function lengthOrPrefix(digits: string): PhoneProblem {
	const local = digits.startsWith('234') ? digits.slice(3).replace(/^0/, '') : digits.replace(/^0/, '');
	return local.length === 10 ? 'not a Nigerian mobile prefix' : 'wrong length';
}

/** Like tryNormalizePhone but throws `invalid_input` with a message that says how to fix it. */
export function normalizePhone(input: unknown, field = 'phone'): string {
	const p = tryNormalizePhone(input);
	if (p === null) {
		const shown = typeof input === 'string' || typeof input === 'number' ? JSON.stringify(String(input)) : typeof input;
		throw new VtuInvalidInputError(
			`${field} ${shown} is not a Nigerian mobile number: use 11 digits like 08031234567 (or +234 803 123 4567).`,
			{ field },
		);
	}
	return p;
}

/** Network by prefix (5-digit prefixes first), or null when the prefix is unknown. */
export function detectNetwork(phone: string): NetworkName | null {
	const p = tryNormalizePhone(phone);
	if (!p) return null;
	return PREFIXES[p.slice(0, 5)] ?? PREFIXES[p.slice(0, 4)] ?? null;
}

/** "08031234567" → "0803 123 4567". Unparseable input is returned unchanged. */
export function formatPhone(phone: string): string {
	const p = tryNormalizePhone(phone);
	if (!p) return phone;
	return `${p.slice(0, 4)} ${p.slice(4, 7)} ${p.slice(7)}`;
}

/** International form without "+": 2348031234567. */
export function toInternational(phone: string): string {
	return '234' + normalizePhone(phone).slice(1);
}
