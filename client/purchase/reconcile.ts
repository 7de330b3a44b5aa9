/**
 * Reconciliation: a purchase whose answer was lost (timeout, reset after sending, 5xx, HTML, unreadable
 * 2xx) is looked for among the account's records. The ownership rule is client/API.md "Who owns a record".
 */
import { VtuError, VtuNotChargedError, VtuUnknownOutcomeError } from '../errors';
import { formatNaira } from '../money';
import type { PreparedPurchase, ProductModule } from '../products/common';
import type { Product, PurchaseRequest, PurchaseResult } from '../types';
import { inTight, inWindow, knownOffset, learnZone, tightWindow } from './clock';
import { claim, isClaimed, matchKey, recordKey, refOf } from './claims';
import type { PurchaseContext } from './context';
import { readRecent, sameRecipient } from './records';
import { walletSince, type WalletEntry } from '../wallet';

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
	/** The purchase request as the caller gave it (carried by unknown_outcome to resolve it later). */
	request: PurchaseRequest;
	sentAt: number;
	/** When the site's own answer (500 page, unreadable 2xx) arrived: the record cannot be newer. */
	answeredAt?: number;
	waitMs?: number;
	/** Records of other orders (ids, idents): never adopted, and claimed process-wide. */
	claimed?: ClaimedRecord[];
	/** Other orders of the caller, identical to this one, whose outcome is also open: a lone record could be theirs. */
	identicalPending?: number;
	/**
	 * The customer_ref this purchase was sent with (opt-in `customerRef`); null: it was sent without one;
	 * undefined: not known (a later resolution that was not told), so records carrying a ref stay candidates.
	 */
	ref?: string | null;
	signal?: AbortSignal;
	/** The failure that made the outcome unknown (for messages). */
	cause?: string;
}

/** Reads tried past the deadline when reading failed (a record must be seen or not seen to decide). */
const LATE_READS = 5;

/** Register the caller's claimed records. */
function takeClaims(ctx: PurchaseContext, product: Product, claimed: ClaimedRecord[] | undefined): void {
	for (const c of claimed ?? []) {
		claim(ctx, {
			product,
			id: typeof c.id === 'number' ? c.id : null,
			ident: typeof c.ident === 'string' && c.ident ? c.ident : null,
		});
	}
}

/**
 * No clock yet (a fresh process): learn the server's zone from a claimed record (after a read brought a Date header).
 */
function learnClock(ctx: PurchaseContext, claimed: ClaimedRecord[] | undefined): void {
	if (!claimed?.length || knownOffset(ctx) !== null) return;
	const c = claimed.find((x) => x.createdAt && typeof x.sentAt === 'number');
	if (c) learnZone(ctx, c.createdAt, c.sentAt!);
}

/** Which candidates the customer_ref rules leave, and the one it proves ours (if any). */
function byRef(
	ctx: PurchaseContext,
	candidates: PurchaseResult[],
	ref: string | null | undefined,
): { mine?: PurchaseResult; rest: PurchaseResult[] } {
	const acc = ctx.account;
	// a record carrying a non-empty ref proves the site stores refs (then ours would carry ours)
	if (candidates.some((r) => refOf(r))) acc.refEcho = true;
	// whether it was sent with a ref is not known (resolved later without details.customerRef): a record
	// carrying a ref may be ours, so none is dropped (dropping one could prove "not charged" falsely)
	if (ref === undefined) return { rest: candidates };
	if (!ref) return { rest: acc.refEcho ? candidates.filter((r) => !refOf(r)) : candidates };
	const mine = candidates.find((r) => refOf(r) === ref);
	if (mine) return { mine, rest: [] };
	return { rest: acc.refEcho ? [] : candidates.filter((r) => !refOf(r)) };
}

/**
 * Everything the reads of one reconciliation have seen. A matching record seen once stays evidence
 * (it may scroll past the pages a later read reaches). `coveredAt`: when the latest read began whose
 * chain of reads reaches back to the window's start; a record that existed then was seen.
 */
interface Evidence {
	seen: Map<string, PurchaseResult>;
	coveredAt: number | null;
	/** Top record id of the covering read: the next read stops there. */
	stopAtId: number | null;
	reads: number;
	pages: number;
	/**
	 * Matching wallet debits beyond the matching records seen (read when the records alone prove absence);
	 * null: the site has no wallet history, or it could not be read.
	 */
	walletDebits?: WalletEntry[] | null;
}

