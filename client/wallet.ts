/**
 * The wallet history (`GET /api/Wallet_summary/`, docs/real-sites.md §10): one row per balance change,
 * newest first, as DRF pages or one bare list depending on the build. Rows carry free text (`product`),
 * an amount, the balances before and after, and a create date; they name no record, so a row proves that
 * the wallet moved, never whose purchase moved it.
 */
import { z } from 'zod';
import { VtuBadResponseError, VtuNotFoundError } from './errors';
import { money } from './money';
import { dateBefore } from './purchase/clock';
import type { PurchaseContext } from './purchase/context';
import { zKobo, zStr } from './schemas/common';
import type { Money, Page } from './types';
import { isRecord } from './util';

export interface WalletEntry {
	/** The row's own reference (random on real sites: unrelated to any purchase's ident). */
	ident: string | null;
	/** What the site wrote, e.g. "MTN 1.0GB   N239.0  DATA topup  with 08031234567". */
	text: string;
	amount: Money;
	balanceBefore: Money | null;
	balanceAfter: Money | null;
	/** From the balances where they differ, else from the text (refund/funding words); null: not told. */
	direction: 'debit' | 'credit' | null;
	/** The text calls it a refund (a failed purchase's money coming back). */
	refund: boolean;
	createdAt: string | null;
	raw: unknown;
}

const zBalance = z.union([z.number(), z.string(), z.null()]).optional();

const zRow = z.object({
	ident: zStr,
	product: zStr,
	amount: zKobo,
	previous_balance: zBalance,
	after_balance: zBalance,
	create_date: z.string().nullable().optional(),
});

function balance(v: unknown): Money | null {
	if (v === null || v === undefined || v === '') return null;
	const r = zKobo.safeParse(v);
	return r.success ? money(r.data) : null;
}

const CREDIT_WORDS = /refund|funding|fund your|bonus|earned|reversal|received/i;

export function parseWalletRow(row: unknown): WalletEntry {
	const r = zRow.parse(row);
	const before = balance(r.previous_balance);
	const after = balance(r.after_balance);
	const refund = /refund/i.test(r.product);
	let direction: WalletEntry['direction'] = null;
	if (before && after && before.kobo !== after.kobo) direction = after.kobo < before.kobo ? 'debit' : 'credit';
	else if (CREDIT_WORDS.test(r.product)) direction = 'credit';
	return {
		ident: r.ident || null,
		text: r.product.trim(),
		amount: money(r.amount),
		balanceBefore: before,
		balanceAfter: after,
		direction,
		refund,
		createdAt: r.create_date ?? null,
		raw: row,
	};
}

function nextPage(next: unknown): number | null {
	if (next === null || next === undefined || next === '') return null;
	if (typeof next === 'number') return next;
	const m = /[?&]page=(\d+)/.exec(String(next));
	return m ? Number(m[1]) : null;
}

/** DRF page or bare list → Page. Unreadable rows are skipped (logged); none readable is a bad response. */
export function parseWalletBody(body: unknown, ctx?: PurchaseContext): Page<WalletEntry> & { paginated: boolean } {
	let rows: unknown[];
	let count: number | null = null;
	let next: number | null = null;
	const paginated = isRecord(body) && Array.isArray(body.results);
	if (Array.isArray(body)) rows = body;
	else if (isRecord(body) && Array.isArray(body.results)) {
		rows = body.results;
		count = typeof body.count === 'number' ? body.count : null;
		next = nextPage(body.next);
	} else throw new VtuBadResponseError('The wallet history has an unexpected shape (expected {results} or a list).');
	const items: WalletEntry[] = [];
	for (const row of rows) {
		try {
			items.push(parseWalletRow(row));
		} catch {
			// counted below: a history with unreadable rows cannot prove what is missing from it
		}
	}
	if (items.length < rows.length) {
		ctx?.logger?.warn?.(`${rows.length - items.length} wallet history rows were unreadable and skipped`);
		if (items.length === 0)
			throw new VtuBadResponseError(`None of the ${rows.length} wallet history rows could be read.`);
	}
	return { count, next, items, paginated, ...(items.length < rows.length ? { unreadable: true } : {}) };
}

/** One page of the wallet history (`page`, `search` as the site honours them). */
export async function walletPage(
	ctx: PurchaseContext,
	opts: { page?: number; search?: string; signal?: AbortSignal } = {},
): Promise<Page<WalletEntry> & { paginated: boolean; unreadable?: boolean }> {
	const query: Record<string, string> = {};
	if (opts.page && opts.page > 1) query.page = String(opts.page);
	if (opts.search) query.search = opts.search;
	try {
		const body = await ctx.http.get('/api/Wallet_summary/', { query, signal: opts.signal });
		ctx.account.walletHistory = true;
		return parseWalletBody(body, ctx);
	} catch (e) {
		if (e instanceof VtuNotFoundError && !opts.page) ctx.account.walletHistory = false;
		throw e;
	}
}

/** What a read of the history back to a time saw: `complete` when it reached that time or the list's end. */
export interface WalletRead {
	entries: WalletEntry[];
	complete: boolean;
	pages: number;
}

/**
 * The rows since `sinceMs` (our clock), newest first: pages until one reaches older rows or the list
 * ends, at most `reconcile.readBackPages`. With `search` (a recipient), `?search=` first where the site
 * filters by it (a page whose rows do not all name it shows it ignored the filter: remembered per account,
 * and that page is the unfiltered page 1). Null where the site has no wallet history (learned per account).
 */
export async function walletSince(
	ctx: PurchaseContext,
	sinceMs: number,
	signal?: AbortSignal,
	search?: string,
): Promise<WalletRead | null> {
	if (ctx.account.walletHistory === false) return null;
	const filter = search && ctx.account.walletSearch !== false ? search : undefined;
	let page: Awaited<ReturnType<typeof walletPage>>;
	try {
		page = await walletPage(ctx, { signal, search: filter });
	} catch (e) {
		if (e instanceof VtuNotFoundError) return null;
		throw e;
	}
	let used = filter;
	if (filter && page.items.some((r) => !r.text.includes(filter))) {
		ctx.account.walletSearch = false;
		used = undefined;
	} else if (filter && page.items.length) ctx.account.walletSearch = true;
	const entries: WalletEntry[] = [];
	for (let n = 1; ; n++) {
		entries.push(...page.items);
		// rows skipped as unreadable could be the very debit looked for: the read proves nothing complete
		if (page.unreadable) return { entries, complete: false, pages: n };
		if (!page.next || page.items.some((r) => dateBefore(ctx, r.createdAt, sinceMs)))
			return { entries, complete: true, pages: n };
		if (n >= ctx.reconcile.readBackPages) return { entries, complete: false, pages: n };
		page = await walletPage(ctx, { page: page.next, search: used, signal });
	}
}
