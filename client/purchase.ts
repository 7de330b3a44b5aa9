/**
 * THE safe-purchase mechanism (docs/design.md "Buying safely"). Every product goes through `executePurchase`.
 *
 *  1. validate locally (done by the product's `prepare`, before this runs);
 *  2. POST exactly once (HttpCore retries only never-sent requests and 429s);
 *  3. a readable answer → known outcome (path 'direct');
 *  4. timeout / reset after sending / 5xx / HTML / unreadable 2xx → `reconcile`: read the newest records
 *     of the product (`?search=<recipient>` where the site filters, detecting when it ignored the filter;
 *     else the first `maxPages` pages), keep records matching recipient + plan/amount, created inside the
 *     time window, not claimed by any order of this process (every VtuClient of the same account shares
 *     the claims, see `AccountState`), not passed in as another order's. The ownership rule (client/API.md
 *     "Who owns a record"): a record carrying our `customer_ref` is ours; one lone candidate is adopted
 *     (path 'reconciled') only when no identical purchase of this process is in flight and the caller
 *     said no other process buys on the account (`sharedAccount: false`); anything else re-reads until `waitMs` and then answers
 *     `unknown_outcome` with every candidate; none after re-reading for `waitMs` → `not_charged`
 *     (or, with `retryIfNotCharged`, ONE re-send, path 'retried').
 *
 * Time rule (create_date carries no timezone): the server's naive clock offset (naive create_date − our
 * UTC clock) is learned from every directly received record (`create_date` vs the local receive time).
 * Window: [sentAt − skewMs, now + skewMs] mapped to the server's naive clock with that offset. After a
 * restart the offset is rebuilt from the caller's claimed records (their createdAt vs when they were sent,
 * snapped to a 15-minute timezone with the Date header's clock). Until an offset is known and no
 * `serverUtcOffsetMinutes` is configured, any timezone (−12h..+14h) is allowed, so matching relies on
 * recipient + plan/amount + claims only.
 */
import { randomBytes } from 'node:crypto';
import type { CatalogCache } from './catalog';
import {
  VtuBadResponseError, VtuError, VtuNetworkError, VtuNotChargedError, VtuServerError, VtuUnknownOutcomeError,
} from './errors';
import type { HttpCore, RawResponse } from './http';
import type { ClientSettings, PreparedPurchase, ProductModule } from './products/common';
import type { Page, Product, PurchaseResult, ResultPath, WaitOptions } from './types';
import { isRecord, type Logger } from './util';
import { tryNormalizePhone } from './phone';

export interface ReconcileSettings {
  /** How long after the send a matching record may have been created. Default 120 000. */
  windowMs: number;
  /** How long to keep re-reading when nothing matches yet. Default 6 000. */
  waitMs: number;
  /** Pause between re-reads. Default 1 500. */
  pollMs: number;
  /** List pages read when the site does not filter by `?search=`. Default 3. */
  maxPages: number;
  /**
   * List pages the "already bought?" check (matchingRecords) may read back to reach its window's start.
   * Default 200 (3,000 records at 15 a page); past it the check answers unknown_outcome.
   */
  readBackPages: number;
  /** Allowed clock skew between the learned offset and reality. Default 120 000. */
  skewMs: number;
  /** Server's naive create_date offset from UTC in minutes, if known (e.g. 60 for Africa/Lagos). */
  serverUtcOffsetMinutes?: number;
  /**
   * Other processes may buy on this account at the same moment (n8n queue mode with several workers,
   * several bots, another app, a person on the website). This process cannot see their purchases, so a
   * lone matching record could be theirs: it is adopted only when its customer_ref proves it ours, else
   * the answer is unknown_outcome with it as the candidate. Default true: the client cannot know who else
   * holds the token, so only a caller that knows it is the only buyer sets false (client/API.md).
   */
  sharedAccount: boolean;
}

export const DEFAULT_RECONCILE: ReconcileSettings = {
  windowMs: 120_000, waitMs: 6_000, pollMs: 1_500, maxPages: 3, readBackPages: 200, skewMs: 120_000, sharedAccount: true,
};