/** Could this record be the purchase's: recipient, plan/amount, created inside the window. */
function answers(ctx: PurchaseContext, prep: PreparedPurchase, r: PurchaseResult, sentAt: number): boolean {
	return (
		(prep.match.recipient === null || sameRecipient(r.recipient, prep.match.recipient)) &&
		prep.match.test(r) &&
		inWindow(ctx, r.createdAt, sentAt, sentAt + ctx.reconcile.maxProcessingMs)
	);
}

/** One read back to the window's start (or to what the previous complete read covered). */
async function readOnce(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	run: ReconcileRun,
	ev: Evidence,
): Promise<void> {
	const startedAt = ctx.http.now();
	const out = await readRecent(
		ctx,
		module,
		prep,
		{ sinceMs: run.sentAt, stopAtId: ev.coveredAt === null ? null : ev.stopAtId },
		run.signal,
	);
	ev.reads++;
	ev.pages += out.pages;
	learnClock(ctx, run.claimed);
	for (const r of out.items) {
		if (answers(ctx, prep, r, run.sentAt)) ev.seen.set(recordKey(r) ?? `raw:${JSON.stringify(r.raw)}`, r);
	}
	if (!out.complete) return;
	ev.coveredAt = startedAt;
	if (out.topId !== null) ev.stopAtId = Math.max(ev.stopAtId ?? out.topId, out.topId);
}

/** The record is provably not there: the whole window was read, starting after the vendor's processing bound. */
function provenAbsent(ctx: PurchaseContext, run: ReconcileRun, ev: Evidence, candidates: PurchaseResult[]): boolean {
	return candidates.length === 0 && ev.coveredAt !== null && ev.coveredAt >= run.sentAt + ctx.reconcile.maxProcessingMs;
}

/** A candidate as a person reads it: id, time, amount, reference, status. */
function summary(r: PurchaseResult): Record<string, unknown> {
	return {
		id: r.id,
		reference: r.ident,
		createdAt: r.createdAt,
		amount: r.amount.naira,
		status: r.status,
		recipient: r.recipient,
	};
}

function describe(r: PurchaseResult): string {
	return (
		`#${r.id ?? '?'} ${r.createdAt ?? 'no date'} ${formatNaira(r.amount.kobo)} ` +
		`${r.status}${r.ident ? ` ref ${r.ident}` : ''}`
	);
}

function unknownOutcome(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	run: ReconcileRun,
	ev: Evidence,
	what: string,
	extra: Record<string, unknown> = {},
): VtuUnknownOutcomeError {
	const candidates = [...ev.seen.values()].filter((r) => !isClaimed(ctx, r));
	const resolvableAfter = new Date(run.sentAt + ctx.reconcile.maxProcessingMs).toISOString();
	const more = candidates.length > 3 ? ` and ${candidates.length - 3} more` : '';
	const listed = candidates.length ? ` Candidates: ${candidates.slice(0, 3).map(describe).join('; ')}${more}.` : '';
	const when = candidates.length ? '' : ` once ${resolvableAfter} has passed`;
	return new VtuUnknownOutcomeError(
		`The outcome of this ${module.product} purchase is unknown${run.cause ? ` after ${run.cause}` : ''}: ` +
			`${what}.${listed} Do not buy it again before it is resolved: ` +
			`client.reconcile(request, { sentAt }) answers it${when}, ` +
			'or check the transaction history.',
		{
			candidates,
			details: {
				product: module.product,
				request: run.request,
				body: prep.body,
				sentAt: new Date(run.sentAt).toISOString(),
				resolvableAfter,
				// pass back as reconcile's `customerRef` (null: sent without one): it tells which records can be ours
				...(run.ref !== undefined ? { customerRef: run.ref } : {}),
				candidates: candidates.map(summary),
				reads: ev.reads,
				pagesRead: ev.pages,
				...extra,
			},
		},
	);
}

