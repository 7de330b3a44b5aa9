/**
 * A bulk SMS campaign as a business runs it: every input row accounted for (to send, duplicate,
 * invalid with its reason, opted out), personalised messages grouped into one campaign, priced
 * once, and a summary an owner reads at a glance. Pure functions: the node reads parameters and
 * sends; this file decides who gets what and how it is reported.
 */
import type { IDataObject } from 'n8n-workflow';

import { classifyPhone, formatNaira, smsPages, unicodeChars } from '../../client/core';
import { checkMessage } from '../../client/products/sms/plan';
import { splitRecipients as clientSplitRecipients } from '../../client/input';
import type { SmsBatch } from '../../client/types';
import { parseCreateDate } from '../../client/purchase';

export type RecipientStatus =
	| 'would send'
	| 'sent'
	| 'duplicate'
	| 'invalid'
	| 'opted out'
	| 'failed'
	| 'unknown outcome'
	| 'not sent';

/** One recipient entry of the input: a row (input item) may hold several numbers. */
export interface Recipient {
	/** Input item index (0-based; the CSV and items show it 1-based as `row`). */
	item: number;
	name: string | null;
	input: string;
	phone: string | null;
	status: RecipientStatus;
	reason: string | null;
	/** Index into Campaign.batches once planned. */
	batch: number | null;
}

export interface CampaignBatch {
	message: string;
	pages: number;
	recipients: number[]; // indices into Campaign.recipients
	costKobo: number;
	/** What the site's record shows debited. */
	chargedKobo: number;
	/** An unclear request's price: it may or may not have been charged (check later). */
	unclearKobo: number;
	status: 'pending' | 'successful' | 'failed' | 'unknown outcome' | 'not sent';
	ident: string | null;
	id: string | number | null;
	error: string | null;
	/** When the request left (unclear requests: what resolving them later needs). */
	sentAt: string | null;
	/** Unclear requests: when a proven answer becomes possible. */
	resolvableAfter: string | null;
	/** Unclear requests: the customer_ref the request carried (null: none; absent: not known). */
	customerRef?: string | null;
}

export interface Campaign {
	sender: string;
	dnd: boolean;
	recipients: Recipient[];
	batches: CampaignBatch[];
	rateKobo: number;
	costKobo: number;
	/** Distinct characters outside GSM-7 across the messages. */
	unicode: string[];
	campaignId: string | null;
}

/** A row as the node read it: its numbers, its message (or why the message cannot be sent) and a name. */
export interface CampaignRow {
	numbers: string[];
	message: string | { problem: string };
	name: string | null;
}

/**
 * Split "0803…, 0805…\n0807…" (or an array) into entries with the client's splitter; unlike the client's
 * (which drops blanks), a blank cell is one blank entry here, so it is counted in the campaign.
 */
export function splitRecipients(value: unknown): string[] {
	if (value === undefined || value === null) return [''];
	if (Array.isArray(value)) return value.length === 0 ? [''] : value.flatMap((v) => splitRecipients(v));
	// not text: one entry that classifies as invalid (counted with its row), never a TypeError
	if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') return ['[object]'];
	const parts = clientSplitRecipients(String(value));
	return parts.length === 0 ? [''] : parts;
}

/** Opt-out numbers (STOP list) in local 11-digit form; entries that are not numbers are ignored. */
export function optOutSet(value: unknown): Set<string> {
	const out = new Set<string>();
	for (const e of splitRecipients(value)) {
		const c = classifyPhone(e);
		if ('phone' in c) out.add(c.phone);
	}
	return out;
}

/** Why a message cannot be sent (the client's own check, e.g. empty or over 905 characters), or null. */
export function messageProblem(message: unknown): string | null {
	try {
		checkMessage(message);
		return null;
	} catch (e) {
		return (e as Error).message;
	}
}

interface PlanOptions {
	sender: string;
	dnd: boolean;
	optOut: Set<string>;
	batchSize: number;
	rateKobo: number;
	oncePerNumber?: boolean;
}