/** Learned naive-clock offsets per base URL (shared by clients of the same site). */
const offsets = new Map<string, number>();
/** Learned timezone of the naive create_date per base URL (ms), for when no offset is known yet. */
const zones = new Map<string, number>();

/**
 * What this process knows about one account (base URL + token hash). Every VtuClient of the account in
 * this process shares it, so two n8n executions (two clients) never adopt the same record.
 */
export interface AccountState {
  /** Records owned by an order, per product: ids (numbers) and idents (strings). */
  claimed: Map<Product, Set<number | string>>;
  /** Identical purchases in flight per match key. */
  inflight: Map<string, number>;
  /** `?search=` support per product: true filters, false ignored, undefined unknown. */
  searchSupport: Map<Product, boolean>;
  /** Does the site store and echo `customer_ref`? Learned from direct answers and records. */
  refEcho?: boolean;
}

const accounts = new Map<string, AccountState>();

/** Forget every account's claims, in-flight counts and learned clocks: what a process restart does (tests). */
export function clearAccountState(): void {
  accounts.clear();
  offsets.clear();
  zones.clear();
}

/** The process-wide state of an account (`key` = catalog's cacheKey: base URL + token hash). */
export function accountState(key: string): AccountState {
  let a = accounts.get(key);
  if (!a) accounts.set(key, (a = { claimed: new Map(), inflight: new Map(), searchSupport: new Map() }));
  return a;
}

export interface PurchaseContext {
  http: HttpCore;
  catalog: CatalogCache;
  settings: ClientSettings;
  reconcile: ReconcileSettings;
  logger?: Logger;
  /** Process-wide claims, in-flight counts and site facts of this account. */
  account: AccountState;
  /** Send a fresh `customer_ref` with every purchase and trust it when the site echoes it (opt-in). */
  customerRef: boolean;
}

/* ------------------------------------------------------------------ time ---------------- */

/** Two ASCII digits at i → 0..99, or -1. */
function digits2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * The usual naive `YYYY-MM-DDTHH:MM:SS[.f{1,9}]` (what every record carries) without the regex below:
 * the same Date.UTC arguments, or NaN when the string has any other form (then the regex decides).
 */
function naiveMs(s: string): number {
  const n = s.length;
  if (n !== 19 && (n < 21 || n > 29)) return NaN;
  const t = s.charCodeAt(10);
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || (t !== 84 && t !== 32) || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
  const y1 = digits2(s, 0), y2 = digits2(s, 2), mo = digits2(s, 5), d = digits2(s, 8), h = digits2(s, 11), mi = digits2(s, 14), sec = digits2(s, 17);
  if (y1 < 0 || y2 < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0) return NaN;
  let ms = 0;
  if (n > 19) {
    if (s.charCodeAt(19) !== 46) return NaN;
    for (let i = 20; i < n; i++) {
      const c = s.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return NaN;
      if (i < 23) ms += c * (i === 20 ? 100 : i === 21 ? 10 : 1); // first three digits, padded: ".5" → 500
    }
  }
  return Date.UTC(y1 * 100 + y2, mo - 1, d, h, mi, sec, ms);
}

/** create_date → ms. Naive strings are read as if UTC ("naive ms"); `absolute` tells which. */
export function parseCreateDate(s: string | null | undefined): { ms: number; absolute: boolean } | null {
  if (!s) return null;
  const fast = naiveMs(s);
  if (!Number.isNaN(fast)) return { ms: fast, absolute: false };
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(s.trim());
  if (!m) return null;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0), Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0')));
  if (!m[8]) return { ms, absolute: false };
  if (m[8] === 'Z') return { ms, absolute: true };
  const sign = m[8][0] === '-' ? -1 : 1;
  const digits = m[8].slice(1).replace(':', '');
  const off = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  return { ms: ms - off, absolute: true };
}

export function learnOffset(baseUrl: string, createdAt: string | null, receivedAt: number): void {
  const p = parseCreateDate(createdAt);
  if (!p || p.absolute) return;
  offsets.set(baseUrl, p.ms - receivedAt);
}

/**
 * After a restart: a record this account received directly (createdAt) and when its POST was sent
 * (sentAt) give naive − sentAt = timezone + clock skew + latency. The Date header gives the skew; the
 * timezone is snapped to 15 minutes, so any latency under 7.5 minutes gives the exact zone.
 */