/** Why there is no answer yet, when no candidate is in sight. */
function notYetProven(ctx: PurchaseContext, run: ReconcileRun, ev: Evidence): string {
	if (ev.walletDebits?.length)
		return (
			`no matching record is listed, but the wallet history shows ${ev.walletDebits.length} matching ` +
			`debit${ev.walletDebits.length > 1 ? 's' : ''} more than the matching records ` +
			`(${ev.walletDebits.map((e) => `${formatNaira(e.amount.kobo)} at ${e.createdAt ?? 'no date'}`).join('; ')}): a ` +
			`charge whose record is late or missing`
		);
	if (ev.coveredAt === null)
		return `the records since the purchase was sent could not all be read (${ev.pages} pages, reconcile.readBackPages)`;
	return (
		`no matching record yet, but the vendor may still create it until ` +
		`${new Date(run.sentAt + ctx.reconcile.maxProcessingMs).toISOString()} (reconcile.maxProcessingMs)`
	);
}

function walletDetails(ev: Evidence): Record<string, unknown> {
	if (!ev.walletDebits?.length) return {};
	return {
		walletDebits: ev.walletDebits.map((e) => ({ text: e.text, amount: e.amount.naira, createdAt: e.createdAt })),
	};
}

function notCharged(
	module: ProductModule,
	prep: PreparedPurchase,
	run: ReconcileRun,
	ev: Evidence,
): VtuNotChargedError {
	return new VtuNotChargedError(
		`The ${module.product} purchase was not charged${run.cause ? ` after ${run.cause}` : ''}: every record of the ` +
			`account since it was sent was read after the vendor could no longer be creating it (reconcile.maxProcessingMs), ` +
			`and none matches. It is safe to buy again.`,
		{
			details: {
				product: module.product,
				request: run.request,
				body: prep.body,
				sentAt: new Date(run.sentAt).toISOString(),
				reads: ev.reads,
				pagesRead: ev.pages,
				...(ev.walletDebits ? { walletChecked: true } : {}), // [] : read, nothing unlisted
			},
		},
	);
}

/** Does a wallet row name this purchase's recipient and charge (amount only where it has no recipient)? */
function rowAnswers(e: WalletEntry, prep: PreparedPurchase): boolean {
	if (e.direction === 'credit' || e.refund || e.amount.kobo !== prep.quote.amount.kobo) return false;
	const want = prep.match.recipient;
	if (want === null) return true;
	return (e.text.match(/\d{10,13}/g) ?? []).some((d) => sameRecipient(d, want));
}

/**
 * Matching debits of the wallet history in the purchase's window, when they outnumber the matching
 * records seen (each purchase writes one debit row and one record, others' included): the surplus is a
 * charge whose record is not listed yet. null where the site has no history or it cannot be read (the
 * record list's proof stands alone then, as on every site without one).
 */
async function walletDebits(
	ctx: PurchaseContext,
	prep: PreparedPurchase,
	run: ReconcileRun,
	ev: Evidence,
): Promise<WalletEntry[] | null> {
	let read;
	try {
		read = await walletSince(ctx, run.sentAt, run.signal, prep.match.search ?? undefined);
	} catch (e) {
		ctx.logger?.warn?.(
			`reconcile ${prep.product}: the wallet history could not be read (${e instanceof VtuError ? e.code : 'error'})`,
		);
		return null;
	}
	if (!read) return null;
	const hi = run.sentAt + ctx.reconcile.maxProcessingMs;
	const rows = read.entries.filter((e) => rowAnswers(e, prep) && inWindow(ctx, e.createdAt, run.sentAt, hi));
	return rows.length > ev.seen.size ? rows : [];
}

/** Is a read failure worth another try (a record must be seen or not seen to decide)? */
function retryable(e: unknown, run: ReconcileRun): boolean {
	if (!(e instanceof VtuError) || run.signal?.aborted) return false;
	return !['auth', 'forbidden', 'not_found', 'invalid_input'].includes(e.code);
}

/**
 * Reads the account's records back to the window's start until `waitMs` has passed: adopts the record
 * the ownership rules prove this purchase's, answers not_charged only when the whole window was read after
 * the vendor's processing bound (`maxProcessingMs`), and unknown_outcome with every candidate otherwise.
 */
