/**
 * The order journal. Every purchase is written here BEFORE the API call:
 *
 *   created ──confirm──► sent ──► successful | processing | failed | unknown | not_charged
 *      │                           processing ──► successful | failed   (follower)
 *      └──► cancelled / expired    successful ──► failed (refund, follower)
 *
 * `created → sent` is one atomic, limit-checked SQLite transaction: whoever wins it is the
 * only caller allowed to send the purchase, once `durable()` says the row is on disk. A double tap,
 * a duplicate update or a replayed conversation step loses the race and reads the journalled outcome instead.
 */
import { randomBytes } from 'node:crypto';
import type { DB } from './db';
import { GroupSync, commitFile, fsyncFile, type SyncFile } from './durable';

export type OrderState =
	| 'created'
	| 'cancelled'
	| 'expired'
	| 'sent'
	| 'successful'
	| 'processing'
	| 'failed'
	| 'unknown'
	| 'not_charged';

/** States whose money is (or may be) spent: they count toward the daily limit. */
export const SPENDING_STATES: OrderState[] = ['sent', 'successful', 'processing', 'unknown'];

/** A journalled order: what was asked (NewOrder) plus where it stands. */
export interface Order extends NewOrder {
	id: string;
	state: OrderState;
	ident: string | null;
	vendorId: number | null;
	chargedKobo: number | null;
	result: Record<string, unknown> | null;
	errorCode: string | null;
	errorMessage: string | null;
	/** The detail the vendor refused by name (invalid_input's field, e.g. "phone"), when it refused the purchase. */
	errorField: string | null;
	createdAt: number;
	sentAt: number | null;
	finalAt: number | null;
	updatedAt: number;
	notifiedState: string | null;
	checkedAt: number | null;
	/** `unknown` orders: when the follower checks again (null = at its next pass). */
	recheckAt: number | null;
	/**
	 * The customer_ref the order's POST carried, kept when its outcome was unclear (the client's
	 * `details.customerRef`) and passed back to reconcile: a string, null (sent without one), or undefined
	 * (not known: a crash before the answer, or an order journalled before this was kept).
	 */
	customerRef: string | null | undefined;
}

interface Row {
	id: string;
	user_id: number;
	chat_id: number;
	product: string;
	request: string;
	description: string;
	recipient: string | null;
	amount_kobo: number;
	state: OrderState;
	ident: string | null;
	vendor_id: number | null;
	charged_kobo: number | null;
	result: string | null;
	error_code: string | null;
	error_message: string | null;
	error_field: string | null;
	created_at: number;
	sent_at: number | null;
	final_at: number | null;
	updated_at: number;
	notified_state: string | null;
	checked_at: number | null;
	recheck_at: number | null;
	customer_ref: string | null;
}

/** The customer_ref column: NULL = not known, '' = sent without one. */
const refColumn = (ref: string | null | undefined): string | null => (ref === undefined ? null : (ref ?? ''));
const refOfColumn = (c: string | null | undefined): string | null | undefined =>
	c === null || c === undefined ? undefined : c === '' ? null : c;

function toOrder(r: Row | undefined): Order | undefined {
	if (!r) return undefined;
	return {
		id: r.id,
		userId: r.user_id,
		chatId: r.chat_id,
		product: r.product,
		request: JSON.parse(r.request),
		description: r.description,
		recipient: r.recipient,
		amountKobo: r.amount_kobo,
		state: r.state,
		ident: r.ident,
		vendorId: r.vendor_id,
		chargedKobo: r.charged_kobo,
		result: r.result ? JSON.parse(r.result) : null,
		errorCode: r.error_code,
		errorMessage: r.error_message,
		errorField: r.error_field ?? null,
		createdAt: r.created_at,
		sentAt: r.sent_at,
		finalAt: r.final_at,
		updatedAt: r.updated_at,
		notifiedState: r.notified_state,
		checkedAt: r.checked_at,
		recheckAt: r.recheck_at ?? null,
		customerRef: refOfColumn(r.customer_ref),
	};
}