/**
 * Classify every entry (invalid → opted out → duplicate → to send), then batch the ones to send by
 * message: at most `batchSize` numbers per request, one message per request (the site's API takes one
 * text per POST). A number gets one text per campaign (its first row's), personalised or not, unless
 * `oncePerNumber` is false: then only the same number with the same message is a duplicate.
 */
export function planCampaign(rows: CampaignRow[], o: PlanOptions): Campaign {
	const { recipients, byMessage } = classifyRows(rows, o);
	const { batches, costKobo, unicode } = batchByMessage(recipients, byMessage, o.batchSize, o.rateKobo);
	return {
		sender: o.sender,
		dnd: o.dnd,
		recipients,
		batches,
		rateKobo: o.rateKobo,
		costKobo,
		unicode,
		campaignId: null,
	};
}

/** Every entry of every row as a recipient; those to send grouped by message (recipient indices). */
function classifyRows(
	rows: CampaignRow[],
	o: PlanOptions,
): { recipients: Recipient[]; byMessage: Map<string, number[]> } {
	const recipients: Recipient[] = [];
	const byMessage = new Map<string, number[]>();
	const oncePerNumber = o.oncePerNumber !== false;
	/** Key → the row (0-based) that texts it. */
	const seen = new Map<string, number>();
	rows.forEach((row, item) => {
		for (const input of row.numbers) {
			const r: Recipient = {
				item,
				name: row.name,
				input,
				phone: null,
				status: 'would send',
				reason: null,
				batch: null,
			};
			recipients.push(r);
			const c = classifyPhone(input);
			if ('problem' in c) [r.status, r.reason] = ['invalid', c.problem];
			else {
				r.phone = c.phone;
				if (typeof row.message !== 'string') [r.status, r.reason] = ['invalid', row.message.problem];
				else if (o.optOut.has(c.phone)) [r.status, r.reason] = ['opted out', 'on the opt-out list'];
				else {
					const key = oncePerNumber ? c.phone : `${c.phone}\u0000${row.message}`;
					const first = seen.get(key);
					if (first !== undefined) {
						const what = oncePerNumber ? 'number' : 'same number and message';
						[r.status, r.reason] = ['duplicate', `${what} already texted by row ${first + 1}`];
					} else {
						seen.set(key, item);
						const list = byMessage.get(row.message) ?? [];
						list.push(recipients.length - 1);
						byMessage.set(row.message, list);
					}
				}
			}
		}
	});
	return { recipients, byMessage };
}

/** One batch per at most `batchSize` recipients of one message, priced at `rateKobo` per page. */
function batchByMessage(
	recipients: Recipient[],
	byMessage: Map<string, number[]>,
	batchSize: number,
	rateKobo: number,
): { batches: CampaignBatch[]; costKobo: number; unicode: string[] } {
	const size = Math.max(1, Math.floor(batchSize));
	const batches: CampaignBatch[] = [];
	const unicode = new Set<string>();
	let costKobo = 0;
	for (const [message, idx] of byMessage) {
		const pages = smsPages(message);
		for (const ch of unicodeChars(message)) unicode.add(ch);
		for (let s = 0; s < idx.length; s += size) {
			const part = idx.slice(s, s + size);
			const cost = part.length * pages * rateKobo;
			for (const i of part) recipients[i].batch = batches.length;
			batches.push({
				message,
				pages,
				recipients: part,
				costKobo: cost,
				chargedKobo: 0,
				unclearKobo: 0,
				status: 'pending',
				ident: null,
				id: null,
				error: null,
				sentAt: null,
				resolvableAfter: null,
			});
			costKobo += cost;
		}
	}
	return { batches, costKobo, unicode: [...unicode] };
}

/** The numbers of a batch, in local form. */
export function batchNumbers(c: Campaign, b: CampaignBatch): string[] {
	return b.recipients.map((i) => c.recipients[i].phone as string);
}

const naira = (kobo: number): string => formatNaira(kobo, { symbol: true, grouping: true });
const int = (n: number): string => n.toLocaleString('en-US');

