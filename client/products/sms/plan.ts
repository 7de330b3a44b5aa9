/**
 * Bulk SMS: planning (normalise, dedupe, pages, cost, batches), the send body (`recetipient`, sic),
 * the legacy 200 {"error":"Message succesfully sent "} success, and history entries.
 */
import type { Money, PurchaseResult, ResultPath, SmsBatch, SmsPlan, SmsPurchase, SmsRates } from '../../types';
import { money } from '../../money';
import { classifyPhone, tryNormalizePhone, type PhoneProblem } from '../../phone';
import { normalizeStatus, zId } from '../../schemas/common';
import { VtuBadResponseError, VtuInsufficientBalanceError, VtuInvalidInputError } from '../../errors';
import { firstMoney, invalid, isRec, scrubRaw, text } from '../common';
import {
	MOBILE_EXAMPLE,
	parseBoolean,
	parseMessage,
	parseSender,
	phoneProblemText,
	splitRecipients,
} from '../../input';
import { rateNote } from './rate';
import { SMS_SPEC } from './spec';

const { fields: F, limits: L } = SMS_SPEC;
export const SMS_MAX_CHARS = L.messageChars;
const PAGE_LIMITS = [160, 304, 454, 605, 755, 905];

/**
 * Pages by characters as the site counts them: the family's server takes Python `len(message)`, i.e.
 * code points (an emoji is 1, not the 2 UTF-16 units of JS `.length`); the sandbox counts the same.
 * 1–160 → 1, 161–304 → 2, 305–454 → 3, 455–605 → 4, 606–755 → 5, 756–905 → 6. */
export function smsPages(message: string): number {
	const n = [...message].length;
	if (n === 0) return 0;
	for (let i = 0; i < PAGE_LIMITS.length; i++) if (n <= PAGE_LIMITS[i]) return i + 1;
	return PAGE_LIMITS.length;
}

/** GSM 03.38 7-bit alphabet, basic set and extension table: a message outside it travels as Unicode (UCS-2). */
const GSM7 = new Set([
	...('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
		'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà' +
		'^{}\\[~]|€\f'),
]);

/** The characters of `message` (each once) that networks bill as Unicode, e.g. ₦ and emoji. */

/** Words that make a "sent" or "success" in an SMS answer mean the opposite. */
const NEGATION = new RegExp(
	"\\b(?:not|no|never|unable|cannot|can't|couldn't|fail(?:ed|ure)?|error|insufficient|invalid|declined|rejected)" +
		'\\b|unsuccess',
	'i',
);

export function unicodeChars(message: string): string[] {
	return [...new Set([...message].filter((c) => !GSM7.has(c)))];
}

export function checkSender(sender: unknown): string {
	return parseSender(sender, L.senderChars);
}

export function checkMessage(message: unknown): string {
	return parseMessage(message, SMS_MAX_CHARS);
}

export { splitRecipients };

export function planSms(req: Omit<SmsPurchase, 'product'> | SmsPurchase, rates: SmsRates, batchSize = 500): SmsPlan {
	const sender = checkSender(req.sender);
	const message = checkMessage(req.message);
	const dnd = parseBoolean(req.dnd, 'dnd');
	const inputs = splitRecipients(req.recipients);
	const seen = new Set<string>();
	const valid: string[] = [];
	const bad: string[] = [];
	const rejected: SmsPlan['rejected'] = [];
	let duplicates = 0;
	for (const raw of inputs) {
		const c = classifyPhone(raw);
		if ('problem' in c) {
			bad.push(raw);
			rejected.push({ input: raw, reason: c.problem });
		} else if (seen.has(c.phone)) duplicates++;
		else {
			seen.add(c.phone);
			valid.push(c.phone);
		}
	}
	if (valid.length === 0) {
		throw invalid(
			'recipients',
			inputs.length === 0
				? 'recipients is empty; give one or more Nigerian mobile numbers separated by commas.'
				: `none of the ${inputs.length} recipients is a Nigerian mobile number (e.g. ${JSON.stringify(bad[0])}: ` +
						`${phoneProblemText(rejected[0].reason as PhoneProblem, bad[0])}); ${MOBILE_EXAMPLE}.`,
		);
	}
	const pages = smsPages(message);
	const rate = dnd ? rates.dndPerPage : rates.perPage;
	const rateSource = rates.sources?.[dnd ? 'dndPerPage' : 'perPage'] ?? 'catalogue';
	const size = Math.max(1, Math.floor(batchSize));
	const batches: string[][] = [];
	for (let i = 0; i < valid.length; i += size) batches.push(valid.slice(i, i + size));
	return {
		sender,
		message,
		recipients: valid,
		invalid: bad,
		rejected,
		duplicates,
		unicode: unicodeChars(message),
		pages,
		dnd,
		rate,
		rateSource,
		rateNote: rateNote(rateSource, rate, dnd),
		cost: money(valid.length * pages * rate.kobo),
		batches,
	};
}

