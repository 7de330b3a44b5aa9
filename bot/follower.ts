/**
 * Background follower over the journal:
 *  - `processing` orders are refreshed until they settle; the user is told.
 *  - recent `successful` orders are re-checked for refunds (successful → failed); the user is told.
 *  - `unknown` orders are reconciled again until they resolve, each no earlier than its `recheck_at` (the
 *    client's resolvableAfter, never before the vendor's processing bound); `sent` orders found at start-up
 *    (crash mid-purchase) are reconciled through `client.reconcile(req, { sentAt, waitMs: 0 })`. "Not
 *    charged" is recorded only with proof (orders.ts `judge`); no timeout turns an order into it.
 *  - never-confirmed `created` orders expire; old update ids are pruned.
 * Notifications are keyed on `notified_state`, so a restart does not repeat them.
 */
import type { Api } from 'grammy';
import type { Journal, Order } from './journal';
import type { Logger } from './logger';
import { sendSheet } from './delivery';
import { changeText, judge, outcomeText, resultOf, storedOf, viewOf, type Bounds } from './orders';
import { errorCode, type BotPurchaseRequest, type VtuClientLike } from './vtu';
import { nextStepKeyboard } from './flow/keyboards';
import { t, withLocale } from './i18n';

export interface FollowerDeps {
	client: VtuClientLike;
	journal: Journal;
	api: Api;
	logger: Logger;
	now: () => number;
	intervalMs: number;
	refundWatchMs: number;
	/** How often one successful order is re-checked for a refund. */
	refundRecheckMs?: number;
	confirmTtlMs: number;
	concurrency?: number;
	/** The locale a user picked (/language): notices are in it (default: the default locale). */
	localeOf?: (userId: number) => string;
	/** recheckMs: the earliest next check of an unclear order (default intervalMs). */
	bounds: Pick<Bounds, 'maxProcessingMs'> & Partial<Bounds>;
}

/** How far back the journal's claimed records are passed to reconcile (the client's widest window is ±14 h). */
const CLAIM_HORIZON_MS = 2 * 86_400_000;

async function pool<T>(items: T[], n: number, fn: (t: T) => Promise<void>): Promise<void> {
	let i = 0;
	const workers = Array.from({ length: Math.min(n, items.length) }, async () => {
		while (i < items.length) await fn(items[i++]);
	});
	await Promise.all(workers);
}

export class Follower {
	private timer?: NodeJS.Timeout;
	private running?: Promise<void>;
	private stopped = false;

	constructor(private readonly d: FollowerDeps) {}

	start(): void {
		this.stopped = false;
		const loop = () => {
			if (this.stopped) return;
			this.running = this.tick()
				.catch((e) => this.d.logger.error('follower tick failed', { err: e }))
				.finally(() => {
					this.running = undefined;
					if (!this.stopped) this.timer = setTimeout(loop, this.d.intervalMs);
				});
		};
		this.timer = setTimeout(loop, this.d.intervalMs);
	}

	async stop(): Promise<void> {
		this.stopped = true;
		if (this.timer) clearTimeout(this.timer);
		await this.running;
	}

	/** One pass. Exposed for tests and for start-up. */
	async tick(): Promise<void> {
		const { journal } = this.d;
		journal.expireStale(this.d.confirmTtlMs * 2);
		journal.pruneSeen(7 * 86_400_000);
		const n = this.d.concurrency ?? 8;
		await pool(journal.listByState('processing', 500), n, (o) => this.refresh(o));
		const now = this.d.now();
		if (this.d.refundWatchMs > 0) {
			const recheck = this.d.refundRecheckMs ?? this.d.intervalMs * 4;
			await pool(journal.successfulToRecheck(now - this.d.refundWatchMs, now - recheck, 200), n, (o) =>
				this.refresh(o),
			);
		}
		await pool(journal.unknownDue(this.d.now(), 100), n, (o) => this.reconcile(o));
	}

	/** Reconcile orders left in `sent` by a crash (run once at start-up, before taking updates). */
	async recoverSent(): Promise<number> {
		const sent = this.d.journal.listByState('sent', 10_000);
		if (sent.length) this.d.logger.warn('reconciling orders left in "sent"', { count: sent.length });
		await pool(sent, this.d.concurrency ?? 8, (o) => this.reconcile(o));
		return sent.length;
	}

