/**
 * Bulk SMS recipients as a seller gives them. Phone numbers are judged by the client's
 * `classifyPhone` (the numbering plan lives there; the same rule as the nodes and client.sms): a
 * toll-free or fixed-line number is left out here, with its reason, not silently by the client later.
 * This file only decides what one entry is.
 *  - Pasted text or a .txt file: one line is one entry (commas, semicolons or tabs may also
 *    separate numbers on a line, spaces never do: "call 0803" stays one bad entry).
 *  - A .csv file: the phone column is found by its header (phone, mobile, number…) or, without
 *    one, by its content (the column with the most phone numbers); other columns are ignored.
 *  - A pasted contact list: a name before the number (`Ada 08031234567`, `Bola - 0805…`, `Chi: +234…`)
 *    is read as that number; the name is ignored.
 * Bad entries keep where they were (line or row number, as a spreadsheet counts rows). A number given
 * twice is used once; the report's counts add up: entries = used + duplicates + left out.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { classifyPhone, splitRecipients } from '../vtu';
import { t } from '../i18n';

/** The 11-digit local form of a Nigerian mobile number, or null. */
function mobile(entry: string): string | null {
	const c = classifyPhone(entry);
	return 'phone' in c ? c.phone : null;
}

/** The client's PhoneProblem, as the list's summary words it. */
const REASON: Record<string, string> = {
	letters: 'sms-reason-letters',
	'wrong length': 'sms-reason-length',
	'not a Nigerian mobile prefix': 'sms-reason-prefix',
};

/** Why an entry is left out, as the summary shows it (nothing for an empty cell: "(empty)" says it). */
function reasonOf(entry: string): string | undefined {
	if (/^\s*(?:\+?234[\s-]*|0)800/.test(entry)) return t('sms-reason-toll-free');
	const c = classifyPhone(entry);
	return 'problem' in c && Object.hasOwn(REASON, c.problem) ? t(REASON[c.problem]) : undefined;
}

export interface Recipients {
	/** Each number once, in the order given. */
	numbers: string[];
	/** Entries that repeated a number already in `numbers`. */
	duplicates: number;
	/** Entries read as a name and a number. */
	named: number;
	bad: { where: string; value: string; reason?: string }[];
	/** CSV only: which column the numbers came from. */
	column?: string;
}

/** A contact line: a name (with a letter), an optional separator (- : – —), then the number at the end. */
const NAMED = /^(.*\p{L}.*?)[\s:\u2013\u2014-]*?(\+?\d[\d\s().-]{6,})$/u;

/** Adds a number once; a repeat counts as a duplicate. */
function add(out: Recipients, seen: Set<string>, phone: string): void {
	if (seen.has(phone)) out.duplicates++;
	else {
		seen.add(phone);
		out.numbers.push(phone);
	}
}

export function recipientsFromText(text: string): Recipients {
	const out: Recipients = { numbers: [], duplicates: 0, named: 0, bad: [] };
	const seen = new Set<string>();
	text.split(/\r\n|\n|\r/).forEach((line, i) => {
		for (const entry of splitRecipients(line)) {
			const named = mobile(entry) ? null : NAMED.exec(entry.trim());
			const number = named ? named[2] : entry;
			const p = mobile(number);
			if (p) {
				add(out, seen, p);
				if (named) out.named++;
			} else out.bad.push({ where: t('sms-where-line', { n: String(i + 1) }), value: entry, reason: reasonOf(number) });
		}
	});
	return out;
}

const PHONE_HEADER = /phone|mobile|msisdn|number|tel|whatsapp|gsm|contact/i;

/** The column holding the most phone numbers, or -1. */
function columnByContent(rows: string[][]): number {
	const width = Math.max(0, ...rows.map((r) => r.length));
	let best = -1;
	let bestCount = 0;
	for (let c = 0; c < width; c++) {
		const n = rows.filter((r) => mobile(r[c] ?? '')).length;
		if (n > bestCount) [best, bestCount] = [c, n];
	}
	return best;
}

export function recipientsFromCsv(text: string): Recipients {
	const rows = (
		parseCsv(text, { relax_column_count: true, skip_empty_lines: false, trim: true, bom: true }) as string[][]
	).map((r) => r.map(String));
	const header = rows[0] ?? [];
	let col = header.findIndex((h) => PHONE_HEADER.test(h) && !mobile(h));
	let hasHeader = col >= 0;
	if (!hasHeader) {
		col = columnByContent(rows);
		if (col < 0) return { numbers: [], duplicates: 0, named: 0, bad: [] };
		// A first row with words where the numbers are is a header the names did not give away.
		hasHeader = /[A-Za-z]/.test(header[col] ?? '') && !mobile(header[col] ?? '');
	}
	const out: Recipients = {
		numbers: [],
		duplicates: 0,
		named: 0,
		bad: [],
		column: hasHeader ? t('sms-column-named', { name: header[col] }) : t('sms-column-number', { n: col + 1 }),
	};
	const seen = new Set<string>();
	rows.forEach((r, i) => {
		if ((i === 0 && hasHeader) || r.every((x) => x === '')) return;
		const cell = r[col] ?? '';
		const p = mobile(cell);
		if (p) add(out, seen, p);
		else
			out.bad.push({
				where: t('sms-where-row', { n: String(i + 1) }),
				value: cell || t('sms-empty-cell'),
				reason: reasonOf(cell),
			});
	});
	return out;
}

/**
 * What was found and what was left out, e.g.
 *   Found 3 numbers in the "phone" column.
 *   Left out (1, not Nigerian mobile numbers):
 *   row 5: 12345 (wrong length)
 */
export function recipientsReport(r: Recipients, max = 20): string {
	const n = r.numbers.length;
	const numbers = t('sms-numbers', { n });
	const lines = [r.column ? t('sms-found-column', { numbers, column: r.column }) : t('sms-found', { numbers })];
	if (r.named) lines.push(t('sms-names-ignored', { n: r.named }));
	if (r.duplicates || r.bad.length) {
		const entries = n + r.duplicates + r.bad.length;
		lines.push(t('sms-count-up', { entries, used: n, duplicates: r.duplicates, left: r.bad.length }));
	}
	if (r.bad.length) {
		lines.push(t('sms-bad-title', { n: r.bad.length }));
		for (const b of r.bad.slice(0, max))
			lines.push(
				b.reason
					? t('sms-bad-entry-reason', { where: b.where, value: b.value, reason: b.reason })
					: t('sms-bad-entry', { where: b.where, value: b.value }),
			);
		if (r.bad.length > max) lines.push(t('sms-bad-more', { n: r.bad.length - max }));
	}
	return lines.join('\n');
}

/** GSM 03.38 basic set and extension: anything else makes the message Unicode on the phone network. */
const GSM = new Set(
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
		'¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€',
);

/** The characters of `message` that are not plain SMS text (each once). */
export function nonGsmChars(message: string): string[] {
	return [...new Set([...message].filter((ch) => !GSM.has(ch)))];
}
