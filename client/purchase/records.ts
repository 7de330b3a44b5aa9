/** Reading the account's records: list pages, `?search=` detection, reading back to a time, one record. */
import { VtuBadResponseError, VtuNotFoundError, VtuUnknownOutcomeError } from '../errors';
import type { PreparedPurchase, ProductModule } from '../products/common';
import { tryNormalizePhone } from '../phone';
import type { Page, Product, PurchaseResult, WaitOptions } from '../types';
import { isRecord, type Logger } from '../util';
import { before, inWindow } from './clock';
import { recordKey } from './claims';
import type { PurchaseContext } from './context';

function pageNumber(next: unknown): number | null {
	if (next === null || next === undefined || next === '') return null;
	if (typeof next === 'number') return next;
	const m = /[?&]page=(\d+)/.exec(String(next));
	return m ? Number(m[1]) : null;
}

/** Paginated {count, next, results} or a bare array → Page. Unreadable items are skipped (logged). */
export function parseListBody(
	module: ProductModule,
	body: unknown,
	logger?: Logger,
): Page<PurchaseResult> & { paginated: boolean } {
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
	else
		throw new VtuBadResponseError(
			`The ${module.product} list has an unexpected shape (expected {count, next, results} or an array).`,
		);
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
	ctx: PurchaseContext,
	module: ProductModule,
	opts: { page?: number; search?: string; signal?: AbortSignal } = {},
): Promise<Page<PurchaseResult> & { paginated: boolean }> {
	const query: Record<string, string> = {};
	if (opts.page && opts.page > 1) query.page = String(opts.page);
	if (opts.search) query.search = opts.search;
	const body = await ctx.http.get(module.path, { query, signal: opts.signal });
	return parseListBody(module, body, ctx.logger);
}

export function sameRecipient(a: string | null, b: string | null): boolean {
	if (a === null || b === null) return false;
	if (a === b) return true;
	const pa = tryNormalizePhone(a);
	return pa !== null && pa === tryNormalizePhone(b);
}

/**
 * How far back a read goes: until the records are older than `sinceMs` (the window's start, our clock),
 * or reach `stopAtId` (an id an earlier complete read already covered), or the list ends; at most
 * `readBackPages` pages. Calls given the same `cache` (the requests of one "already bought?" check) read
 * the unfiltered list once.
 */
export interface ReadBack {
	sinceMs: number;
	stopAtId?: number | null;
	cache?: Map<Product, Promise<PurchaseResult[]>>;
}

/**
 * What one read back saw. `complete`: it reached the window's start (or `stopAtId`, or the list's end),
 * so every record that existed when it began and belongs to the window is among `items` (the list is
 * newest first and only grows: a record moves down while the pages are read, never up past the reader).
 */
export interface ReadOut {
	items: PurchaseResult[];
	complete: boolean;
	pages: number;
	/** The highest record id of the first page (the next read can stop there). */
	topId: number | null;
}

/**
 * Read the newest records of the product that could be this purchase, back to `back.sinceMs`:
 * `?search=<recipient>` where the site filters (detecting when it ignored the filter), else the
 * unfiltered list.
 */
export async function readRecent(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	back: ReadBack,
	signal?: AbortSignal,
): Promise<ReadOut> {
	const { search } = prep.match;
	let first: Page<PurchaseResult> | undefined;
	if (search && ctx.account.searchSupport.get(module.product) !== false) {
		const page = await listPage(ctx, module, { search, signal });
		const ignored = page.items.some(
			(r) => !sameRecipient(r.recipient, search) && r.ident !== search && String(r.id) !== search,
		);
		if (!ignored) {
			if (page.items.length) ctx.account.searchSupport.set(module.product, true);
			return readPages(ctx, module, page, { search, signal }, back); // filtered, maybe paginated
		}
		ctx.account.searchSupport.set(module.product, false);
		ctx.logger?.info?.(`${module.product}: the site ignores ?search=; reading the pages back instead`);
		first = page; // the unfiltered page 1
	}
	if (!back.cache) return readPages(ctx, module, first, { signal }, back);
	let all = back.cache.get(module.product);
	if (!all)
		back.cache.set(
			module.product,
			(all = readPages(ctx, module, first, { signal }, back).then((o) => complete(module, back, o))),
		);
	return { items: await all, complete: true, pages: 0, topId: null };
}

/**
 * A read that had to reach the window's start, or unknown_outcome (the "already bought?" check must not say "not
 * bought" blindly).
 */
function complete(module: ProductModule, back: ReadBack, out: ReadOut): PurchaseResult[] {
	if (out.complete) return out.items;
	throw new VtuUnknownOutcomeError(
		`Could not tell whether this ${module.product} purchase was already bought: the account has more than ` +
			`${out.items.length} ${module.product} records since ${new Date(back.sinceMs).toISOString()}, more than the check ` +
			`reads (${out.pages} pages). Nothing was bought for it: check a shorter time back, or the transaction history, ` +
			`before buying it.`,
		{ candidates: [], details: { product: module.product, pagesRead: out.pages } },
	);
}

/** The list from `first` (page 1, already read) or from page 1 on, as far as `back` says. */
async function readPages(
	ctx: PurchaseContext,
	module: ProductModule,
	first: Page<PurchaseResult> | undefined,
	opts: { search?: string; signal?: AbortSignal },
	back: ReadBack,
): Promise<ReadOut> {
	const items: PurchaseResult[] = [];
	let page = first ?? (await listPage(ctx, module, opts));
	const topId = page.items.reduce<number | null>(
		(m, r) => (r.id !== null && (m === null || r.id > m) ? r.id : m),
		null,
	);
	const stop = back.stopAtId ?? null;
	for (let n = 1; ; n++) {
		items.push(...page.items);
		if (!page.next) return { items, complete: true, pages: n, topId };
		// the rest is older still, or was covered by an earlier complete read
		if (page.items.some((r) => before(ctx, r, back.sinceMs) || (stop !== null && r.id !== null && r.id <= stop)))
			return { items, complete: true, pages: n, topId };
		if (n >= ctx.reconcile.readBackPages) return { items, complete: false, pages: n, topId };
		page = await listPage(ctx, module, { ...opts, page: page.next });
	}
}

/**
 * Every record of the account that answers this request and was created between `sinceMs` and now,
 * claimed or not: the "already bought?" check (client/existing.ts) applies its own one-owner rule to
 * them. Reads back to `sinceMs` (ReadBack); reads only; adopts and claims nothing.
 */
export async function matchingRecords(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	sinceMs: number,
	signal?: AbortSignal,
	cache?: ReadBack['cache'],
): Promise<PurchaseResult[]> {
	const back = { sinceMs, cache };
	const recent = complete(module, back, await readRecent(ctx, module, prep, back, signal));
	const hi = ctx.http.now();
	const seen = new Set<string>();
	return recent.filter((r) => {
		const k = recordKey(r);
		if (k && seen.has(k)) return false;
		if (k) seen.add(k);
		return (
			(prep.match.recipient === null || sameRecipient(r.recipient, prep.match.recipient)) &&
			prep.match.test(r) &&
			inWindow(ctx, r.createdAt, sinceMs, hi)
		);
	});
}

export async function fetchRecord(
	ctx: PurchaseContext,
	module: ProductModule,
	id: number,
	signal?: AbortSignal,
): Promise<PurchaseResult> {
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
	throw new VtuNotFoundError(`${module.product} record ${id} is not among the newest records.`);
}

export async function waitForFinal(
	ctx: PurchaseContext,
	module: ProductModule,
	r: PurchaseResult,
	opts: WaitOptions = {},
): Promise<PurchaseResult> {
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
