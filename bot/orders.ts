/**
 * Executing journalled orders: the only place the bot spends money.
 *
 * `executeOrder` = journal.beginSend (atomic created→sent, limits) → journal.durable (the row on disk) →
 * client.buy (the client's safe purchase: sent once, reconciled when the outcome is ambiguous) → journal the
 * outcome.
 */
import type { Journal, Limits, Order, StoredResult } from './journal';
import type { Logger } from './logger';
import { maskPhone } from './logger';
import { t } from './i18n';
import { withDelivered } from './delivery';
import {
	NOT_CHARGED_CODES,
	errorCode,
	formatNaira,
	formatPhone,
	money,
	newCustomerRef,
	refOf,
	smsPages,
	splitRecipients,
	type BotPurchaseRequest,
	type PurchaseResult,
	type VtuClientLike,
} from './vtu';

export const naira = (kobo: number): string => formatNaira(kobo, { symbol: true, grouping: true });

/** Serializable summary of an order, safe to keep in conversation state. */
export interface OrderView {
	id: string;
	state: string;
	product: string;
	description: string;
	recipient: string | null;
	amountKobo: number;
	chargedKobo: number | null;
	ident: string | null;
	balanceAfterKobo: number | null;
	message: string;
	errorCode: string | null;
	errorMessage: string | null;
	/** The detail the vendor refused by name at the purchase (e.g. "phone"): "Try again" asks it again. */
	errorField: string | null;
	path: string | null;
	details: Record<string, unknown>;
}

export type ExecuteOutcome =
	| { kind: 'done'; order: OrderView }
	| { kind: 'already'; order: OrderView }
	| { kind: 'refused'; reason: 'max_purchase' | 'daily_limit' | 'expired' | 'not_found'; text: string };

export function viewOf(o: Order): OrderView {
	const r = o.result as Partial<StoredResult> | null;
	return {
		id: o.id,
		state: o.state,
		product: o.product,
		description: o.description,
		recipient: o.recipient,
		amountKobo: o.amountKobo,
		chargedKobo: o.chargedKobo,
		ident: o.ident,
		balanceAfterKobo: r?.balanceAfterKobo ?? null,
		message: r?.message ?? '',
		errorCode: o.errorCode,
		errorMessage: o.errorMessage,
		errorField: o.errorField,
		path: r?.path ?? null,
		details: r?.details ?? {},
	};
}

export function storedOf(r: PurchaseResult): StoredResult {
	return {
		status: r.status,
		ident: r.ident,
		id: r.id,
		amountKobo: r.amount ? r.amount.kobo : null,
		balanceAfterKobo: r.balanceAfter ? r.balanceAfter.kobo : null,
		message: typeof r.message === 'string' ? r.message.slice(0, 500) : '',
		path: r.path,
		details: r.details ?? {},
		createdAt: r.createdAt,
		recipient: r.recipient,
		customerRef: refOf(r),
	};
}

/** Rebuild a PurchaseResult for client.transactions.refresh from what the journal kept. */
export function resultOf(o: Order): PurchaseResult | null {
	const s = o.result as StoredResult | null;
	if (!s) return null;
	const m = (k: number | null) => (k === null ? null : money(k));
	return {
		product: o.product as PurchaseResult['product'],
		id: s.id,
		ident: s.ident,
		status: s.status,
		amount: m(s.amountKobo ?? o.amountKobo)!,
		balanceBefore: null,
		balanceAfter: m(s.balanceAfterKobo),
		recipient: s.recipient,
		details: s.details ?? {},
		message: s.message ?? '',
		createdAt: s.createdAt,
		path: (s.path as PurchaseResult['path']) ?? 'direct',
		raw: null,
	};
}

/** What to record for a purchase or reconcile that ended in an error. */
export type Verdict =
	| { state: 'not_charged'; code: string; message: string; field?: string }
	| { state: 'unknown'; code: string; message: string; recheckAt: number };

/** `details.resolvableAfter` of a VtuUnknownOutcomeError (ISO string), as epoch ms. */
export function resolvableAfterOf(e: unknown): number | null {
	const v = (e as { details?: { resolvableAfter?: unknown } } | null)?.details?.resolvableAfter;
	const t = typeof v === 'string' ? Date.parse(v) : NaN;
	return Number.isNaN(t) ? null : t;
}

/**
 * `details.customerRef` of an unknown_outcome: the customer_ref its POST carried (null: sent without one);
 * undefined when the error does not say.
 */
