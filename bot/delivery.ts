/**
 * What a delivered order hands over, read from the vendor's record (the client's parsed `details`): the
 * electricity token (first, on a line of its own), exam PINs, recharge card PINs; and the printable sheet of
 * PINs sent as a file. Shared by the till's outcome, /history, and the storefront's receipt.
 */
import { InputFile, type Api } from 'grammy';
import { t } from './i18n';
import type { Logger } from './logger';

interface Card {
	pin: string;
	serial: string;
	loadCode: string;
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');

function cardsOf(details: Record<string, unknown>): Card[] {
	const list = Array.isArray(details.cards) ? (details.cards as Record<string, unknown>[]) : [];
	return list
		.map((c) => ({ pin: str(c?.pin), serial: str(c?.serial), loadCode: str(c?.loadCode) }))
		.filter((c) => c.pin);
}

function pinsOf(details: Record<string, unknown>): string[] {
	return Array.isArray(details.pins) ? details.pins.map(str).filter(Boolean) : [];
}

/** The electricity token of a record, or null. */
export function tokenOf(product: string, details: Record<string, unknown>): string | null {
	return product === 'electricity' ? str(details.token) || null : null;
}

/** Lines to show under a delivered order (empty for products that hand over nothing). */
export function deliveredLines(product: string, details: Record<string, unknown>): string[] {
	const token = tokenOf(product, details);
	if (token) {
		const units = str(details.units);
		return [t('delivered-token', { token }), ...(units ? [t('delivered-units', { units })] : [])];
	}
	if (product === 'exam_pin') return pinsOf(details).map((pin, i) => t('delivered-pin', { n: i + 1, pin }));
	if (product === 'recharge_card')
		return cardsOf(details).map((c, i) =>
			t(c.serial ? 'delivered-card-serial' : 'delivered-card', { n: i + 1, pin: c.pin, serial: c.serial }),
		);
	return [];
}

/**
 * A delivered order's message, in both modes: its first line (what happened), then what it handed over (the
 * electricity token first, on a line of its own), then the rest (price, references, balance).
 */
export function withDelivered(lines: string[], product: string, details: Record<string, unknown>): string {
	const [head, ...rest] = lines.flatMap((l) => l.split('\n'));
	return [head, ...deliveredLines(product, details), ...rest].join('\n');
}

const escape = (s: string) =>
	s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** One printable HTML page, a box per PIN (cut along the lines). */
function page(title: string, boxes: string[][]): string {
	const cells = boxes.map((lines) => `<div class="card">${lines.map((l) => `<p>${escape(l)}</p>`).join('')}</div>`);
	return [
		'<!doctype html><html><head><meta charset="utf-8">',
		`<title>${escape(title)}</title>`,
		'<style>body{font-family:sans-serif}.card{display:inline-block;width:30%;margin:4px;padding:8px;',
		'border:1px dashed #444;vertical-align:top}.card p{margin:2px 0}.card p:nth-child(2){font-size:1.3em;',
		'font-weight:bold;letter-spacing:1px}</style></head><body>',
		`<h3>${escape(title)}</h3>`,
		...cells,
		'</body></html>',
	].join('\n');
}

/** The printable sheet of an order's PINs, or null when it has none. */
export function sheetOf(o: {
	product: string;
	description: string;
	ref: string;
	details: Record<string, unknown>;
}): { file: InputFile; name: string; html: string } | null {
	const label = o.description;
	let boxes: string[][] = [];
	if (o.product === 'recharge_card') {
		boxes = cardsOf(o.details).map((c) => [
			label,
			c.pin,
			...(c.serial ? [t('sheet-serial', { serial: c.serial })] : []),
			...(c.loadCode ? [t('sheet-load', { code: c.loadCode })] : []),
		]);
	} else if (o.product === 'exam_pin') boxes = pinsOf(o.details).map((pin) => [label, pin]);
	if (!boxes.length) return null;
	const name = `${o.product === 'exam_pin' ? 'exam_pins' : 'recharge_cards'}-${o.ref.replace(/[^\w-]/g, '')}.html`;
	const html = page(t('sheet-title', { what: label, ref: o.ref }), boxes);
	return { file: new InputFile(Buffer.from(html, 'utf8'), name), name, html };
}

/** The printable PIN sheet of a delivered exam-PIN or recharge-card order, as a file under its message. */
export async function sendSheet(
	api: Pick<Api, 'sendDocument'>,
	chatId: number,
	o: {
		state: string;
		product: string;
		description: string;
		ident: string | null;
		id: string;
		details: Record<string, unknown>;
	},
	logger?: Logger,
): Promise<void> {
	if (o.state !== 'successful') return;
	const sheet = sheetOf({ ...o, ref: o.ident ?? o.id });
	if (!sheet) return;
	try {
		await api.sendDocument(chatId, sheet.file, { caption: t('sheet-caption') });
	} catch (e) {
		// the PINs are in the message above and in /history: the file is a convenience
		logger?.warn('PIN sheet not delivered', { order: o.id, err: e instanceof Error ? e.message : String(e) });
	}
}