export function learnZone(ctx: PurchaseContext, createdAt: string | null | undefined, sentAt: number): void {
  const skew = ctx.http.lastDateHeaderOffsetMs;
  const p = parseCreateDate(createdAt);
  if (skew === null || !p || p.absolute || zones.has(ctx.http.baseUrl)) return;
  zones.set(ctx.http.baseUrl, Math.round((p.ms - sentAt - skew) / 900_000) * 900_000);
}

export function knownOffset(ctx: PurchaseContext): number | null {
  const skew = ctx.http.lastDateHeaderOffsetMs;
  if (ctx.reconcile.serverUtcOffsetMinutes !== undefined) return ctx.reconcile.serverUtcOffsetMinutes * 60_000 + (skew ?? 0);
  const learned = offsets.get(ctx.http.baseUrl);
  if (learned !== undefined) return learned;
  const zone = zones.get(ctx.http.baseUrl);
  return zone !== undefined && skew !== null ? zone + skew : null;
}

/**
 * The earliest create_date a record made at or after `sentAt` can carry, in the record's own terms
 * (absolute ms, or the server's naive clock; with no offset known, any timezone down to −12h).
 */
function windowStart(ctx: PurchaseContext, sentAt: number, absolute: boolean): number {
  const skew = ctx.reconcile.skewMs;
  if (absolute) return sentAt - skew;
  return sentAt + (knownOffset(ctx) ?? -12 * 3_600_000) - skew;
}

function inWindow(ctx: PurchaseContext, createdAt: string | null, sentAt: number, hi: number): boolean {
  const p = parseCreateDate(createdAt);
  if (!p) return true; // no date: cannot exclude by time
  if (p.ms < windowStart(ctx, sentAt, p.absolute)) return false;
  const skew = ctx.reconcile.skewMs;
  if (p.absolute) return p.ms <= hi + skew;
  return p.ms <= hi + (knownOffset(ctx) ?? 14 * 3_600_000) + skew;
}

/** Created before `sinceMs`, as far as its create_date tells (no date: not provably). */
function before(ctx: PurchaseContext, r: PurchaseResult, sinceMs: number): boolean {
  const p = parseCreateDate(r.createdAt);
  return p !== null && p.ms < windowStart(ctx, sinceMs, p.absolute);
}

/* ------------------------------------------------------------------ keys ---------------- */

export function recordKey(r: PurchaseResult): string | null {
  if (r.id !== null) return `id:${r.id}`;
  if (r.ident) return `ident:${r.ident}`;
  return null;
}

function claimedSet(ctx: PurchaseContext, product: Product): Set<number | string> {
  let s = ctx.account.claimed.get(product);
  if (!s) ctx.account.claimed.set(product, (s = new Set()));
  return s;
}

/** A record some order owns (received directly, adopted, or another order's passed in): never adopted again. */
export function claim(ctx: PurchaseContext, r: { product: Product; id: number | null; ident: string | null }): void {
  const s = claimedSet(ctx, r.product);
  if (r.id !== null) s.add(r.id);
  if (r.ident) s.add(r.ident);
  if (s.size > 100_000) {
    // bounded memory: drop the oldest half (Set keeps insertion order)
    let i = 0;
    for (const x of s) {
      if (i++ > 50_000) break;
      s.delete(x);
    }
  }
}

export function isClaimed(ctx: PurchaseContext, r: PurchaseResult): boolean {
  const s = ctx.account.claimed.get(r.product);
  return s !== undefined && ((r.id !== null && s.has(r.id)) || (r.ident !== null && s.has(r.ident)));
}

/** The `customer_ref` a record carries ('' when the site echoes an empty one, null when it has none). */
function refOf(r: PurchaseResult): string | null {
  if (!isRecord(r.raw)) return null;
  const v = r.raw.customer_ref ?? r.raw.customer_reference;
  return typeof v === 'string' ? v : null;
}

/* ------------------------------------------------------------------ lists --------------- */