export function customerRefOf(e: unknown): string | null | undefined {
	const d = (e as { details?: unknown } | null)?.details;
	if (typeof d !== 'object' || d === null || !('customerRef' in d)) return undefined;
	const v = (d as { customerRef: unknown }).customerRef;
	return typeof v === 'string' || v === null ? v : undefined;
}

/** The field an invalid_input names (the client's VtuError `field`), if any. */
function fieldOf(e: unknown): string | undefined {
	const f = (e as { field?: unknown } | null)?.field;
	return typeof f === 'string' && f !== '' ? f : undefined;
}

export interface Bounds {
	/** The vendor's processing bound: before sentAt + this, no answer can prove "not charged". */
	maxProcessingMs: number;
	/** Earliest next check of an unclear order. */
	recheckMs: number;
}

/**
 * "Not charged" only with proof. From `buy`, the client's refusal codes (the site refused, or the request
 * never left) are proof by the answer itself; `not_charged` from reading the account back is believed only
 * once the vendor can no longer be creating the record (sentAt + maxProcessingMs): a slow vendor's record
 * may still appear. Anything else is `unknown`, checked again no earlier than the client's resolvableAfter.
 */
export function judge(e: unknown, from: 'buy' | 'reconcile', sentAt: number, now: number, b: Bounds): Verdict {
	const code = errorCode(e) ?? 'internal';
	const message = (e instanceof Error ? e.message : String(e)).slice(0, 500);
	const bound = sentAt + b.maxProcessingMs;
	if (code === 'not_charged' && now >= bound) return { state: 'not_charged', code, message };
	if (code !== 'not_charged' && from === 'buy' && NOT_CHARGED_CODES.has(code)) {
		// the site refused a detail by name (invalid_input's field): "Try again" asks that detail again
		const field = code === 'invalid_input' ? fieldOf(e) : undefined;
		return field === undefined
			? { state: 'not_charged', code, message }
			: { state: 'not_charged', code, message, field };
	}
	const earliest = Math.max(now + b.recheckMs, resolvableAfterOf(e) ?? 0);
	if (code === 'not_charged') {
		return {
			state: 'unknown',
			code: 'unknown_outcome',
			message: 'No record yet, but the provider may still be creating it: checking again.',
			recheckAt: Math.max(earliest, bound),
		};
	}
	return { state: 'unknown', code, message, recheckAt: earliest };
}

export interface OrderServiceDeps {
	client: VtuClientLike;
	journal: Journal;
	limits: Limits;
	logger: Logger;
	/** Orders not confirmed within this time are refused at confirm (stale). */
	confirmTtlMs: number;
	now: () => number;
	bounds: Bounds;
	/**
	 * Send each purchase with a customer_ref chosen here and journalled before the POST (VTU_CUSTOMER_REF):
	 * a crash mid-purchase leaves the follower the reference, and on a site that echoes it the record
	 * carrying it is proven the order's, whatever other buyers share the token.
	 */
	customerRef?: boolean;
	/** The vendor wallet's balance after a purchase, as its answer tells it (vendor-wallet.ts notes it). */
	onBalance?: (kobo: number) => void;
}

export class OrderService {
	constructor(private readonly d: OrderServiceDeps) {}

