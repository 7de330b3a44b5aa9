/**
 * Sending a bulk SMS purchase: one POST per batch of recipients, each with the purchase's safety (one POST,
 * reconciled on an unclear outcome, never twice). Where the site publishes no rate, the first batch's wallet
 * change teaches the route's rate (rate.ts) and the rest are priced at it.
 */
import { VtuError, VtuInvalidInputError } from '../../errors';
import type { HttpCore } from '../../http';
import { attributeSend, executePurchase } from '../../purchase';
import type { BuyOptions, Page, PurchaseResult, SmsBatch, SmsPlan } from '../../types';
import { money } from '../../money';
import { isRecord } from '../../util';
import type { PurchaseEnv } from '../common';
import { prepareSmsBatch, smsProduct, type SmsPurchase } from './module';
import { parseSmsBatch, parseSmsSend, planSms } from './plan';
import { learnSmsRate, type LearningWindow, needsLearning, openLearningWindow, repriced } from './rate';

export async function sendSms(
	env: PurchaseEnv,
	req: SmsPurchase,
	opts: BuyOptions,
	batchSize: number,
): Promise<PurchaseResult[]> {
	const { ctx } = env;
	const idx = await env.index();
	const rates = () => ctx.settings.smsRates(idx);
	let plan = planSms(req, rates(), batchSize);
	// one reference names one POST: a caller's ref cannot stand for several batches
	if (opts.customerRef !== undefined && plan.batches.length > 1)
		throw new VtuInvalidInputError(
			`customerRef names one POST, but this send needs ${plan.batches.length} batches: ` +
				`send without customerRef, or send the recipients in batches of at most ${batchSize}.`,
			{ field: 'customerRef' },
		);
	const out: PurchaseResult[] = [];
	// no better rate than the assumption: the first batch's wallet change teaches the site's (rate.ts)
	let window = needsLearning(rates(), plan.dnd) ? openLearningWindow(ctx.settings.baseUrl) : null;
	try {
		const quiet = activity(env); // before the first wallet read: what else this process buys meanwhile
		const before = window ? await env.walletKobo() : null;
		for (const batch of plan.batches) {
			const sent = await sendBatch(env, plan, batch, opts);
			let r = sent.result;
			if (window) {
				const charged = await learnFromBatch(env, plan, batch, { before, quiet }, r, window);
				window.close();
				window = null;
				if (charged !== null) plan = repriced(plan, rates());
				// no record named the send, so its amount is the plan's at the assumed rate: the wallet showed the charge
				if (charged !== null && !sent.named) r = { ...r, amount: money(charged) };
			}
			out.push(r);
		}
	} finally {
		window?.close();
	}
	return out;
}

/** One batch's POST; `named`: its amount is a record's (the answer's, or the history row attributed to it). */
async function sendBatch(
	env: PurchaseEnv,
	plan: SmsPlan,
	batch: string[],
	opts: BuyOptions,
): Promise<{ result: PurchaseResult; named: boolean }> {
	const { ctx } = env;
	const prep = prepareSmsBatch(plan, batch);
	let named = true;
	const result = await executePurchase(ctx, smsProduct, prep, {
		request: { product: 'sms', sender: plan.sender, message: plan.message, recipients: batch, dnd: plan.dnd },
		signal: opts.signal,
		retryIfNotCharged: opts.retryIfNotCharged,
		customerRef: opts.customerRef,
		parse: async (json, path, at) => {
			const { result, needsEnrichment } = parseSmsSend(json, plan, batch, prep.quote.amount, path);
			if (!needsEnrichment) return result;
			// the site said sent without naming the record: name it only with proof (client/purchase/attribute.ts)
			const r = await attributeSend(ctx, smsProduct, prep, result, at, opts.signal);
			named = r.ident !== null || r.id !== null;
			return r;
		},
	});
	return { result, named };
}

/** This process's purchases on the account: how many it has begun, and whether one is in flight. */
function activity(env: PurchaseEnv): { begun: number; busy: boolean } {
	const a = env.ctx.account;
	return { begun: a.begun ?? 0, busy: [...a.inflight.values()].some((n) => n > 0) };
}

/**
 * Learn the route's rate from the batch's own balances, else from the wallet read before and after it, which
 * only this batch may have moved: no other send of this process overlapped (the window), and no other purchase
 * of this process (a storefront's other customers) was in flight or began meanwhile. Returns what the batch
 * was charged (kobo) when a rate was learned, else null.
 */
async function learnFromBatch(
	env: PurchaseEnv,
	plan: SmsPlan,
	batch: string[],
	at: { before: number | null; quiet: { begun: number; busy: boolean } },
	r: PurchaseResult,
	window: LearningWindow,
): Promise<number | null> {
	const units = batch.length * plan.pages;
	const own = r.balanceBefore && r.balanceAfter ? [r.balanceBefore.kobo, r.balanceAfter.kobo] : null;
	const after = own ? own[1] : at.before === null ? null : await env.walletKobo();
	const from = own ? own[0] : at.before;
	const now = activity(env);
	const alone = !at.quiet.busy && !now.busy && now.begun - at.quiet.begun === 1;
	// the batch's own balances are its alone; wallet reads only when nothing else of this process moved the wallet
	if (from === null || after === null || (!own && (window.overlapped || !alone))) return null;
	const rate = learnSmsRate(env.ctx.settings.baseUrl, plan.dnd, units, from, after);
	if (rate === null)
		env.ctx.logger?.info?.(
			"sms: the first batch's wallet change shows no clear per-page rate; quotes keep the assumed rate",
		);
	return rate === null ? null : rate * units;
}

/** The account's SMS history, newest first: /api/sendsms/, else the legacy /api/sms/. */
export async function smsHistory(http: HttpCore, page?: number): Promise<Page<SmsBatch>> {
	const query: Record<string, string> = {};
	if (page && page > 1) query.page = String(page);
	let body: unknown;
	try {
		body = await http.get('/api/sendsms/', { query });
	} catch (e) {
		if (!(e instanceof VtuError) || !(e.code === 'not_found' || e.httpStatus === 405)) throw e;
		body = await http.get('/api/sms/', { query });
	}
	const rows = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.results) ? body.results : null;
	if (!rows) throw new VtuInvalidInputError('unreachable');
	const items = rows.map(parseSmsBatch).filter((x): x is SmsBatch => x !== null);
	const next = isRecord(body) && body.next ? Number(/[?&]page=(\d+)/.exec(String(body.next))?.[1] ?? NaN) : NaN;
	return {
		count: isRecord(body) && typeof body.count === 'number' ? body.count : null,
		next: Number.isFinite(next) ? next : null,
		items,
	};
}