function pageNumber(next: unknown): number | null {
  if (next === null || next === undefined || next === '') return null;
  if (typeof next === 'number') return next;
  const m = /[?&]page=(\d+)/.exec(String(next));
  return m ? Number(m[1]) : null;
}

/** Paginated {count, next, results} or a bare array → Page. Unreadable items are skipped (logged). */
export function parseListBody(module: ProductModule, body: unknown, logger?: Logger): Page<PurchaseResult> & { paginated: boolean } {
  let rows: unknown[];
  let count: number | null = null;
  let next: number | null = null;
  let paginated = false;
  if (Array.isArray(body)) rows = body;
  else if (isRecord(body) && Array.isArray(body.results)) {
    rows = body.results;
    paginated = true;
    count = typeof body.count === 'number' ? body.count : null;
    next = pageNumber(body.next);
  } else if (isRecord(body) && Array.isArray(body.data)) rows = body.data;
  else throw new VtuBadResponseError(`The ${module.product} list has an unexpected shape (expected {count, next, results} or an array).`);
  const items: PurchaseResult[] = [];
  let skipped = 0;
  for (const row of rows) {
    try {
      items.push(module.parse(row, 'direct'));
    } catch {
      skipped++;
    }
  }
  if (skipped) logger?.warn?.(`${skipped} ${module.product} list rows were unreadable and skipped`);
  if (rows.length > 0 && items.length === 0) {
    throw new VtuBadResponseError(`None of the ${rows.length} ${module.product} list rows could be read.`);
  }
  return { count, next, items, paginated };
}

export async function listPage(
  ctx: PurchaseContext, module: ProductModule, opts: { page?: number; search?: string; signal?: AbortSignal } = {},
): Promise<Page<PurchaseResult> & { paginated: boolean }> {
  const query: Record<string, string> = {};
  if (opts.page && opts.page > 1) query.page = String(opts.page);
  if (opts.search) query.search = opts.search;
  const body = await ctx.http.get(module.path, { query, signal: opts.signal });
  return parseListBody(module, body, ctx.logger);
}

function sameRecipient(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  if (a === b) return true;
  const pa = tryNormalizePhone(a);
  return pa !== null && pa === tryNormalizePhone(b);
}

/**
 * How far back the "already bought?" check reads (matchingRecords): until the records are older than
 * its `sinceMs`, at most `readBackPages` pages. Calls given the same `cache` (the requests of one check)
 * read the unfiltered list once.
 */
export interface ReadBack {
  sinceMs: number;
  cache?: Map<Product, Promise<PurchaseResult[]>>;
}

/**
 * Read the newest records of the product that could be this purchase: `?search=<recipient>` where the
 * site filters (detecting when it ignored the filter), else the unfiltered list. Reconcile reads
 * `maxPages` pages; with `back`, pages are read until they reach records older than `back.sinceMs`.
 */
async function readRecent(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, signal?: AbortSignal, back?: ReadBack): Promise<PurchaseResult[]> {
  const { search } = prep.match;
  let first: Page<PurchaseResult> | undefined;
  if (search && ctx.account.searchSupport.get(module.product) !== false) {
    const page = await listPage(ctx, module, { search, signal });
    const ignored = page.items.some((r) => !sameRecipient(r.recipient, search) && r.ident !== search && String(r.id) !== search);
    if (!ignored) {
      if (page.items.length) ctx.account.searchSupport.set(module.product, true);
      return readPages(ctx, module, page, { search, signal }, back); // filtered, maybe paginated
    }
    ctx.account.searchSupport.set(module.product, false);
    ctx.logger?.info?.(`${module.product}: the site ignores ?search=; scanning the newest pages instead`);
    first = page; // the unfiltered page 1
  }
  if (!back?.cache) return readPages(ctx, module, first, { signal }, back);
  let all = back.cache.get(module.product);
  if (!all) back.cache.set(module.product, (all = readPages(ctx, module, first, { signal }, back)));
  return all;
}