/** Set each recipient's final status from its batch (after a send). */
export function settle(c: Campaign): void {
	for (const r of c.recipients) {
		if (r.batch === null) continue;
		const b = c.batches[r.batch];
		if (b.status === 'successful') [r.status, r.reason] = ['sent', null];
		else if (b.status === 'pending' || b.status === 'not sent') [r.status, r.reason] = ['not sent', b.error];
		else [r.status, r.reason] = [b.status, b.error];
	}
}

/** Counts by status; they add up to `rows`. */
export function counts(c: Campaign): Record<RecipientStatus, number> {
	const n: Record<RecipientStatus, number> = {
		'would send': 0,
		sent: 0,
		duplicate: 0,
		invalid: 0,
		'opted out': 0,
		failed: 0,
		'unknown outcome': 0,
		'not sent': 0,
	};
	for (const r of c.recipients) n[r.status]++;
	return n;
}

/** Numbers that appear in more than one row, with every row (1-based) they appear in, in input order. */
export function repeatedNumbers(c: Campaign): Array<{ number: string; rows: number[] }> {
	const rows = new Map<string, number[]>();
	for (const r of c.recipients) {
		if (r.phone === null) continue;
		const list = rows.get(r.phone) ?? [];
		if (list[list.length - 1] !== r.item + 1) list.push(r.item + 1);
		rows.set(r.phone, list);
	}
	const out: Array<{ number: string; rows: number[] }> = [];
	for (const [number, list] of rows) if (list.length > 1) out.push({ number, rows: list });
	return out;
}

/** What the summary says about numbers in several rows: how many, which rows (first 20), what is sent. */
function duplicatesJson(c: Campaign): IDataObject {
	const repeated = repeatedNumbers(c);
	if (repeated.length === 0) return {};
	const once = c.recipients.every((r) => r.status !== 'duplicate' || r.reason?.startsWith('number'));
	const e = repeated[0];
	return {
		duplicateNumbers: repeated.slice(0, 20) as unknown as IDataObject[],
		duplicatesNote:
			`${int(repeated.length)} number${repeated.length > 1 ? 's appear' : ' appears'} in more than one row ` +
			`(e.g. ${e.number} in rows ${e.rows.join(', ')}): ` +
			(once
				? 'each number gets one text, the message of its first row'
				: 'each gets one text per different message (Text Each Number Once is off)') +
			(repeated.length > 20 ? `; the first 20 are listed, every one is in the attached CSV.` : '.'),
	};
}

/** Unclear requests as VTU Transaction → Resolve Unclear Purchase takes them (one per request). */
function unclearRequestsJson(c: Campaign): IDataObject[] {
	return c.batches
		.filter((b) => b.status === 'unknown outcome' && b.sentAt !== null)
		.map((b) => ({
			request: { product: 'sms', sender: c.sender, message: b.message, recipients: batchNumbers(c, b), dnd: c.dnd },
			sentAt: b.sentAt,
			resolvableAfter: b.resolvableAfter,
			...(b.customerRef !== undefined ? { customerRef: b.customerRef } : {}),
			rows: [...new Set(b.recipients.map((i) => c.recipients[i].item + 1))],
			numbers: b.recipients.length,
			amount: naira(b.costKobo),
		}));
}

