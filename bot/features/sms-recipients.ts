/**
 * Bulk SMS recipients as a seller gives them. Phone numbers are judged by the client's
 * `classifyPhone` (the numbering plan lives there; the same rule as the nodes and client.sms): a
 * toll-free or fixed-line number is left out here, with its reason, not silently by the client later.
 * This file only decides what one entry is.
 *  - Pasted text or a .txt file: one line is one entry (commas, semicolons or tabs may also
 *    separate numbers on a line, spaces never do: "call 0803" stays one bad entry).
 *  - A .csv file: the phone column is found by its header (phone, mobile, number…) or, without
 *    one, by its content (the column with the most phone numbers); other columns are ignored.
 * Bad entries keep where they were (line or row number, as a spreadsheet counts rows).
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { classifyPhone, splitRecipients } from '../vtu';
import { t } from '../i18n';

/** The 11-digit local form of a Nigerian mobile number, or null. */
function mobile(entry: string): string | null {
	const c = classifyPhone(entry);
	return 'phone' in c ? c.phone : null;
}

/** Why an entry is left out, as the summary shows it (nothing for an empty cell: "(empty)" says it). */
function reasonOf(entry: string): string | undefined {
	const c = classifyPhone(entry);
	return 'problem' in c && c.problem !== 'blank' ? c.problem : undefined;
}

export interface Recipients {
	numbers: string[];
	bad: { where: string; value: string; reason?: string }[];
	/** CSV only: which column the numbers came from. */
	column?: string;
}

export function recipientsFromText(text: string): Recipients {
	const out: Recipients = { numbers: [], bad: [] };
	text.split(/\r\n|\n|\r/).forEach((line, i) => {
		for (const entry of splitRecipients(line)) {
			const p = mobile(entry);
			if (p) out.numbers.push(p);
			else out.bad.push({ where: t('sms-where-line', { n: String(i + 1) }), value: entry, reason: reasonOf(entry) });
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
		if (col < 0) return { numbers: [], bad: [] };
		// A first row with words where the numbers are is a header the names did not give away.
		hasHeader = /[A-Za-z]/.test(header[col] ?? '') && !mobile(header[col] ?? '');
	}
	const out: Recipients = {
		numbers: [],
		bad: [],
		column: hasHeader ? t('sms-column-named', { name: header[col] }) : t('sms-column-number', { n: col + 1 }),
	};
	rows.forEach((r, i) => {
		if ((i === 0 && hasHeader) || r.every((x) => x === '')) return;
		const cell = r[col] ?? '';
		const p = mobile(cell);
		if (p) out.numbers.push(p);
		else
			out.bad.push({
				where: t('sms-where-row', { n: String(i + 1) }),
				value: cell || t('sms-empty-cell'),
				reason: reasonOf(cell),
			});
	});
	return out;
}

/** "Found 3 numbers in the "phone" column.\nLeft out (1, not Nigerian mobile numbers):\nrow 5: 12345 (wrong length)". */
export function recipientsReport(r: Recipients, max = 20): string {
	const n = r.numbers.length;
	const numbers = t('sms-numbers', { n });
	const lines = [r.column ? t('sms-found-column', { numbers, column: r.column }) : t('sms-found', { numbers })];
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
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€',
);

/** The characters of `message` that are not plain SMS text (each once). */
export function nonGsmChars(message: string): string[] {
	return [...new Set([...message].filter((ch) => !GSM.has(ch)))];
}