export interface Clock {
	now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Start of the calendar day in Africa/Lagos (UTC+1, no DST), as epoch ms. */
export function lagosDayStart(now: number): number {
	const offset = 3_600_000;
	return Math.floor((now + offset) / 86_400_000) * 86_400_000 - offset;
}

export interface NewOrder {
	userId: number;
	chatId: number;
	product: string;
	request: Record<string, unknown>;
	description: string;
	recipient: string | null;
	amountKobo: number;
}

export interface Limits {
	maxPurchaseKobo: number;
	dailyLimitKobo: number;
}

export type BeginSendResult =
	| { ok: true; order: Order }
	| { ok: false; reason: 'state'; order: Order }
	| { ok: false; reason: 'not_found' }
	| { ok: false; reason: 'expired'; order: Order }
	| { ok: false; reason: 'max_purchase'; limitKobo: number; order: Order }
	| { ok: false; reason: 'daily_limit'; limitKobo: number; spentKobo: number; order: Order };

/** A vendor record an order owns, as reconciliation needs it. */
export interface ClaimedRecord {
	id: number | null;
	ident: string | null;
	createdAt: string | null;
	sentAt: number | null;
}

/** What the journal keeps of a purchase result (no raw vendor body). */
export interface StoredResult {
	status: 'successful' | 'processing' | 'failed';
	ident: string | null;
	id: number | null;
	amountKobo: number | null;
	balanceAfterKobo: number | null;
	message: string;
	path: string;
	details: Record<string, unknown>;
	createdAt: string | null;
	recipient: string | null;
	/** The customer_ref the record carries, where the site echoes one ('' when it echoes none). */
	customerRef?: string | null;
}

/**
 * The follower's and reconciliation's statements: which orders are due a check (and when they were
 * checked), and which vendor records other orders already own or could match.
 */
function followStatements(db: DB) {
	return {
		recheck: db.prepare(`UPDATE orders SET checked_at = @now, recheck_at = @at WHERE id = @id`),
		unknownDue: db.prepare(
			`SELECT * FROM orders WHERE state = 'unknown' AND (recheck_at IS NULL OR recheck_at <= ?)
         ORDER BY recheck_at LIMIT ?`,
		),
		ownedByOther: db.prepare(
			`SELECT id FROM orders WHERE product = @product AND id <> @id
           AND state NOT IN ('not_charged', 'cancelled', 'expired')
           AND ((@vendor_id IS NOT NULL AND vendor_id = @vendor_id) OR (@ident IS NOT NULL AND ident = @ident))
         LIMIT 1`,
		),
		checked: db.prepare(`UPDATE orders SET checked_at = @now WHERE id = @id`),
		successfulSince: db.prepare(
			`SELECT * FROM orders WHERE state = 'successful' AND final_at >= ? AND (checked_at IS NULL OR checked_at < ?)
         ORDER BY checked_at LIMIT ?`,
		),
		claimed: db.prepare(
			`SELECT vendor_id, ident, result, sent_at FROM orders
         WHERE product = ? AND id <> ? AND created_at >= ? AND (vendor_id IS NOT NULL OR ident IS NOT NULL)
         ORDER BY created_at DESC LIMIT ?`,
		),
		openIdentical: db.prepare(
			`SELECT COUNT(*) AS n FROM orders WHERE product = ? AND recipient IS ? AND amount_kobo = ? AND id <> ?
         AND state IN ('sent', 'unknown')`,
		),
	};
}

/** Prepared once: every purchase sets and reads its progress message. */
const messageStatements = (db: DB) => ({
	set: db.prepare(`INSERT OR REPLACE INTO kv (key, value, updated_at) VALUES (?, ?, ?)`),
	get: db.prepare(`SELECT value FROM kv WHERE key = ?`),
});

export class Journal {
	private readonly stmts;
	private readonly msg;
	private readonly group: GroupSync;

