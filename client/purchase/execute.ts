/**
 * THE safe-purchase entry point: every product goes through `executePurchase`.
 *
 *  1. validate locally (done by the product's `prepare`, before this runs);
 *  2. POST exactly once (HttpCore retries only never-sent requests and 429s);
 *  3. a readable answer → known outcome (path 'direct');
 *  4. timeout / reset after sending / 5xx / HTML / unreadable 2xx → `reconcilePurchase`.
 */
import { randomBytes } from 'node:crypto';
import { VtuBadResponseError, VtuError, VtuNetworkError, VtuNotChargedError, VtuServerError } from '../errors';
import type { RawResponse } from '../http';
import type { PreparedPurchase, ProductModule } from '../products/common';
import type { PurchaseRequest, PurchaseResult, ResultPath } from '../types';
import { learnOffset } from './clock';
import { claim, matchKey, refOf } from './claims';
import type { PurchaseContext } from './context';
import { reconcilePurchase } from './reconcile';

function describeAmbiguity(e: unknown, res?: RawResponse): string {
	if (res) return `HTTP ${res.status}`;
	if (e instanceof VtuError) return String((e.details as { kind?: string } | undefined)?.kind ?? e.code);
	return 'an unknown failure';
}

export interface ExecuteOptions {
	/** The request as the caller gave it (an unknown_outcome carries it, to be resolved later). */
	request: PurchaseRequest;
	signal?: AbortSignal;
	retryIfNotCharged?: boolean;
	/** The caller's customer_ref for this purchase (already validated); else a fresh one when opted in. */
	customerRef?: string;
	/** Custom 2xx parser (SMS); `at`: when the POST was sent and its answer received (our clock). */
	parse?: (
		json: unknown,
		path: ResultPath,
		at: { sentAt: number; receivedAt: number },
	) => Promise<PurchaseResult> | PurchaseResult;
}

/** A fresh client reference per POST (opt-in): 16 URL-safe characters. */
export function newCustomerRef(): string {
	return randomBytes(12).toString('base64url');
}

async function attemptOnce(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	json: string,
	opts: ExecuteOptions,
	path: ResultPath,
): Promise<PurchaseResult> {
	const ref = opts.customerRef ?? (ctx.customerRef ? newCustomerRef() : undefined);
	const body = ref ? { ...prep.body, customer_ref: ref } : prep.body;
	const sentAt = ctx.http.now();
	let res: RawResponse | undefined;
	let failure: unknown;
	try {
		res = await ctx.http.send('POST', prep.path, {
			body,
			json: ref ? JSON.stringify(body) : json,
			signal: opts.signal,
		});
	} catch (e) {
		if (e instanceof VtuNetworkError && e.mayHaveReachedServer === false) throw e; // provably never sent
		if (!(e instanceof VtuNetworkError)) throw e;
		failure = e;
	}
	if (res) {
		if (res.status >= 200 && res.status < 300) {
			try {
				const json = ctx.http.parse('POST', prep.path, res);
				const r = opts.parse
					? await opts.parse(json, path, { sentAt, receivedAt: res.receivedAt })
					: module.parse(json, path);
				if (r.product !== 'sms') learnOffset(ctx, r.createdAt, sentAt, res.receivedAt);
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
	// the site itself answered (its 500 page, an unreadable 2xx): the request had ended, so its record, if
	// any, was created before the answer arrived; a gateway's 502-504, a timeout or a reset prove no such end
	const answeredAt =
		res && (res.status === 500 || (res.status >= 200 && res.status < 300)) ? res.receivedAt : undefined;
	const r = await reconcilePurchase(ctx, module, prep, {
		request: opts.request,
		sentAt,
		answeredAt,
		ref: ref ?? null,
		signal: opts.signal,
		cause: describeAmbiguity(failure, res),
	});
	return path === 'retried' ? { ...r, path } : r;
}

/** A direct answer tells whether the site stores customer_ref (said once, when it does not). */
function noteRefEcho(ctx: PurchaseContext, r: PurchaseResult, ref: string): void {
	if (refOf(r) === ref) ctx.account.refEcho = true;
	else if (ctx.account.refEcho === undefined) {
		ctx.account.refEcho = false;
		ctx.logger?.warn?.(
			`${r.product}: the site does not echo customer_ref; ownership of reconciled records falls back to the other rules`,
		);
	}
}

/** The ONE safe-purchase entry point. `prep` must come from the product's `prepare` (already validated). */
export async function executePurchase(
	ctx: PurchaseContext,
	module: ProductModule,
	prep: PreparedPurchase,
	opts: ExecuteOptions,
): Promise<PurchaseResult> {
	const json = JSON.stringify(prep.body);
	const key = matchKey(prep);
	const inflight = ctx.account.inflight;
	inflight.set(key, (inflight.get(key) ?? 0) + 1);
	ctx.account.begun = (ctx.account.begun ?? 0) + 1;
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