	async execute(orderId: string): Promise<ExecuteOutcome> {
		const { journal, client, logger } = this.d;
		// Age and limits are checked inside the created→sent transaction; a refused order is closed there.
		const ref = this.d.customerRef ? newCustomerRef() : undefined;
		const begin = journal.beginSend(orderId, this.d.limits, this.d.confirmTtlMs, ref);
		if (!begin.ok) {
			if (begin.reason === 'state') return { kind: 'already', order: viewOf(begin.order) };
			if (begin.reason === 'not_found') return { kind: 'refused', reason: 'not_found', text: t('refused-not-found') };
			if (begin.reason === 'expired') return { kind: 'refused', reason: 'expired', text: t('refused-expired') };
			if (begin.reason === 'max_purchase') {
				return {
					kind: 'refused',
					reason: 'max_purchase',
					text: t('refused-max-purchase', { amount: naira(begin.order.amountKobo), limit: naira(begin.limitKobo) }),
				};
			}
			const left = Math.max(0, begin.limitKobo - begin.spentKobo);
			return {
				kind: 'refused',
				reason: 'daily_limit',
				text: t('refused-daily-limit', { limit: naira(begin.limitKobo), left: naira(left) }),
			};
		}
		const order = begin.order;
		try {
			await journal.durable();
		} catch (e) {
			// the disk would not keep the `sent` row, so the purchase is not sent: nothing left this process
			logger.error('order not durable, not sent', { order: order.id, error: String(e) });
			const message = 'The order could not be saved to disk, so it was not sent.';
			return {
				kind: 'done',
				order: viewOf(journal.recordError(order.id, 'not_charged', 'journal_unavailable', message)),
			};
		}
		const req = order.request as unknown as BotPurchaseRequest;
		logger.info('order sent', {
			order: order.id,
			user: order.userId,
			product: order.product,
			kobo: order.amountKobo,
			to: maskPhone(order.recipient),
		});
		try {
			const result = await client.buy(req, ref === undefined ? undefined : { customerRef: ref });
			logger.info('order result', { order: order.id, status: result.status, ident: result.ident, path: result.path });
			return { kind: 'done', order: viewOf(this.record(order, result)) };
		} catch (e) {
			const v = judge(e, 'buy', order.sentAt ?? order.createdAt, this.d.now(), this.d.bounds);
			logger.warn('order error', { order: order.id, code: v.code, state: v.state });
			// the customer_ref its POST carried is kept: the follower passes it back (proof of which record is its own)
			const after = journal.recordError(
				order.id,
				v.state,
				v.code,
				v.message,
				v.state === 'unknown' ? v.recheckAt : null,
				customerRefOf(e),
				v.state === 'not_charged' ? v.field : undefined,
			);
			return { kind: 'done', order: viewOf(after) };
		}
	}

	/**
	 * The POST's own answer is this order's record. A record the client found by reading the account back is
	 * taken only when the shared journal shows no other order (of any instance) may own it, or when it
	 * carries a customer_ref: the client adopts such a record only when the ref is the one this POST carried
	 * (client/API.md "Who owns a record"), so it is proof. Else the order stays unclear and the follower
	 * resolves it with every instance's claims.
	 */
	private record(order: Order, result: PurchaseResult): Order {
		const { journal, logger } = this.d;
		const stored = storedOf(result);
		// the purchase's own answer (a record found by reconciling may tell an older balance)
		if (result.path === 'direct' && stored.balanceAfterKobo !== null) this.d.onBalance?.(stored.balanceAfterKobo);
		if (result.path === 'direct') return journal.recordResult(order.id, stored);
		// the ref journalled before the POST, else (a client that chose its own) the one the record carries
		const sentRef = order.customerRef || stored.customerRef || undefined;
		const a = journal.adopt(order.id, stored, sentRef);
		if (a.ok) return a.order;
		logger.warn('reconciled record not adopted', {
			order: order.id,
			reason: a.reason,
			other: a.other,
			ident: result.ident,
		});
		const message = 'A matching record was found, but it may belong to another order: checking again.';
		const at = this.d.now() + this.d.bounds.recheckMs;
		return journal.recordError(order.id, 'unknown', 'unknown_outcome', message, at, sentRef);
	}
}

const PRODUCT_NAME: Record<string, string> = {
	data: 'product-data',
	airtime: 'product-airtime',
	sms: 'product-sms',
	cable: 'product-cable',
	electricity: 'product-electricity',
	exam_pin: 'product-exam-pin',
	recharge_card: 'product-recharge-card',
};

export function productName(p: string): string {
	return PRODUCT_NAME[p] ? t(PRODUCT_NAME[p]) : p;
}

/** Who got it, as the seller reads it: "0803 123 4567" or "18 numbers". */
export function recipientOf(o: Pick<OrderView, 'product' | 'recipient'>): string | null {
	if (!o.recipient) return null;
	// an IUC, a meter number or "3 numbers" is shown as it is; a phone number the way people read one
	return o.product === 'data' || o.product === 'airtime' ? formatPhone(o.recipient) : o.recipient;
}

/** "MTN data 1GB SME (30 days) to 0803 123 4567": what was bought, and for whom when known. */
export function whatText(o: Pick<OrderView, 'product' | 'recipient' | 'description'>): string {
	const to = recipientOf(o);
	return to ? t('recipient-to', { what: o.description, to }) : o.description;
}

/**
 * A bulk SMS order as /history lists it (both modes), from its request: the sender, how many numbers, and the
 * pages each number gets when more than one.
 */