export async function reconcilePurchase(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	run: ReconcileRun,
): Promise<PurchaseResult> {
	const deadline = ctx.http.now() + (run.waitMs ?? ctx.reconcile.waitMs);
	const bound = run.sentAt + ctx.reconcile.maxProcessingMs;
	takeClaims(ctx, module.product, run.claimed);
	const key = matchKey(prep);
	const ev: Evidence = { seen: new Map(), coveredAt: null, stopAtId: null, reads: 0, pages: 0 };
	let lateFailures = 0;
	for (let attempt = 1; ; attempt++) {
		try {
			await readOnce(ctx, module, prep, run, ev);
		} catch (e) {
			// A failed read proves nothing, and the deadline is for a record to appear, not for reading: past it,
			// a few more reads are tried. Then the outcome is unknown (never not_charged).
			const code = e instanceof VtuError ? e.code : 'aborted';
			const left = deadline - ctx.http.now();
			ctx.logger?.warn?.(`reconcile ${module.product}: reading the records failed (${code})`, { attempt });
			if (retryable(e, run) && (left > 0 || lateFailures++ < LATE_READS)) {
				await ctx.http
					.sleep(left > 0 ? Math.min(ctx.reconcile.pollMs, left) : ctx.reconcile.pollMs, run.signal)
					.catch(() => undefined);
				continue;
			}
			throw unknownOutcome(
				ctx,
				module,
				prep,
				run,
				ev,
				`its records could not be read to check (${code}${e instanceof Error ? `: ${e.message}` : ''})`,
				{ readError: code },
			);
		}
		const { mine, rest: candidates } = byRef(
			ctx,
			[...ev.seen.values()].filter((r) => !isClaimed(ctx, r)),
			run.ref,
		);
		// Checked and claimed in one synchronous step: no other purchase of this process can adopt it meanwhile.
		if (mine) return adopt(ctx, mine);
		const othersInFlight = (ctx.account.inflight.get(key) ?? 0) > 1 || (run.identicalPending ?? 0) > 0;
		ctx.logger?.debug?.(`reconcile ${module.product}: ${candidates.length} candidate(s)`, {
			attempt,
			othersInFlight,
			covered: ev.coveredAt !== null,
		});
		if (!othersInFlight && !ctx.reconcile.sharedAccount) {
			const own = ownWindow(ctx, run, candidates);
			if (own.length === 1) return adopt(ctx, own[0]);
		}
		// the record list proves absence; a matching wallet debit without a record says otherwise (a record
		// late or missing from the list): then not_charged waits, and the deadline answers unknown_outcome
		if (provenAbsent(ctx, run, ev, candidates)) {
			ev.walletDebits = await walletDebits(ctx, prep, run, ev);
			if (!ev.walletDebits?.length) throw notCharged(module, prep, run, ev);
		}
		const now = ctx.http.now();
		if (now >= deadline) throw pastDeadline(ctx, module, prep, run, ev, candidates, othersInFlight);
		// Not provable yet: read again (the record may still appear; an identical purchase in flight may claim
		// its own record from its direct answer). Wake right after the processing bound when it comes first.
		const untilBound = bound > now ? bound - now + 1 : Infinity;
		await ctx.http.sleep(Math.min(ctx.reconcile.pollMs, deadline - now, untilBound), run.signal);
	}
}

/** The deadline came with nothing adopted: unknown_outcome, saying why (no record yet, or which could be it). */
function pastDeadline(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	run: ReconcileRun,
	ev: Evidence,
	candidates: PurchaseResult[],
	othersInFlight: boolean,
): VtuUnknownOutcomeError {
	if (candidates.length === 0)
		return unknownOutcome(ctx, module, prep, run, ev, notYetProven(ctx, run, ev), walletDetails(ev));
	const whose = othersInFlight
		? ' while identical purchases were in flight'
		: candidates.length === 1
			? ' and this account is shared with other buyers (reconcile.sharedAccount), so it may be theirs'
			: '';
	return unknownOutcome(
		ctx,
		module,
		prep,
		run,
		ev,
		`${candidates.length} matching record${candidates.length > 1 ? 's' : ''} could be it${whose}`,
	);
}

/**
 * The candidates that can be this purchase's by the tight window (created after the send, before the
 * site's answer or the processing bound, on the learned server clock); the others are provably not. All
 * of them when no clock bounds are known. Used for adoption only: not_charged still needs no candidate at all.
 */
function ownWindow(ctx: PurchaseContext, run: ReconcileRun, candidates: PurchaseResult[]): PurchaseResult[] {
	const w = tightWindow(ctx, run.sentAt, run.answeredAt ?? run.sentAt + ctx.reconcile.maxProcessingMs);
	return w ? candidates.filter((r) => inTight(w, r.createdAt)) : candidates;
}

function adopt(ctx: PurchaseContext, r: PurchaseResult): PurchaseResult {
	claim(ctx, r);
	return { ...r, path: 'reconciled' };
}