/** The list from `first` (page 1, already read) or from page 1 on, as far as readRecent says. */
async function readPages(
  ctx: PurchaseContext, module: ProductModule, first: Page<PurchaseResult> | undefined, opts: { search?: string; signal?: AbortSignal }, back?: ReadBack,
): Promise<PurchaseResult[]> {
  const out: PurchaseResult[] = [];
  let page = first ?? (await listPage(ctx, module, opts));
  for (let n = 1; ; n++) {
    out.push(...page.items);
    if (!page.next) return out;
    if (!back) {
      if (n >= ctx.reconcile.maxPages) return out;
    } else {
      if (page.items.some((r) => before(ctx, r, back.sinceMs))) return out; // the rest is older still
      if (n >= ctx.reconcile.readBackPages) throw new VtuUnknownOutcomeError(
        `Could not tell whether this ${module.product} purchase was already bought: the account has more than ${out.length} ${module.product} records${opts.search ? ` for ${opts.search}` : ''} since ${new Date(back.sinceMs).toISOString()}, more than the check reads (${n} pages). Nothing was bought for it: check a shorter time back, or the transaction history, before buying it.`,
        { candidates: [], details: { product: module.product, pagesRead: n } },
      );
    }
    page = await listPage(ctx, module, { ...opts, page: page.next });
  }
}

/**
 * Which purchases could leave records that match each other: same product, recipient and charge. Coarser
 * than the request (a ported flag, a plan of the same price also count), so an in-flight purchase that
 * could own a record is never missed; the cost of coarseness is only an unknown_outcome, never a wrong owner.
 */
function matchKey(prep: PreparedPurchase): string {
  return `${prep.product}|${prep.match.recipient ?? ''}|${prep.quote.amount.kobo}`;
}

/* ------------------------------------------------------------------ reconcile ----------- */

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

/**
 * Every record of the account that answers this request and was created between `sinceMs` and now,
 * claimed or not: the "already bought?" check (client/existing.ts) applies its own one-owner rule to
 * them. Reads back to `sinceMs` (ReadBack); reads only; adopts and claims nothing.
 */
