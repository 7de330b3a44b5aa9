/**
 * THE safe-purchase mechanism (DESIGN.md "Buying safely"). Every product goes through `executePurchase`.
 *
 *  1. validate locally (done by the product's `prepare`, before this runs);
 *  2. POST exactly once (HttpCore retries only never-sent requests and 429s);
 *  3. a readable answer → known outcome (path 'direct');
 *  4. timeout / reset after sending / 5xx / HTML / unreadable 2xx → `reconcile`: read the newest records
 *     of the product (`?search=<recipient>` where the site filters, detecting when it ignored the filter;
 *     else the first `maxPages` pages), keep records matching recipient + plan/amount, created inside the
 *     time window, not already known to this client. One → adopt (path 'reconciled'); several →
 *     `unknown_outcome` with the candidates; none after re-reading for `waitMs` → `not_charged`
 *     (or, with `retryIfNotCharged`, ONE re-send, path 'retried').
 *
 * Time rule (create_date carries no timezone): the server's naive clock offset (naive create_date − our
 * UTC clock) is learned from every directly received record (`create_date` vs the local receive time).
 * Window: [sentAt − skewMs, now + skewMs] mapped to the server's naive clock with that offset. Until an
 * offset is known (first purchase ever, or `reconcile()` after a restart) and no
 * `serverUtcOffsetMinutes` is configured, any timezone (−12h..+14h) is allowed, so matching relies on
 * recipient + plan/amount + "not known" only, plus `excludeIds` supplied by the caller.
 */
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
  /** Allowed clock skew between the learned offset and reality. Default 120 000. */
  skewMs: number;
  /** Server's naive create_date offset from UTC in minutes, if known (e.g. 60 for Africa/Lagos). */
  serverUtcOffsetMinutes?: number;
}

export const DEFAULT_RECONCILE: ReconcileSettings = { windowMs: 120_000, waitMs: 6_000, pollMs: 1_500, maxPages: 3, skewMs: 120_000 };

/** Learned naive-clock offsets per base URL (shared by clients of the same site). */
const offsets = new Map<string, number>();

export interface PurchaseContext {
  http: HttpCore;
  catalog: CatalogCache;
  settings: ClientSettings;
  reconcile: ReconcileSettings;
  logger?: Logger;
  /** Records this client already returned or adopted, per product: ids (numbers) and idents (strings). */
  known: Map<Product, Set<number | string>>;
  /** `?search=` support per product: true filters, false ignored, undefined unknown. */
  searchSupport: Map<Product, boolean>;
  /** Purchases in flight per match key. */
  inflight: Map<string, number>;
}