	private async refresh(o: Order): Promise<void> {
		const before = resultOf(o);
		if (!before) return;
		try {
			const now = await this.d.client.transactions.refresh(before);
			if (now.status !== o.state) {
				const after = this.d.journal.recordResult(o.id, storedOf(now));
				this.d.logger.info('order changed', { order: o.id, from: o.state, to: now.status });
				await this.notify(after, o.state);
			} else this.d.journal.touchChecked(o.id);
		} catch (e) {
			this.d.journal.touchChecked(o.id);
			this.d.logger.warn('refresh failed', { order: o.id, code: errorCode(e) });
		}
	}

	private async reconcile(o: Order): Promise<void> {
		const { journal, logger } = this.d;
		const req = o.request as unknown as BotPurchaseRequest;
		const sentAt = o.sentAt ?? o.createdAt;
		const bounds: Bounds = { recheckMs: this.d.intervalMs, ...this.d.bounds };
		try {
			// Never another order's record: pass every record the journal (shared by all instances) gives to an
			// order, and say when identical orders are open too (a lone record could be theirs). One read, no wait:
			// an unclear order is checked again at its next due time, not held here.
			const ev = journal.evidenceFor(o, sentAt - CLAIM_HORIZON_MS);
			// the customer_ref its POST carried, where known: a record carrying it is this order's, proven
			const ref = o.customerRef === undefined ? {} : { customerRef: o.customerRef };
			const r = await this.d.client.reconcile(req, { sentAt: new Date(sentAt), ...ev, ...ref, waitMs: 0 });
			const a = journal.adopt(o.id, storedOf(r));
			if (!a.ok) {
				logger.warn('reconciled record not adopted', { order: o.id, reason: a.reason, other: a.other, ident: r.ident });
				const msg = 'A matching record was found, but it may belong to another order: checking again.';
				await this.unclear(o, 'unknown_outcome', msg, this.d.now() + bounds.recheckMs);
				return;
			}
			logger.info('order reconciled', { order: o.id, status: r.status, ident: r.ident });
			await this.notify(a.order, o.state);
		} catch (e) {
			const v = judge(e, 'reconcile', sentAt, this.d.now(), bounds);
			if (v.state === 'not_charged') {
				const after = journal.recordError(
					o.id,
					'not_charged',
					'not_charged',
					'No record of this purchase was found on the server: it was not charged.',
				);
				logger.info('order not charged', { order: o.id });
				await this.notify(after, o.state);
			} else {
				logger.warn('order outcome unclear', {
					order: o.id,
					code: v.code,
					recheckAt: new Date(v.recheckAt).toISOString(),
				});
				await this.unclear(o, v.code, v.message, v.recheckAt);
			}
		}
	}

	/** Still no verdict: a `sent` order becomes `unknown` (the user is told it is being checked); check again at `at`. */
	private async unclear(o: Order, code: string, message: string, at: number): Promise<void> {
		if (o.state !== 'sent') return this.d.journal.scheduleRecheck(o.id, at);
		const after = this.d.journal.markUnknown(o.id, code, message.slice(0, 500), at);
		if (after) await this.notify(after, o.state);
	}

	/** The order's "Sending…" / Pending message becomes its outcome (a failed edit is only logged). */
	private async editInFlight(o: Order): Promise<void> {
		const messageId = this.d.journal.messageOf(o.id);
		if (messageId === null) return;
		const v = viewOf(o);
		await this.d.api
			.editMessageText(o.chatId, messageId, outcomeText(v), { reply_markup: nextStepKeyboard(v) })
			.catch((e: unknown) => this.d.logger.info('in-flight message not edited', { order: o.id, err: e }));
	}

	/** Tell the order's user, in their language. */
	private notify(o: Order, from: string): Promise<void> {
		return withLocale(this.d.localeOf?.(o.userId), () => this.notifyNow(o, from));
	}

	private async notifyNow(o: Order, from: string): Promise<void> {
		if (o.notifiedState === o.state) return;
		const v = viewOf(o);
		const text = from === 'sent' ? `${t('notice-restart')}\n${outcomeText(v)}` : changeText(v, from);
		try {
			await this.editInFlight(o);
			await this.d.api.sendMessage(o.chatId, text, { reply_markup: nextStepKeyboard(v, { details: true }) });
			this.d.journal.markNotified(o.id, o.state);
			if (from !== 'successful') await sendSheet(this.d.api, o.chatId, v, this.d.logger);
		} catch (e) {
			this.d.logger.warn('notify failed', { order: o.id, err: e });
		}
	}
}
