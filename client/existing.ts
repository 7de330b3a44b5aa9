/**
 * "Was this already bought?" for a batch of purchase requests, before anything is sent (n8n's retried
 * executions, re-runs after a crash, duplicated webhooks). It asks the account's own records through the
 * client's reconciliation matching (`client.matchingRecords`: recipient + plan/amount + time window, whoever
 * claimed them: an earlier run's purchases are exactly what it looks for) and applies the one-owner rule
 * across the batch: a record answers at most one request. Identical requests share the matching records in
 * input order, the rest are new. The records it hands out are then claimed in this process.
 *
 * What it cannot tell apart: two genuine identical orders (same product, recipient and plan/amount) made
 * inside the window by anyone on the same account. The second is reported as already bought.
 */
import type { VtuClient } from './client';
import { VtuError, VtuUnknownOutcomeError } from './errors';
import { PRODUCT_SPECS } from './products/registry';
import { recordKey } from './purchase';
import type { Product, PurchaseRequest, PurchaseResult } from './types';

/**
 * Products answered by one record per request. A batch product (bulk SMS: one request → many batches) is not checked.
 */
const CHECKED = new Set<string>(PRODUCT_SPECS.filter((s) => !('batch' in s)).map((s) => s.product));

export function canCheckExisting(req: unknown): req is PurchaseRequest {
	return typeof req === 'object' && req !== null && CHECKED.has((req as { product?: unknown }).product as string);
}

export interface ExistingLookup {
	/** Request index → the record that already answers it (path 'existing'). */
	found: Map<number, PurchaseResult>;
	/** Request index → why the records could not be read: the caller must not buy it blindly. */
	unchecked: Map<number, VtuError>;
}

/** Failed (refunded) records are not a purchase: the request is bought again. */
const counts = (r: PurchaseResult) => r.status !== 'failed';

/**
 * Looks every request up in the records created since `sinceMs`. `requests` maps an index (e.g. the n8n
 * item) to its request; `run(n, read)` calls read(0) … read(n − 1), e.g. in a bounded pool. Sends nothing.
 */
export async function findExisting(
	client: VtuClient,
	requests: Map<number, PurchaseRequest>,
	sinceMs: number,
	run: (n: number, read: (k: number) => Promise<void>) => Promise<void>,
): Promise<ExistingLookup> {
	// identical requests form one group: they compete for the same records
	const groups = new Map<string, number[]>();
	for (const [i, req] of requests) {
		const k = JSON.stringify(req);
		const g = groups.get(k);
		if (g) g.push(i);
		else groups.set(k, [i]);
	}
	const since = new Date(sinceMs);
	const matches: Array<{ group: number[]; recs: PurchaseResult[] }> = [];
	const unchecked = new Map<number, VtuError>();
	const list = [...groups.values()];
	const listCache = new Map<Product, Promise<PurchaseResult[]>>(); // the unfiltered list, read once for all groups
	await run(list.length, async (k) => {
		const group = list[k];
		try {
			matches.push({ group, recs: await client.matchingRecords(requests.get(group[0])!, { since, listCache }) });
		} catch (e) {
			for (const i of group)
				unchecked.set(i, e instanceof VtuError ? e : new VtuUnknownOutcomeError(String(e), { candidates: [] }));
		}
	});

	// one owner per record, groups in input order, the oldest record to a group's first request
	const found = new Map<number, PurchaseResult>();
	const taken = new Set<string>();
	for (const { group, recs } of matches.sort((a, b) => a.group[0] - b.group[0])) {
		const free = recs
			.filter((r) => counts(r) && !taken.has(recordKey(r) ?? ''))
			.sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
		for (let n = 0; n < group.length && n < free.length; n++) {
			const k = recordKey(free[n]);
			if (k) taken.add(k);
			found.set(group[n], free[n]);
		}
	}
	// a record answering a request here is owned: no purchase of this process may reconcile to it later
	client.claimRecords([...found.values()]);
	return { found, unchecked };
}
