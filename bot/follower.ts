/**
 * Background follower over the journal:
 *  - `processing` orders are refreshed until they settle; the user is told.
 *  - recent `successful` orders are re-checked for refunds (successful → failed); the user is told.
 *  - `unknown` orders are reconciled again; `sent` orders found at start-up (crash mid-purchase)
 *    are reconciled through `client.reconcile(req, { sentAt })`.
 *  - never-confirmed `created` orders expire; old update ids are pruned.
 * Notifications are keyed on `notified_state`, so a restart does not repeat them.
 */
import type { Api } from 'grammy';
import type { Journal, Order } from './journal';
import type { Logger } from './logger';
import { changeText, outcomeText, resultOf, storedOf, viewOf } from './orders';
import { errorCode, type BotPurchaseRequest, type VtuClientLike } from './vtu';
import { nextStepKeyboard } from './flow/keyboards';

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
      await pool(journal.successfulToRecheck(now - this.d.refundWatchMs, now - recheck, 200), n, (o) => this.refresh(o));
    }
    await pool(journal.listByState('unknown', 100), n, (o) => this.reconcile(o));
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
    const req = o.request as unknown as BotPurchaseRequest;
    const sentAt = new Date(o.sentAt ?? o.createdAt);
    try {
      // Never another order's record: pass every record the journal already gives to an order, and say when
      // identical orders are open too (a lone record could be theirs). The client bounds the time window.
      const r = await this.d.client.reconcile(req, {
        sentAt,
        claimed: this.d.journal.claimedBy(o, sentAt.getTime() - CLAIM_HORIZON_MS),
        identicalPending: this.d.journal.openIdentical(o),
      });
      const after = this.d.journal.recordResult(o.id, storedOf(r));
      this.d.logger.info('order reconciled', { order: o.id, status: r.status, ident: r.ident });
      await this.notify(after, o.state);
    } catch (e) {
      const code = errorCode(e);
      if (code === 'not_charged') {
        const after = this.d.journal.recordError(o.id, 'not_charged', 'not_charged', 'No record of this purchase was found on the server: it was not charged.');
        this.d.logger.info('order not charged', { order: o.id });
        await this.notify(after, o.state);
      } else if (o.state === 'sent') {
        const after = this.d.journal.recordError(o.id, 'unknown', code ?? 'internal', e instanceof Error ? e.message.slice(0, 500) : String(e));
        this.d.logger.warn('order outcome unknown', { order: o.id, code });
        await this.notify(after, o.state);
      } else {
        this.d.journal.touchChecked(o.id);
      }
    }
  }

  private async notify(o: Order, from: string): Promise<void> {
    if (o.notifiedState === o.state) return;
    const v = viewOf(o);
    const text = from === 'sent' ? `Update on an order interrupted by a restart:\n${outcomeText(v)}` : changeText(v, from);
    try {
      await this.d.api.sendMessage(o.chatId, text, { reply_markup: nextStepKeyboard(v, { details: true }) });
      this.d.journal.markNotified(o.id, o.state);
    } catch (e) {
      this.d.logger.warn('notify failed', { order: o.id, err: e });
    }
  }
}