export function newContextState(): Pick<PurchaseContext, 'known' | 'searchSupport' | 'inflight'> {
  return { known: new Map(), searchSupport: new Map(), inflight: new Map() };
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

export function knownOffset(ctx: PurchaseContext): number | null {
  if (ctx.reconcile.serverUtcOffsetMinutes !== undefined) {
    return ctx.reconcile.serverUtcOffsetMinutes * 60_000 + (ctx.http.lastDateHeaderOffsetMs ?? 0);
  }
  return offsets.get(ctx.http.baseUrl) ?? null;
}

function inWindow(ctx: PurchaseContext, createdAt: string | null, sentAt: number, now: number): boolean {
  const p = parseCreateDate(createdAt);
  if (!p) return true; // no date: cannot exclude by time
  const skew = ctx.reconcile.skewMs;
  const hi = Math.max(now, sentAt + ctx.reconcile.windowMs);
  if (p.absolute) return p.ms >= sentAt - skew && p.ms <= hi + skew;
  const off = knownOffset(ctx);
  if (off === null) return p.ms >= sentAt - 12 * 3_600_000 - skew && p.ms <= hi + 14 * 3_600_000 + skew;
  return p.ms >= sentAt + off - skew && p.ms <= hi + off + skew;
}

/* ------------------------------------------------------------------ keys ---------------- */

export function recordKey(r: PurchaseResult): string | null {
  if (r.id !== null) return `id:${r.id}`;
  if (r.ident) return `ident:${r.ident}`;
  return null;
}

/**
 * The key `known` stores for a record: its id (a number) or, without an id, its ident (a string) — the
 * same choice as `recordKey`, without building a string per purchase. Numbers and strings never collide.
 */
export function knownKey(r: PurchaseResult): number | string | null {
  if (r.id !== null) return r.id;
  if (r.ident) return r.ident;
  return null;
}

function knownSet(ctx: PurchaseContext, product: Product): Set<number | string> {
  let s = ctx.known.get(product);
  if (!s) ctx.known.set(product, (s = new Set()));
  return s;
}

export function remember(ctx: PurchaseContext, r: PurchaseResult): void {
  const k = knownKey(r);
  if (k === null) return;
  const s = knownSet(ctx, r.product);
  s.add(k);
  if (r.ident && r.id !== null) s.add(r.ident);
  if (s.size > 100_000) {
    // bounded memory: drop the oldest half (Set keeps insertion order)
    let i = 0;
    for (const x of s) {
      if (i++ > 50_000) break;
      s.delete(x);
    }
  }
}

function isKnown(ctx: PurchaseContext, r: PurchaseResult, exclude: Set<number>): boolean {
  if (r.id !== null && exclude.has(r.id)) return true;
  const s = knownSet(ctx, r.product);
  return (r.id !== null && s.has(r.id)) || (r.ident !== null && s.has(r.ident));
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

/** Read the newest records of the product that could be this purchase. */
async function readRecent(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, signal?: AbortSignal): Promise<PurchaseResult[]> {
  const { search } = prep.match;
  const support = ctx.searchSupport.get(module.product);
  const out: PurchaseResult[] = [];
  let startPage = 1;
  if (search && support !== false) {
    const page = await listPage(ctx, module, { search, signal });
    const ignored = page.items.some((r) => !sameRecipient(r.recipient, search) && r.ident !== search && String(r.id) !== search);
    out.push(...page.items);
    if (!ignored) {
      if (page.items.length) ctx.searchSupport.set(module.product, true);
      // a filtered but paginated answer: follow a few pages
      let next = page.next;
      for (let i = 1; next && i < ctx.reconcile.maxPages; i++) {
        const p = await listPage(ctx, module, { search, page: next, signal });
        out.push(...p.items);
        next = p.next;
      }
      return out;
    }
    ctx.searchSupport.set(module.product, false);
    ctx.logger?.info?.(`${module.product}: the site ignores ?search=; scanning the newest pages instead`);
    if (!page.next) return out;
    startPage = 2;
  }
  for (let n: number | null = startPage, i = startPage; n && i <= ctx.reconcile.maxPages; i++) {
    const p = await listPage(ctx, module, { page: n, signal });
    out.push(...p.items);
    n = p.next;
  }
  return out;
}

function matchKey(prep: PreparedPurchase, json = JSON.stringify(prep.body)): string {
  return `${prep.product}|${json}`;
}

/* ------------------------------------------------------------------ reconcile ----------- */

export interface ReconcileRun {
  sentAt: number;
  waitMs?: number;
  excludeIds?: number[];
  signal?: AbortSignal;
  /** The failure that made the outcome unknown (for messages). */
  cause?: string;
}

export async function reconcilePurchase(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, run: ReconcileRun): Promise<PurchaseResult> {
  const waitMs = run.waitMs ?? ctx.reconcile.waitMs;
  const deadline = ctx.http.now() + waitMs;
  const exclude = new Set(run.excludeIds ?? []);
  const key = matchKey(prep);
  const why = run.cause ? ` after ${run.cause}` : '';
  for (let attempt = 1; ; attempt++) {
    let recent: PurchaseResult[];
    try {
      recent = await readRecent(ctx, module, prep, run.signal);
    } catch (e) {
      // A failed read proves nothing: keep trying until the deadline, then say the outcome is unknown
      // (never not_charged, never a bare server/network error that reads like "nothing happened").
      const code = e instanceof VtuError ? e.code : 'aborted';
      const permanent = !(e instanceof VtuError) || ['auth', 'forbidden', 'not_found', 'invalid_input'].includes(code) || run.signal?.aborted;
      const left = deadline - ctx.http.now();
      ctx.logger?.warn?.(`reconcile ${module.product}: reading the records failed (${code})`, { attempt });
      if (!permanent && left > 0) {
        await ctx.http.sleep(Math.min(ctx.reconcile.pollMs, left), run.signal).catch(() => undefined);
        continue;
      }
      throw new VtuUnknownOutcomeError(
        `The outcome of this ${module.product} purchase is unknown${why}: its records could not be read to check (${code}${e instanceof Error ? `: ${e.message}` : ''}). Check the transaction history before buying again.`,
        { candidates: [], details: { product: module.product, request: prep.body, readError: code } },
      );
    }
    const now = ctx.http.now();
    const seen = new Set<string>();
    const candidates = recent.filter((r) => {
      const k = recordKey(r);
      if (k && seen.has(k)) return false;
      if (k) seen.add(k);
      return (
        (prep.match.recipient === null || sameRecipient(r.recipient, prep.match.recipient)) &&
        prep.match.test(r) &&
        !isKnown(ctx, r, exclude) &&
        inWindow(ctx, r.createdAt, run.sentAt, now)
      );
    });
    const othersInFlight = (ctx.inflight.get(key) ?? 0) > 1;
    ctx.logger?.debug?.(`reconcile ${module.product}: ${candidates.length} candidate(s)`, { attempt, othersInFlight });
    if (candidates.length === 1 && !othersInFlight) {
      const r = { ...candidates[0], path: 'reconciled' as ResultPath };
      remember(ctx, r);
      return r;
    }
    const timeLeft = deadline - ctx.http.now();
    if (candidates.length > 1 || (candidates.length === 1 && othersInFlight)) {
      if (othersInFlight && timeLeft > 0) {
        await ctx.http.sleep(Math.min(ctx.reconcile.pollMs, timeLeft), run.signal);
        continue;
      }
      throw new VtuUnknownOutcomeError(
        `The outcome of this ${module.product} purchase is unknown${why}: ${candidates.length} matching record${candidates.length > 1 ? 's' : ''} could be it${othersInFlight ? ' while identical purchases were in flight' : ''}. Check them (candidates) before buying again.`,
        { candidates, details: { product: module.product, request: prep.body } },
      );
    }
    if (timeLeft <= 0) {
      throw new VtuNotChargedError(
        `The ${module.product} purchase was not charged${why}: no matching record appeared within ${Math.round(waitMs / 1000)}s. It is safe to buy again.`,
        { details: { product: module.product, request: prep.body } },
      );
    }
    await ctx.http.sleep(Math.min(ctx.reconcile.pollMs, timeLeft), run.signal);
  }
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

async function attemptOnce(
  ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, json: string, opts: ExecuteOptions, path: ResultPath,
): Promise<PurchaseResult> {
  const sentAt = ctx.http.now();
  let res: RawResponse | undefined;
  let failure: unknown;
  try {
    res = await ctx.http.send('POST', prep.path, { body: prep.body, json, signal: opts.signal });
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
        remember(ctx, r);
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
  const r = await reconcilePurchase(ctx, module, prep, { sentAt, signal: opts.signal, cause: describeAmbiguity(failure, res) });
  return path === 'retried' ? { ...r, path } : r;
}

/** The ONE safe-purchase entry point. `prep` must come from the product's `prepare` (already validated). */
export async function executePurchase(ctx: PurchaseContext, module: ProductModule, prep: PreparedPurchase, opts: ExecuteOptions = {}): Promise<PurchaseResult> {
  const json = JSON.stringify(prep.body); // once: the in-flight key and the POST body
  const key = matchKey(prep, json);
  ctx.inflight.set(key, (ctx.inflight.get(key) ?? 0) + 1);
  try {
    try {
      return await attemptOnce(ctx, module, prep, json, opts, 'direct');
    } catch (e) {
      if (!(e instanceof VtuNotChargedError) || !opts.retryIfNotCharged) throw e;
      ctx.logger?.info?.(`${module.product}: not charged; re-sending once (retryIfNotCharged)`);
      return await attemptOnce(ctx, module, prep, json, opts, 'retried');
    }
  } finally {
    const n = (ctx.inflight.get(key) ?? 1) - 1;
    if (n <= 0) ctx.inflight.delete(key);
    else ctx.inflight.set(key, n);
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