	constructor(
		readonly db: DB,
		private readonly clock: Clock = systemClock,
		sync: SyncFile = fsyncFile,
	) {
		this.group = new GroupSync(commitFile(db), sync);
		this.stmts = {
			insert: db.prepare(
				`INSERT INTO orders (id, user_id, chat_id, product, request, description, recipient, amount_kobo, state,
           created_at, updated_at)
         VALUES (@id, @user_id, @chat_id, @product, @request, @description, @recipient, @amount_kobo, 'created',
           @now, @now) RETURNING *`,
			),
			get: db.prepare(`SELECT * FROM orders WHERE id = ?`),
			toSent: db.prepare(
				`UPDATE orders SET state = 'sent', sent_at = @now, updated_at = @now,
           customer_ref = COALESCE(@customer_ref, customer_ref)
         WHERE id = @id AND state = 'created' RETURNING *`,
			),
			cancel: db.prepare(
				`UPDATE orders SET state = @state, final_at = @now, updated_at = @now WHERE id = @id AND state = 'created'`,
			),
			spent: db.prepare(
				`SELECT COALESCE(SUM(COALESCE(charged_kobo, amount_kobo)), 0) AS s FROM orders
         WHERE user_id = ? AND created_at >= ? AND state IN (${SPENDING_STATES.map((s) => `'${s}'`).join(',')})`,
			),
			result: db.prepare(
				`UPDATE orders SET state = @state, ident = COALESCE(@ident, ident), vendor_id = COALESCE(@vendor_id, vendor_id),
           charged_kobo = COALESCE(@charged_kobo, charged_kobo), result = @result,
           error_code = NULL, error_message = NULL, error_field = NULL,
           final_at = CASE WHEN @state IN ('successful','failed') THEN @now ELSE final_at END,
           updated_at = @now, checked_at = @now
         WHERE id = @id RETURNING *`,
			),
			error: db.prepare(
				`UPDATE orders SET state = @state, error_code = @code, error_message = @message, error_field = @field,
           recheck_at = @recheck_at, customer_ref = COALESCE(@customer_ref, customer_ref),
           final_at = CASE WHEN @state IN ('failed','not_charged') THEN @now ELSE final_at END,
           updated_at = @now, checked_at = @now
         WHERE id = @id RETURNING *`,
			),
			toUnknown: db.prepare(
				`UPDATE orders SET state = 'unknown', error_code = @code, error_message = @message, error_field = NULL,
           recheck_at = @recheck_at, updated_at = @now, checked_at = @now
         WHERE id = @id AND state = 'sent' RETURNING *`,
			),
			notified: db.prepare(`UPDATE orders SET notified_state = @state WHERE id = @id`),
			byState: db.prepare(`SELECT * FROM orders WHERE state = ? ORDER BY created_at LIMIT ?`),
			forUser: db.prepare(
				`SELECT * FROM orders WHERE user_id = ? AND state <> 'created' ORDER BY created_at DESC, rowid DESC LIMIT ?`,
			),
			byIdent: db.prepare(
				`SELECT * FROM orders WHERE user_id = ? AND (ident = ? OR id = ?) ORDER BY created_at DESC LIMIT 1`,
			),
			unconfirmed: db.prepare(
				`SELECT 1 FROM orders WHERE user_id = ? AND state = 'created' AND created_at >= ? LIMIT 1`,
			),
			cancelCreatedFor: db.prepare(
				`UPDATE orders SET state = 'cancelled', final_at = @now, updated_at = @now
         WHERE user_id = @user_id AND state = 'created'`,
			),
			expireCreated: db.prepare(
				`UPDATE orders SET state = 'expired', final_at = @now, updated_at = @now
         WHERE state = 'created' AND created_at < @before`,
			),
			seen: db.prepare(`INSERT OR IGNORE INTO seen_updates (update_id, at) VALUES (?, ?)`),
			pruneSeen: db.prepare(`DELETE FROM seen_updates WHERE at < ?`),
			...followStatements(db),
		};
		this.msg = messageStatements(db);
	}

	/**
	 * The chat message showing this order's progress ("Sending…"): whoever learns the outcome (the
	 * purchase, or the follower after a restart) edits it, so no message is left saying "Sending…".
	 */
	setMessage(orderId: string, messageId: number): void {
		this.msg.set.run(`order-msg:${orderId}`, String(messageId), this.clock.now());
	}

	messageOf(orderId: string): number | null {
		const row = this.msg.get.get(`order-msg:${orderId}`) as { value: string } | undefined;
		return row ? Number(row.value) : null;
	}

	static newId(): string {
		return randomBytes(8).toString('base64url');
	}

	create(o: NewOrder, id = Journal.newId()): Order {
		const now = this.clock.now();
		const row = this.stmts.insert.get({
			id,
			user_id: o.userId,
			chat_id: o.chatId,
			product: o.product,
			request: JSON.stringify(o.request),
			description: o.description,
			recipient: o.recipient,
			amount_kobo: o.amountKobo,
			now,
		}) as Row;
		return toOrder(row)!;
	}

	get(id: string): Order | undefined {
		return toOrder(this.stmts.get.get(id) as Row | undefined);
	}

	/** Kobo spent (or possibly spent) by the user since the start of today (Lagos). */
	spentToday(userId: number, now = this.clock.now()): number {
		return (this.stmts.spent.get(userId, lagosDayStart(now)) as { s: number }).s;
	}

