/**
 * Purchases whose outcome is unclear (`unknown_outcome`): what their items carry so a workflow can settle
 * them later, and the one look-up that settles them (`client.reconcile` with no waiting).
 */
import type { IDataObject } from 'n8n-workflow';

import type { PurchaseRequest, PurchaseResult, VtuClient } from '../../client/core';
import { VtuError } from '../../client/errors';

/** What an unclear item tells the builder to do: never buy it again until it is resolved. */
export const CHECK_LATER = 'check later';

/** Settled: bought (with its record), proven not bought, or still unclear (with when to look again). */
export type Resolution =
	| { kind: 'bought'; record: PurchaseResult }
	| { kind: 'not_bought'; error: VtuError }
	| { kind: 'unclear'; error?: unknown; resolvableAfter?: string };

function isRequest(v: unknown): v is PurchaseRequest {
	return typeof v === 'object' && v !== null && typeof (v as { product?: unknown }).product === 'string';
}

function isoOrUndefined(v: unknown): string | undefined {
	return typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined;
}

/** A candidate record as a builder reads it: when, how much, its reference, its status. */
export function readableCandidate(c: unknown): IDataObject {
	const r = (c ?? {}) as Partial<PurchaseResult>;
	return {
		time: r.createdAt ?? null,
		amount: r.amount?.naira ?? null,
		reference: r.ident ?? null,
		status: r.status ?? null,
		id: r.id ?? null,
		recipient: r.recipient ?? null,
	};
}

/**
 * The customer_ref an unclear purchase's POST carried (the client's `details.customerRef`): a string, null
 * (sent without one), or undefined (the error does not say).
 */
export function customerRefOf(error: unknown): string | null | undefined {
	const details = error instanceof VtuError ? error.details : undefined;
	const v = details?.customerRef;
	return typeof v === 'string' || v === null ? v : undefined;
}

/**
 * The fields an unclear item carries (beside `error`, `code`): `request` exactly as the node sent it,
 * `sentAt`, `resolvableAfter` (when a proven answer becomes possible), `customerRef` (the customer_ref the
 * POST carried, null when none; where the site echoes it, proof of which record is this purchase's) and
 * the candidates as readable rows. The client's own details win where it gives them; the node's are the
 * fallback.
 */
export function unclearFacts(
	error: unknown,
	known: { request: unknown; sentAt: string; processingMs: number },
): IDataObject {
	const details = error instanceof VtuError ? (error.details ?? {}) : {};
	const sentAt = isoOrUndefined(details.sentAt) ?? known.sentAt;
	const resolvableAfter =
		isoOrUndefined(details.resolvableAfter) ?? new Date(Date.parse(sentAt) + known.processingMs).toISOString();
	const request = isRequest(details.request) ? details.request : isRequest(known.request) ? known.request : null;
	const candidates = error instanceof VtuError ? (error.candidates ?? []) : [];
	const customerRef = customerRefOf(error);
	return {
		outcome: CHECK_LATER,
		request: request as unknown as IDataObject,
		sentAt,
		resolvableAfter,
		...(customerRef !== undefined ? { customerRef } : {}),
		candidates: candidates.map(readableCandidate),
	};
}

/**
 * Look once (no waiting) whether an unclear purchase was bought. Never sends a purchase. `customerRef`: the
 * customer_ref its POST carried, where known (a record carrying it is proven this purchase's).
 */
export async function resolveUnclear(
	client: VtuClient,
	request: unknown,
	sentAt: string,
	customerRef?: string | null,
): Promise<Resolution> {
	if (!isRequest(request)) return { kind: 'unclear' };
	const ref = customerRef === undefined ? {} : { customerRef };
	try {
		return { kind: 'bought', record: await client.reconcile(request, { sentAt: new Date(sentAt), ...ref, waitMs: 0 }) };
	} catch (error) {
		if (error instanceof VtuError && error.code === 'not_charged') return { kind: 'not_bought', error };
		const resolvableAfter = error instanceof VtuError ? isoOrUndefined(error.details?.resolvableAfter) : undefined;
		return { kind: 'unclear', error, resolvableAfter };
	}
}
