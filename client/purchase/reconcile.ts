/**
 * Reconciliation: a purchase whose answer was lost (timeout, reset after sending, 5xx, HTML, unreadable
 * 2xx) is looked for among the account's records. The ownership rule is client/API.md "Who owns a record".
 */
import { VtuError, VtuNotChargedError, VtuUnknownOutcomeError } from '../errors';
import type { PreparedPurchase, ProductModule } from '../products/common';
import type { Product, PurchaseResult } from '../types';
import { inWindow, knownOffset, learnZone } from './clock';
import { claim, isClaimed, matchKey, recordKey, refOf } from './claims';
import type { PurchaseContext } from './context';
import { readRecent, sameRecipient } from './records';

/** A record another order owns (a journal row, a previous output): never adopted. */
export interface ClaimedRecord {
  id?: number | null;
  ident?: string | null;
  /** With `sentAt`: teaches a fresh process the server's clock (see `learnZone`). */
  createdAt?: string | null;
  /** When that order's POST was sent (epoch ms). */
  sentAt?: number | null;
}

export interface ReconcileRun {
  sentAt: number;
  /** Latest moment the record may have been created (our clock). Default: max(now, sentAt + windowMs). */
  until?: number;
  waitMs?: number;
  /** Records of other orders (ids, idents): never adopted, and claimed process-wide. */
  claimed?: ClaimedRecord[];
  /** Other orders of the caller, identical to this one, whose outcome is also open: a lone record could be theirs. */
  identicalPending?: number;
  /** The customer_ref this purchase was sent with (opt-in `customerRef`). */
  ref?: string;
  signal?: AbortSignal;
  /** The failure that made the outcome unknown (for messages). */
  cause?: string;
}

/** Reads tried past the deadline when reading failed (a record must be seen or not seen to decide). */
const LATE_READS = 5;

/** Register the caller's claimed records. */
function takeClaims(ctx: PurchaseContext, product: Product, claimed: ClaimedRecord[] | undefined): void {
  for (const c of claimed ?? []) {
    claim(ctx, { product, id: typeof c.id === 'number' ? c.id : null, ident: typeof c.ident === 'string' && c.ident ? c.ident : null });
  }
}

/** No clock yet (a fresh process): learn the server's zone from a claimed record (after a read brought a Date header). */
function learnClock(ctx: PurchaseContext, claimed: ClaimedRecord[] | undefined): void {
  if (!claimed?.length || knownOffset(ctx) !== null) return;
  const c = claimed.find((x) => x.createdAt && typeof x.sentAt === 'number');
  if (c) learnZone(ctx, c.createdAt, c.sentAt!);
}

/** Which candidates the customer_ref rules leave, and the one it proves ours (if any). */
function byRef(ctx: PurchaseContext, candidates: PurchaseResult[], ref: string | undefined): { mine?: PurchaseResult; rest: PurchaseResult[] } {
  const acc = ctx.account;
  // a record carrying a non-empty ref proves the site stores refs (then ours would carry ours)
  if (candidates.some((r) => refOf(r))) acc.refEcho = true;
  if (!ref) return { rest: acc.refEcho ? candidates.filter((r) => !refOf(r)) : candidates };
  const mine = candidates.find((r) => refOf(r) === ref);
  if (mine) return { mine, rest: [] };
  return { rest: acc.refEcho ? [] : candidates.filter((r) => !refOf(r)) };
}

