import type { IDataObject } from 'n8n-workflow';

import type { Money, PurchaseQuote, PurchaseResult } from '../../client/types';

export function naira(m: Money | null | undefined): string | null {
	return m ? m.naira : null;
}

/** Plain JSON of a details bag (Money values become naira strings). */
function plain(v: unknown): unknown {
	if (v === null || v === undefined) return v ?? null;
	if (Array.isArray(v)) return v.map(plain);
	if (typeof v === 'object') {
		const o = v as Record<string, unknown>;
		if (typeof o.kobo === 'number' && typeof o.naira === 'string' && Object.keys(o).length === 2) {
			return o.naira;
		}
		const out: Record<string, unknown> = {};
		for (const [k, x] of Object.entries(o)) out[k] = plain(x);
		return out;
	}
	return v;
}

/**
 * One purchase as an output item: the safe-purchase fields first (status, path, ident, amount,
 * balance), product details (plan, token, pins…) at the top level.
 */
export function resultJson(r: PurchaseResult): IDataObject {
	const details = (plain(r.details ?? {}) ?? {}) as IDataObject;
	return {
		...details,
		status: r.status,
		path: r.path,
		product: r.product,
		id: r.id,
		ident: r.ident,
		amount: naira(r.amount),
		balanceBefore: naira(r.balanceBefore),
		balance: naira(r.balanceAfter),
		recipient: r.recipient,
		message: r.message,
		createdAt: r.createdAt,
	};
}

export function quoteJson(q: PurchaseQuote): IDataObject {
	return {
		product: q.product,
		recipient: q.recipient,
		price: q.amount.naira,
		description: q.description,
		request: plain(q.request) as IDataObject,
	};
}

/** `1 number`, `2 numbers`, `20,000 rows`: a count as a builder reads it. */
export function countText(n: number, noun: string, plural = `${noun}s`): string {
	return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