/** The campaign summary item: counts and cost first, then how it was priced, then the details. */
export function summaryJson(c: Campaign, sent: boolean): IDataObject {
	const n = counts(c);
	const rows = c.recipients.length;
	const toSend = sent ? n.sent : n['would send'];
	const invalidReasons: IDataObject = {};
	for (const r of c.recipients)
		if (r.status === 'invalid') invalidReasons[r.reason!] = ((invalidReasons[r.reason!] as number) ?? 0) + 1;
	const pages = new Set(c.batches.map((b) => b.pages));
	const smsPagesTotal = c.batches.reduce((s, b) => s + b.recipients.length * b.pages, 0);
	const chargedKobo = c.batches.reduce((s, b) => s + b.chargedKobo, 0);
	const unclearKobo = c.batches.reduce((s, b) => s + b.unclearKobo, 0);
	const parts = [
		`${int(toSend)} ${sent ? 'sent' : 'to send'}`,
		`${int(n.duplicate)} duplicates`,
		`${int(n.invalid)} invalid`,
		`${int(n['opted out'])} opted out`,
	];
	if (sent) {
		if (n.failed) parts.push(`${int(n.failed)} failed`);
		if (n['unknown outcome']) parts.push(`${int(n['unknown outcome'])} unknown outcome`);
		if (n['not sent']) parts.push(`${int(n['not sent'])} not sent`);
	}
	const money = sent
		? `charged ${naira(chargedKobo)}${unclearKobo ? ` + ${naira(unclearKobo)} unclear (check later, do not resend)` : ''}`
		: `costs ${naira(c.costKobo)}`;
	const json: IDataObject = {
		summary: `${parts.join(' + ')} = ${int(rows)} row${rows === 1 ? '' : 's'}; ${money}`,
		rows,
		[sent ? 'sent' : 'toSend']: toSend,
		duplicates: n.duplicate,
		invalid: n.invalid,
		optedOut: n['opted out'],
	};
	if (sent) Object.assign(json, { failed: n.failed, unknownOutcome: n['unknown outcome'], notSent: n['not sent'] });
	Object.assign(json, {
		cost: naira(c.costKobo),
		costKobo: c.costKobo,
	});
	if (sent) Object.assign(json, { charged: naira(chargedKobo), chargedKobo, unclear: naira(unclearKobo), unclearKobo });
	Object.assign(json, {
		pages: pages.size <= 1 ? ([...pages][0] ?? 0) : `${Math.min(...pages)}–${Math.max(...pages)}`,
		smsPages: smsPagesTotal,
		rate: `${naira(c.rateKobo)} per number per page${c.dnd ? ' (DND route)' : ''}`,
		rateKobo: c.rateKobo,
		sender: c.sender,
		dnd: c.dnd,
		messages: new Set(c.batches.map((b) => b.message)).size,
		requests: c.batches.length,
		campaignId: c.campaignId,
		invalidReasons,
		...duplicatesJson(c),
	});
	if (c.unicode.length > 0) {
		json.unicodeWarning =
			`The message holds ${c.unicode.join(' ')}, outside the GSM alphabet: networks deliver it as Unicode ` +
			'(70 characters per SMS part), which can cost more on some routes. ' +
			'Write "N" for ₦ and leave out emoji to stay in plain SMS.';
	}
	if (sent) Object.assign(json, sentDetailsJson(c));
	return json;
}

/** After sending: the requests that failed, and the unclear ones with what resolving them needs. */
function sentDetailsJson(c: Campaign): IDataObject {
	const json: IDataObject = {};
	const failed = c.batches.filter((b) => b.status === 'failed' || b.status === 'not sent' || b.status === 'pending');
	json.failedRequests = failed
		.slice(0, 20)
		.map((b) => ({ status: b.status, numbers: b.recipients.length, error: b.error }));
	if (failed.length > 20)
		json.failedRequestsNote =
			`${failed.length} requests did not succeed; ` + 'the first 20 are listed, every number is in the attached CSV.';
	const unclear = unclearRequestsJson(c);
	if (unclear.length > 0) {
		json.unclearRequests = unclear;
		const many = unclear.length > 1;
		json.unclearNote =
			`${unclear.length} request${many ? 's' : ''} got no clear answer: ${many ? 'they' : 'it'} may have been charged ` +
			`and texted. Do not send ${many ? 'them' : 'it'} again: pass each of unclearRequests to VTU Transaction → ` +
			'Resolve Unclear Purchase after its resolvableAfter time. The numbers are in check-later.csv, not in rejected.csv.';
	}
	return json;
}

