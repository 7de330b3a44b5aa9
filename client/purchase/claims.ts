/** Claims: a record is owned by at most one order, and every client of the account in this process knows it. */
import type { PreparedPurchase } from '../products/common';
import type { Product, PurchaseResult } from '../types';
import { isRecord } from '../util';
import type { PurchaseContext } from './context';

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
export function refOf(r: PurchaseResult): string | null {
	if (!isRecord(r.raw)) return null;
	const v = r.raw.customer_ref ?? r.raw.customer_reference;
	return typeof v === 'string' ? v : null;
}

/**
 * Which purchases could leave records that match each other: same product, recipient and charge. Coarser
 * than the request (a ported flag, a plan of the same price also count), so an in-flight purchase that
 * could own a record is never missed; the cost of coarseness is only an unknown_outcome, never a wrong owner.
 */
export function matchKey(prep: PreparedPurchase): string {
	return prep.match.key ?? `${prep.product}|${prep.match.recipient ?? ''}|${prep.quote.amount.kobo}`;
}
