/**
 * Bulk SMS as a product: a purchase is a batch of POSTs (send.ts), each of at most the client's batch size;
 * `prepare` prices and builds one POST for every recipient (a quote, a reconcile, client.buy). List rows are
 * history entries.
 */
import { VtuBadResponseError } from '../../errors';
import type { PurchaseResult, SmsPlan } from '../../types';
import { money } from '../../money';
import type { PreparedPurchase, ProductModule } from '../common';
import { productModule } from '../define';
import { batchToResult, parseSmsBatch, planSms, smsBody } from './plan';
import { sendSms } from './send';
import { SMS_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface SmsPurchase {
	product: 'sms';
	sender: string;
	message: string;
	recipients: string | string[];
	dnd?: boolean;
}

export const smsProduct: ProductModule<SmsPurchase> = productModule(SMS_SPEC, {
	hasDetail: false,
	prepare(req, idx, settings) {
		const plan = planSms(req, settings.smsRates(idx), Number.MAX_SAFE_INTEGER);
		return prepareSmsBatch(plan, plan.recipients);
	},
	send: (env, req, opts, batchSize) => sendSms(env, req, opts, batchSize),
	parse(raw, path): PurchaseResult {
		const b = parseSmsBatch(raw);
		if (!b) throw new VtuBadResponseError('An SMS history row has an unexpected shape.');
		return batchToResult(b, raw, path);
	},
});

export function sameSet(a: string[], b: string[]): boolean {
	if (a.length !== b.length) return false;
	const s = new Set(a);
	return b.every((x) => s.has(x));
}

/** One batch's POST; its quote prices it at the plan's rate and says where that rate came from. */
export function prepareSmsBatch(plan: SmsPlan, batch: string[], ratePerPageKobo = plan.rate.kobo): PreparedPurchase {
	const body = smsBody(plan, batch);
	const cost = money(batch.length * plan.pages * ratePerPageKobo);
	return {
		product: 'sms',
		path: SMS_SPEC.path,
		body,
		quote: {
			product: 'sms',
			recipient: batch.join(','),
			amount: cost,
			description:
				`${plan.pages}-page SMS from ${plan.sender} to ${batch.length} ` +
				`number${batch.length > 1 ? 's' : ''}${plan.dnd ? ' (DND route)' : ''}`,
			request: body,
			rateSource: plan.rateSource,
			rateNote: plan.rateNote,
		},
		match: {
			recipient: null,
			search: null,
			test: (r) =>
				r.details.sender === plan.sender &&
				r.details.message === plan.message &&
				sameSet(r.details.recipients as string[], batch),
			key: `sms|${plan.sender}|${[...batch].sort().join(',')}|${cost.kobo}|${plan.message}`,
		},
	};
}