const csvCell = (v: unknown): string => {
	const s = v === null || v === undefined ? '' : String(v);
	// a leading = + - @ would run as a formula in a spreadsheet
	const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
	return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * CSV of every number that was not (or will not be) sent: row, name, number, status, reason. Numbers of
 * unclear requests are not in it (they may have been texted): see checkLaterCsv.
 */
export function rejectedCsv(c: Campaign): { csv: string; count: number } {
	return recipientsCsv(c, (r) => r.status !== 'sent' && r.status !== 'would send' && r.status !== 'unknown outcome');
}

/** CSV of the numbers of unclear requests: maybe texted and charged, to be checked, never resent blindly. */
export function checkLaterCsv(c: Campaign): { csv: string; count: number } {
	return recipientsCsv(c, (r) => r.status === 'unknown outcome');
}

function recipientsCsv(c: Campaign, which: (r: Recipient) => boolean): { csv: string; count: number } {
	const lines = ['row,name,number,status,reason'];
	for (const r of c.recipients) {
		if (!which(r)) continue;
		lines.push([r.item + 1, r.name, r.input, r.status, r.reason].map(csvCell).join(','));
	}
	return { csv: lines.join('\n') + '\n', count: lines.length - 1 };
}

/** One item per recipient entry, paired to its input row. */
export function recipientJson(c: Campaign, r: Recipient): IDataObject {
	const b = r.batch === null ? null : c.batches[r.batch];
	return {
		row: r.item + 1,
		...(r.name !== null ? { name: r.name } : {}),
		number: r.input,
		phone: r.phone,
		status: r.status,
		reason: r.reason,
		batch: b ? (b.ident ?? r.batch) : null,
		campaignId: c.campaignId,
		...(r.status === 'unknown outcome'
			? { outcome: 'check later', sentAt: b?.sentAt ?? null, resolvableAfter: b?.resolvableAfter ?? null }
			: {}),
	};
}

/** Lagos (WAT, UTC+1, no daylight saving) hour of `now`. */
export function lagosHour(now: Date): number {
	return (now.getUTCHours() + 1) % 24;
}

/** Whether `now` is inside [start, end) Lagos hours; start === end means always. Wraps past midnight. */
export function inSendWindow(now: Date, start: number, end: number): boolean {
	if (start === end) return true;
	const h = lagosHour(now);
	return start < end ? h >= start && h < end : h >= start || h < end;
}

/**
 * Batches as campaigns: a run of batches (newest first, as the history lists them) from one sender
 * and route with at most `gapMs` between neighbours. Its id is the ident of its oldest batch, the
 * same `campaignId` the Send operation reports.
 */
export function groupCampaigns(batches: SmsBatch[], gapMs = 10 * 60_000): IDataObject[] {
	const groups: SmsBatch[][] = [];
	let prevMs: number | null = null;
	for (const b of batches) {
		const ms = parseCreateDate(b.createdAt)?.ms ?? null;
		const g = groups[groups.length - 1];
		const head = g?.[g.length - 1];
		const joins =
			head &&
			head.sender === b.sender &&
			head.dnd === b.dnd &&
			(ms === null || prevMs === null || Math.abs(prevMs - ms) <= gapMs);
		if (joins) g.push(b);
		else groups.push([b]);
		prevMs = ms;
	}
	return groups.map((g) => {
		const oldest = g[g.length - 1];
		const kobo = g.reduce((s, b) => s + b.amount.kobo, 0);
		const messages = new Set(g.map((b) => b.message));
		return {
			campaignId: oldest.ident,
			sender: oldest.sender,
			dnd: oldest.dnd,
			batches: g.length,
			recipients: g.reduce((s, b) => s + b.recipients.length, 0),
			messages: messages.size,
			message:
				messages.size === 1
					? oldest.message
					: `${messages.size} personalised messages, e.g. ${JSON.stringify(oldest.message)}`,
			amount: naira(kobo),
			amountKobo: kobo,
			firstSentAt: oldest.createdAt,
			lastSentAt: g[0].createdAt,
		};
	});
}

/** Campaign id of a sent campaign: the ident of its oldest successful batch (what List Batches groups by). */
export function campaignIdOf(c: Campaign): string | null {
	let best: CampaignBatch | null = null;
	for (const b of c.batches) {
		if (b.status !== 'successful' || !b.ident) continue;
		if (!best || Number(b.id) < Number(best.id)) best = b;
	}
	return best?.ident ?? null;
}