export async function reconcilePurchase(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, run: ReconcileRun): Promise<PurchaseResult> {
  const waitMs = run.waitMs ?? ctx.reconcile.waitMs;
  const deadline = ctx.http.now() + waitMs;
  takeClaims(ctx, module.product, run.claimed);
  const key = matchKey(prep);
  const why = run.cause ? ` after ${run.cause}` : '';
  let lastCandidates: PurchaseResult[] = [];
  let lateFailures = 0;
  for (let attempt = 1; ; attempt++) {
    let recent: PurchaseResult[];
    try {
      recent = await readRecent(ctx, module, prep, run.signal);
    } catch (e) {
      // A failed read proves nothing, and the deadline is for a record to appear, not for reading: past it,
      // a few more reads are tried, so a busy moment does not end in "unknown" without the real record. Then
      // the outcome is unknown (never not_charged, never a bare error that reads like "nothing happened").
      const code = e instanceof VtuError ? e.code : 'aborted';
      const permanent = !(e instanceof VtuError) || ['auth', 'forbidden', 'not_found', 'invalid_input'].includes(code) || run.signal?.aborted;
      const left = deadline - ctx.http.now();
      ctx.logger?.warn?.(`reconcile ${module.product}: reading the records failed (${code})`, { attempt });
      if (!permanent && (left > 0 || lateFailures++ < LATE_READS)) {
        await ctx.http.sleep(left > 0 ? Math.min(ctx.reconcile.pollMs, left) : ctx.reconcile.pollMs, run.signal).catch(() => undefined);
        continue;
      }
      throw new VtuUnknownOutcomeError(
        `The outcome of this ${module.product} purchase is unknown${why}: its records could not be read to check (${code}${e instanceof Error ? `: ${e.message}` : ''}). Check the transaction history${lastCandidates.length ? ' and the candidates of the last good read' : ''} before buying again.`,
        { candidates: lastCandidates, details: { product: module.product, request: prep.body, readError: code } },
      );
    }
    learnClock(ctx, run.claimed);
    const hi = run.until ?? Math.max(ctx.http.now(), run.sentAt + ctx.reconcile.windowMs);
    const seen = new Set<string>();
    const matching = recent.filter((r) => {
      const k = recordKey(r);
      if (k && seen.has(k)) return false;
      if (k) seen.add(k);
      return (
        (prep.match.recipient === null || sameRecipient(r.recipient, prep.match.recipient)) &&
        prep.match.test(r) &&
        !isClaimed(ctx, r) &&
        inWindow(ctx, r.createdAt, run.sentAt, hi)
      );
    });
    const { mine, rest: candidates } = byRef(ctx, matching, run.ref);
    lastCandidates = candidates;
    // Checked and claimed in one synchronous step: no other purchase of this process can adopt it meanwhile.
    if (mine) return adopt(ctx, mine);
    const othersInFlight = (ctx.account.inflight.get(key) ?? 0) > 1 || (run.identicalPending ?? 0) > 0;
    const maybeSomeoneElses = othersInFlight || ctx.reconcile.sharedAccount;
    ctx.logger?.debug?.(`reconcile ${module.product}: ${candidates.length} candidate(s)`, { attempt, othersInFlight });
    if (candidates.length === 1 && !maybeSomeoneElses) return adopt(ctx, candidates[0]);
    const timeLeft = deadline - ctx.http.now();
    if (candidates.length > 0 && timeLeft <= 0) {
      const whose = othersInFlight
        ? ' while identical purchases were in flight'
        : candidates.length === 1 ? ' and this account is shared with other buyers (reconcile.sharedAccount), so it may be theirs' : '';
      throw new VtuUnknownOutcomeError(
        `The outcome of this ${module.product} purchase is unknown${why}: ${candidates.length} matching record${candidates.length > 1 ? 's' : ''} could be it${whose}. Check them (candidates) before buying again.`,
        { candidates, details: { product: module.product, request: prep.body } },
      );
    }
    if (timeLeft <= 0) {
      throw new VtuNotChargedError(
        `The ${module.product} purchase was not charged${why}: no matching record appeared within ${Math.round(waitMs / 1000)}s. It is safe to buy again.`,
        { details: { product: module.product, request: prep.body } },
      );
    }
    // Nothing yet, or not provably ours yet: read again (the real record may still appear; an identical
    // purchase in flight may claim its own record from its direct answer).
    await ctx.http.sleep(Math.min(ctx.reconcile.pollMs, timeLeft), run.signal);
  }
}

function adopt(ctx: PurchaseContext, r: PurchaseResult): PurchaseResult {
  claim(ctx, r);
  return { ...r, path: 'reconciled' };
}