	/**
	 * The single gate to the API: atomically check age and limits and move `created → sent`.
	 * Only the caller that gets `{ ok: true }` may send the purchase. A refused order is closed in
	 * the same transaction (`expired` when older than `maxAgeMs`, else `cancelled`). `customerRef`: the
	 * customer_ref the purchase will carry, journalled with `sent` (before the POST), so that after a crash
	 * mid-purchase the follower still knows it and a record carrying it is proven this order's.
	 */
	beginSend(id: string, limits: Limits, maxAgeMs = Infinity, customerRef?: string): BeginSendResult {
		const run = this.db.transaction((): BeginSendResult => {
			const order = this.get(id);
			if (!order) return { ok: false, reason: 'not_found' };
			if (order.state !== 'created') return { ok: false, reason: 'state', order };
			const now = this.clock.now();
			const refuse = <R extends BeginSendResult>(r: R, state: 'cancelled' | 'expired' = 'cancelled'): R => {
				this.stmts.cancel.run({ id, state, now });
				return r;
			};
			if (now - order.createdAt > maxAgeMs) return refuse({ ok: false, reason: 'expired', order }, 'expired');
			if (order.amountKobo > limits.maxPurchaseKobo)
				return refuse({ ok: false, reason: 'max_purchase', limitKobo: limits.maxPurchaseKobo, order });
			const spent = this.spentToday(order.userId, now);
			if (spent + order.amountKobo > limits.dailyLimitKobo) {
				return refuse({ ok: false, reason: 'daily_limit', limitKobo: limits.dailyLimitKobo, spentKobo: spent, order });
			}
			// The row was read in this (immediate) transaction as `created`, so the update cannot miss.
			const customer_ref = customerRef ?? null;
			return { ok: true, order: toOrder(this.stmts.toSent.get({ id, now, customer_ref }) as Row)! };
		});
		// committed with synchronous=NORMAL: on disk only after `durable()`, which the POST waits for
		return run.immediate();
	}

	/**
	 * Resolves once every row committed so far survives a power loss (durable.ts: one fsync off the event loop,
	 * shared by the purchases confirmed meanwhile). A purchase is sent only after its `sent` row is durable.
	 */
	durable(): Promise<void> {
		return this.group.durable();
	}

	/** created → cancelled (or expired). Returns false when the order had already moved on. */
	cancel(id: string, state: 'cancelled' | 'expired' = 'cancelled'): boolean {
		return this.stmts.cancel.run({ id, state, now: this.clock.now() }).changes === 1;
	}

	/** The user has an order created since `since` and not confirmed or cancelled yet. */
	hasUnconfirmed(userId: number, since: number): boolean {
		return !!this.stmts.unconfirmed.get(userId, since);
	}

	/** Cancel every unconfirmed order of a user (the flow was abandoned with /cancel or another command). */
	cancelCreatedFor(userId: number): number {
		return this.stmts.cancelCreatedFor.run({ user_id: userId, now: this.clock.now() }).changes;
	}

	recordResult(id: string, r: StoredResult): Order {
		const row = this.stmts.result.get({
			id,
			state: r.status,
			ident: r.ident,
			vendor_id: r.id,
			charged_kobo: r.amountKobo,
			result: JSON.stringify(r),
			now: this.clock.now(),
		}) as Row;
		return toOrder(row)!;
	}

	/**
	 * `recheckAt`: for `unknown`, when the follower checks again (null = at its next pass). `customerRef`: the
	 * customer_ref the POST carried (an unknown_outcome's details.customerRef), kept for the follower; left
	 * undefined, what the order has stays. `field`: the detail the vendor refused by name (invalid_input).
	 */
	recordError(
		id: string,
		state: 'failed' | 'unknown' | 'not_charged',
		code: string,
		message: string,
		recheckAt: number | null = null,
		customerRef?: string | null,
		field?: string,
	): Order {
		const customer_ref = refColumn(customerRef);
		return toOrder(
			this.stmts.error.get({
				id,
				state,
				code,
				message,
				field: field ?? null,
				recheck_at: recheckAt,
				customer_ref,
				now: this.clock.now(),
			}) as Row,
		)!;
	}

	/**
	 * Record a result the client found by reading the account back (not the POST's own answer), unless the
	 * shared journal shows it may be another order's: its record is owned by another order, or another
	 * identical order is still open (sent or unknown: its record may be this one, written by any instance
	 * on this file). A record carrying this order's customer_ref (`sentRef`, else the one journalled) is
	 * proof that it is this order's, whatever identical orders are open: a random reference only its own POST
	 * carried. Checked and written in one immediate transaction, so of two instances that read the same
	 * record only one can take it. Returns the order, or the reason it was not adopted.
	 */
	adopt(
		id: string,
		r: StoredResult,
		sentRef?: string | null,
	): { ok: true; order: Order } | { ok: false; reason: 'owned' | 'identical_open'; other?: string } {
		const run = this.db.transaction(() => {
			const order = this.get(id)!;
			const owner = this.stmts.ownedByOther.get({ product: order.product, id, vendor_id: r.id, ident: r.ident }) as
				| { id: string }
				| undefined;
			if (owner) return { ok: false as const, reason: 'owned' as const, other: owner.id };
			const ref = sentRef ?? order.customerRef;
			const proven = typeof ref === 'string' && ref !== '' && r.customerRef === ref;
			if (!proven && this.openIdentical(order) > 0) return { ok: false as const, reason: 'identical_open' as const };
			return { ok: true as const, order: this.recordResult(id, r) };
		});
		return run.immediate();
	}