export function smsWhat(req: Record<string, unknown>): string {
	const list = req.recipients;
	const n = Array.isArray(list) ? list.length : splitRecipients(String(list ?? '')).length;
	const pages = typeof req.message === 'string' ? smsPages(req.message) : 1;
	const vars = {
		sender: String(req.sender ?? ''),
		numbers: t('sms-numbers', { n }),
		pages: t('sms-pages', { n: pages }),
	};
	return t(pages > 1 ? 'history-sms-pages' : 'history-sms', vars);
}

/** The state in seller words: Delivered / Pending / Refunded ₦x / Failed (not charged). */
export function stateLabel(o: Pick<OrderView, 'state' | 'chargedKobo' | 'amountKobo'>): string {
	switch (o.state) {
		case 'successful':
			return t('state-successful');
		case 'failed':
			// The vendor reported a charged amount: a failed order's money goes back to the wallet.
			return o.chargedKobo !== null ? t('state-refunded', { amount: naira(o.chargedKobo) }) : t('state-failed');
		case 'not_charged':
			return t('state-failed');
		case 'cancelled':
			return t('state-cancelled');
		case 'expired':
			return t('state-expired');
		default:
			return t('state-pending');
	}
}

const STATE_ICON: Record<string, string> = {
	successful: '✅',
	failed: '↩️',
	not_charged: '❌',
	unknown: '⚠️',
	cancelled: '✖️',
	expired: '✖️',
};

/** The message a user gets for an order's current state. Plain text (no parse mode). */
export function outcomeText(o: OrderView): string {
	const what = whatText(o);
	// One reference per order from "Sending…" to the last notice: the journal's id (the provider's
	// reference is known only once it answers; /history's details show it).
	const ref = [t('outcome-reference', { ref: o.id })];
	const charged = t('outcome-charged', { charged: naira(o.chargedKobo ?? o.amountKobo) });
	const bal = o.balanceAfterKobo !== null ? [t('outcome-balance', { balance: naira(o.balanceAfterKobo) })] : [];
	const head = t('outcome-head', { icon: STATE_ICON[o.state] ?? '⏳', label: stateLabel(o), what });
	const lines = (...l: string[]) => l.join('\n');
	switch (o.state) {
		case 'successful':
			return withDelivered([head, charged, ...ref, ...bal], o.product, o.details);
		case 'processing':
		case 'sent':
			return lines(head, charged, ...ref, t('outcome-pending-note'));
		case 'failed':
			return o.chargedKobo !== null ? lines(head, ...ref, t('outcome-refunded-note')) : lines(head, ...ref);
		case 'not_charged':
			return lines(head, userError(o.errorCode, o.errorField), ...ref, t('outcome-not-charged-note'));
		case 'unknown':
			return t('outcome-unknown', { what, order: o.id });
		default:
			return head;
	}
}

const ERROR_TEXT: Record<string, string> = {
	insufficient_balance: 'err-insufficient-balance',
	auth: 'err-auth',
	forbidden: 'err-auth',
	rate_limited: 'err-rate-limited',
	network: 'err-network',
	not_found: 'err-not-found',
	not_charged: 'err-not-charged',
	journal_unavailable: 'err-journal-unavailable',
};

/** The details the provider may refuse by name, said in seller words. */
const REFUSED_TEXT: Record<string, string> = {
	phone: 'err-refused-phone',
	iuc: 'err-refused-iuc',
	meter: 'err-refused-meter',
	recipients: 'err-refused-recipients',
};

/**
 * A seller-facing reason for a client error code; the client's message (written for developers) stays in the
 * log. A detail the provider refused by name (`field`) is named; a value the bot itself refused is said by
 * refusals.ts (refusalWords).
 */
export function userError(code: string | null, field?: string | null): string {
	if (code === 'invalid_input' && field && Object.hasOwn(REFUSED_TEXT, field)) return t(REFUSED_TEXT[field]);
	return t(code === 'invalid_input' ? 'err-invalid-input' : (code && ERROR_TEXT[code]) || 'err-other');
}

/** Refund / settlement notices sent by the follower. */
export function changeText(o: OrderView, from: string): string {
	if (from === 'successful' && o.state === 'failed') {
		return t('notice-refund', {
			amount: naira(o.chargedKobo ?? o.amountKobo),
			what: whatText(o),
			ref: o.id,
		});
	}
	return `${t('notice-update', { ref: o.id })}\n${outcomeText(o)}`;
}