export function smsBody(plan: SmsPlan, batch: string[]): Record<string, unknown> {
	return {
		[F.sender.wire]: plan.sender,
		[F.recipients.wire]: batch.join(','),
		[F.message.wire]: plan.message,
		[F.dnd.wire]: plan.dnd,
	};
}

/** A history row's recipients (server data: read leniently, never refused like a caller's input). */
function phones(v: unknown): string[] {
	const asText = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : '');
	return splitRecipients(Array.isArray(v) ? v.map(asText) : asText(v)).map((x) => tryNormalizePhone(x) ?? x);
}

/** History entry {total, unit, sendername, message, page, amount, to, ident, create_date, DND} → SmsBatch. */
export function parseSmsBatch(o: unknown): SmsBatch | null {
	if (!isRec(o)) return null;
	if (o.sendername === undefined && o.sender === undefined && o.to === undefined) return null;
	const recipients = phones(o.to ?? o.recipients ?? o.recetipient);
	return {
		ident: o.ident == null || o.ident === '' ? null : String(o.ident),
		sender: text(o.sendername ?? o.sender),
		message: text(o.message),
		recipients,
		pages: Number(o.page ?? o.pages) || 0,
		amount: firstMoney(o.amount, o.total) ?? money(0),
		dnd: o.DND === true || o.DND === 'true' || o.dnd === true,
		createdAt: o.create_date == null ? null : String(o.create_date),
	};
}

export function batchToResult(
	b: SmsBatch,
	raw: unknown,
	path: ResultPath,
	extra: Record<string, unknown> = {},
): PurchaseResult {
	const r = isRec(raw) ? raw : {};
	const id = zId.safeParse(r.id);
	// History rows carry no Status (SMS is final at once): absent → successful. A Status that is there but
	// not one we know ("successful?", {…}, "") is not a success.
	const rawStatus = r.Status ?? r.status;
	const status = normalizeStatus(rawStatus) ?? (rawStatus === undefined || rawStatus === null ? 'successful' : null);
	if (!status)
		throw new VtuBadResponseError(
			`The SMS record has no known Status (got ${JSON.stringify(rawStatus)?.slice(0, 40)}).`,
		);
	return {
		product: 'sms',
		id: id.success ? id.data : null,
		ident: b.ident,
		status,
		amount: b.amount,
		balanceBefore: firstMoney(r.balance_before, r.previous_balance),
		balanceAfter: firstMoney(r.balance_after, r.after_balance),
		recipient: b.recipients.join(','),
		details: {
			pages: b.pages,
			recipients: b.recipients,
			invalid: [],
			sender: b.sender,
			dnd: b.dnd,
			message: b.message,
			...extra,
		},
		message: text(r.api_response ?? r.message ?? ''),
		createdAt: b.createdAt,
		path,
		raw: scrubRaw(raw),
	};
}

/**
 * Parse the answer to POST /api/sendsms/ (2xx). Returns a result; `needsEnrichment` when the site gave
 * only a text (legacy `{"error":"Message succesfully sent "}` or `{"message": ...}`).
 */
export function parseSmsSend(
	raw: unknown,
	plan: SmsPlan,
	batch: string[],
	cost: Money,
	path: ResultPath,
): { result: PurchaseResult; needsEnrichment: boolean } {
	if (!isRec(raw)) throw new VtuBadResponseError('The SMS send answer is not a JSON object.');
	const asBatch = parseSmsBatch(raw);
	if (asBatch && (asBatch.ident || raw.id !== undefined)) {
		return {
			result: batchToResult(
				{ ...asBatch, recipients: asBatch.recipients.length ? asBatch.recipients : batch },
				raw,
				path,
				{ invalid: plan.invalid, rejected: plan.rejected },
			),
			needsEnrichment: false,
		};
	}
	const msg = text(raw.error ?? raw.message ?? raw.msg ?? raw.detail ?? raw.status ?? '');
	const st = normalizeStatus(raw.Status ?? raw.status);
	// "Message not sent", "unsuccessful", "could not be sent" also contain "sent"/"success": a negation wins.
	const negated = NEGATION.test(msg);
	const ok = !negated && (/succes+ful+y?\s*sent|\bsent\b|success/i.test(msg) || st === 'successful');
	if (!ok) {
		if (/insufficien/i.test(msg))
			throw new VtuInsufficientBalanceError(
				`Insufficient wallet balance: "${msg}". Fund the wallet; nothing was sent.`,
				{ serverMessage: msg },
			);
		if (raw.error !== undefined)
			throw new VtuInvalidInputError(`The server refused the SMS: "${msg}". Nothing was charged.`, {
				serverMessage: msg,
			});
		throw new VtuBadResponseError(`Unrecognised SMS send answer: ${JSON.stringify(raw).slice(0, 160)}`);
	}
	const b: SmsBatch = {
		ident: null,
		sender: plan.sender,
		message: plan.message,
		recipients: batch,
		pages: plan.pages,
		amount: cost,
		dnd: plan.dnd,
		createdAt: null,
	};
	const result = batchToResult(b, raw, path, { invalid: plan.invalid, rejected: plan.rejected });
	result.message = msg.trim();
	return { result, needsEnrichment: true };
}