	/**
	 * sent → unknown, only from `sent`: a restarted instance reconciling an order another instance is still
	 * buying must not overwrite the answer that instance records meanwhile. Undefined when it had moved on.
	 */
	markUnknown(id: string, code: string, message: string, recheckAt: number): Order | undefined {
		return toOrder(
			this.stmts.toUnknown.get({ id, code, message, recheck_at: recheckAt, now: this.clock.now() }) as Row | undefined,
		);
	}

	/** `unknown` orders due for a check at `now`. */
	unknownDue(now: number, limit = 100): Order[] {
		return (this.stmts.unknownDue.all(now, limit) as Row[]).map((r) => toOrder(r)!);
	}

	/** Checked without a verdict: check again at `at`. */
	scheduleRecheck(id: string, at: number): void {
		this.stmts.recheck.run({ id, at, now: this.clock.now() });
	}

	/**
	 * What reconciling `order` must know of the other orders, read in one snapshot so that no order moves
	 * unseen from "open" (counted as identical) to "settled" (its record claimed) between the two reads.
	 */
	evidenceFor(order: Order, since: number): { claimed: ClaimedRecord[]; identicalPending: number } {
		return this.db.transaction(() => ({
			identicalPending: this.openIdentical(order),
			claimed: this.claimedBy(order, since),
		}))();
	}

	touchChecked(id: string): void {
		this.stmts.checked.run({ id, now: this.clock.now() });
	}

	markNotified(id: string, state: string): void {
		this.stmts.notified.run({ id, state });
	}

	listByState(state: OrderState, limit = 1000): Order[] {
		return (this.stmts.byState.all(state, limit) as Row[]).map((r) => toOrder(r)!);
	}

	/** Successful orders settled after `since` and not checked since `checkedBefore` (refund watch). */
	successfulToRecheck(since: number, checkedBefore: number, limit = 200): Order[] {
		return (this.stmts.successfulSince.all(since, checkedBefore, limit) as Row[]).map((r) => toOrder(r)!);
	}

	recentForUser(userId: number, limit = 10): Order[] {
		return (this.stmts.forUser.all(userId, limit) as Row[]).map((r) => toOrder(r)!);
	}

	findForUser(userId: number, identOrId: string): Order | undefined {
		return toOrder(this.stmts.byIdent.get(userId, identOrId, identOrId) as Row | undefined);
	}

	/**
	 * The vendor records other orders of this product own (since `since`): what reconciling `order` must
	 * never adopt, with their create_date and send time (they teach a restarted client the server's clock).
	 */
	claimedBy(order: Order, since: number, limit = 5000): ClaimedRecord[] {
		const rows = this.stmts.claimed.all(order.product, order.id, since, limit) as Array<
			Pick<Row, 'vendor_id' | 'ident' | 'result' | 'sent_at'>
		>;
		return rows.map((r) => ({
			id: r.vendor_id,
			ident: r.ident,
			sentAt: r.sent_at,
			createdAt: r.result ? ((JSON.parse(r.result) as StoredResult).createdAt ?? null) : null,
		}));
	}

	/**
	 * Other orders whose records could match `order`'s (same product, recipient and amount) and whose outcome
	 * is still open.
	 */
	openIdentical(order: Order): number {
		return (this.stmts.openIdentical.get(order.product, order.recipient, order.amountKobo, order.id) as { n: number })
			.n;
	}

	/** Orders never confirmed within `maxAgeMs` become `expired` (their buttons are then stale). */
	expireStale(maxAgeMs: number): number {
		const now = this.clock.now();
		return this.stmts.expireCreated.run({ now, before: now - maxAgeMs }).changes;
	}

	/** Update dedupe: true the first time an update_id is seen, false for a duplicate. */
	firstSeen(updateId: number): boolean {
		return this.stmts.seen.run(updateId, this.clock.now()).changes === 1;
	}

	pruneSeen(olderThanMs: number): number {
		return this.stmts.pruneSeen.run(this.clock.now() - olderThanMs).changes;
	}
}