export async function matchingRecords(
  ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, sinceMs: number, signal?: AbortSignal, cache?: ReadBack['cache'],
): Promise<PurchaseResult[]> {
  const recent = await readRecent(ctx, module, prep, signal, { sinceMs, cache });
  const hi = ctx.http.now();
  const seen = new Set<string>();
  return recent.filter((r) => {
    const k = recordKey(r);
    if (k && seen.has(k)) return false;
    if (k) seen.add(k);
    return (prep.match.recipient === null || sameRecipient(r.recipient, prep.match.recipient)) && prep.match.test(r) && inWindow(ctx, r.createdAt, sinceMs, hi);
  });
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

/* ------------------------------------------------------------------ execute ------------- */

function describeAmbiguity(e: unknown, res?: RawResponse): string {
  if (res) return `HTTP ${res.status}`;
  if (e instanceof VtuError) return String((e.details as { kind?: string } | undefined)?.kind ?? e.code);
  return 'an unknown failure';
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  retryIfNotCharged?: boolean;
  /** Custom 2xx parser (SMS). */
  parse?: (json: unknown, path: ResultPath) => Promise<PurchaseResult> | PurchaseResult;
}

/** A fresh client reference per POST (opt-in): 16 URL-safe characters. */
export function newCustomerRef(): string {
  return randomBytes(12).toString('base64url');
}

async function attemptOnce(
  ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, json: string, opts: ExecuteOptions, path: ResultPath,
): Promise<PurchaseResult> {
  const ref = ctx.customerRef ? newCustomerRef() : undefined;
  const body = ref ? { ...prep.body, customer_ref: ref } : prep.body;
  const sentAt = ctx.http.now();
  let res: RawResponse | undefined;
  let failure: unknown;
  try {
    res = await ctx.http.send('POST', prep.path, { body, json: ref ? JSON.stringify(body) : json, signal: opts.signal });
  } catch (e) {
    if (e instanceof VtuNetworkError && e.mayHaveReachedServer === false) throw e; // provably never sent
    if (!(e instanceof VtuNetworkError)) throw e;
    failure = e;
  }
  if (res) {
    if (res.status >= 200 && res.status < 300) {
      try {
        const json = ctx.http.parse('POST', prep.path, res);
        const r = opts.parse ? await opts.parse(json, path) : module.parse(json, path);
        if (r.product !== 'sms') learnOffset(ctx.http.baseUrl, r.createdAt, res.receivedAt);
        if (ref) noteRefEcho(ctx, r, ref);
        claim(ctx, r);
        return r;
      } catch (e) {
        if (!(e instanceof VtuBadResponseError)) throw e;
        failure = e;
        ctx.logger?.warn?.(`${module.product}: unreadable 2xx answer; reconciling`, { status: res.status });
      }
    } else {
      let err: VtuError;
      try {
        ctx.http.parse('POST', prep.path, res);
        err = new VtuBadResponseError(`Unexpected HTTP ${res.status}`);
      } catch (e) {
        err = e as VtuError;
      }
      if (!(err instanceof VtuServerError)) throw err; // 4xx, 3xx, 429: the server refused; nothing charged
      failure = err;
    }
  }
  ctx.logger?.warn?.(`${module.product}: outcome unknown (${describeAmbiguity(failure, res)}); reconciling`);
  const r = await reconcilePurchase(ctx, module, prep, { sentAt, ref, signal: opts.signal, cause: describeAmbiguity(failure, res) });
  return path === 'retried' ? { ...r, path } : r;
}

/** A direct answer tells whether the site stores customer_ref (said once, when it does not). */
function noteRefEcho(ctx: PurchaseContext, r: PurchaseResult, ref: string): void {
  if (refOf(r) === ref) ctx.account.refEcho = true;
  else if (ctx.account.refEcho === undefined) {
    ctx.account.refEcho = false;
    ctx.logger?.warn?.(`${r.product}: the site does not echo customer_ref; ownership of reconciled records falls back to the other rules`);
  }
}

/** The ONE safe-purchase entry point. `prep` must come from the product's `prepare` (already validated). */
export async function executePurchase(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, opts: ExecuteOptions = {}): Promise<PurchaseResult> {
  const json = JSON.stringify(prep.body);
  const key = matchKey(prep);
  const inflight = ctx.account.inflight;
  inflight.set(key, (inflight.get(key) ?? 0) + 1);
  try {
    try {
      return await attemptOnce(ctx, module, prep, json, opts, 'direct');
    } catch (e) {
      if (!(e instanceof VtuNotChargedError) || !opts.retryIfNotCharged) throw e;
      ctx.logger?.info?.(`${module.product}: not charged; re-sending once (retryIfNotCharged)`);
      return await attemptOnce(ctx, module, prep, json, opts, 'retried');
    }
  } finally {
    const n = (inflight.get(key) ?? 1) - 1;
    if (n <= 0) inflight.delete(key);
    else inflight.set(key, n);
  }
}

/* ------------------------------------------------------------------ polling ------------- */

export async function fetchRecord(ctx: PurchaseContext, module: ProductModule, id: number, signal?: AbortSignal): Promise<PurchaseResult> {
  if (module.hasDetail) {
    const body = await ctx.http.get(`${module.path.replace(/\/$/, '')}/${id}`, { signal });
    return module.parse(body, 'direct');
  }
  for (let page: number | null = 1, i = 0; page && i < Math.max(ctx.reconcile.maxPages, 5); i++) {
    const p = await listPage(ctx, module, { page, signal });
    const hit = p.items.find((r) => r.id === id);
    if (hit) return hit;
    page = p.next;
  }
  const { VtuNotFoundError } = await import('./errors');
  throw new VtuNotFoundError(`${module.product} record ${id} is not among the newest records.`);
}

export async function waitForFinal(ctx: PurchaseContext, module: ProductModule, r: PurchaseResult, opts: WaitOptions = {}): Promise<PurchaseResult> {
  if (r.status !== 'processing' || r.id === null) return r;
  const deadline = ctx.http.now() + (opts.timeoutMs ?? 60_000);
  const interval = opts.intervalMs ?? 2_000;
  let cur = r;
  while (cur.status === 'processing' && ctx.http.now() < deadline) {
    await ctx.http.sleep(Math.min(interval, Math.max(0, deadline - ctx.http.now())), opts.signal);
    const fresh = await fetchRecord(ctx, module, r.id, opts.signal);
    cur = { ...fresh, path: r.path };
  }
  return cur;
}
