/**
 * Data coupons: `POST /api/data_pin/` (`/api/datarechargepin/` on husmodata builds) with the network by
 * name, a data plan id, a quantity and the name printed on the cards. The answer carries the pins as
 * `data_pin` rows, like a recharge card order. The route a site serves is learned on the first purchase
 * (a 404 or 405 from a route the build lacks proves no view ran, so nothing was made) and remembered.
 */
import { money } from '../../money';
import { executePurchase } from '../../purchase';
import { learnSiteFact, siteFact } from '../../site';
import { VtuNotFoundError, type VtuError } from '../../errors';
import type { BuyOptions, PurchaseResult } from '../../types';
import {
	invalid,
	resolveNetwork,
	recordParser,
	text,
	type ProductModule,
	type PurchaseEnv,
	routeFact,
	pinOrderMoney,
} from '../common';
import { productModule } from '../define';
import { parseCards, pinOrder, samePinOrder } from '../pin-order';
import { pick } from '../pick';
import { DATA_COUPON_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface DataCouponPurchase {
	product: 'data_coupon';
	network: string | number;
	/** A data plan id of the network (client.catalog.dataPlans(network)). */
	plan: number;
	quantity: number;
	nameOnCard?: string;
}

const { fields: F, limits: L, path: PATH } = DATA_COUPON_SPEC;
const ROUTE_FACT = routeFact('data_coupon');

export const dataCouponProduct: ProductModule<DataCouponPurchase> = productModule(DATA_COUPON_SPEC, {
	hasDetail: false,
	prepare(req, idx, settings) {
		const net = resolveNetwork(idx, req.network);
		const plan = pick(idx, 'data_coupon', req.plan, net);
		if (!plan.available) throw invalid('plan', `plan ${plan.id} (${plan.label}) is not available now; pick another.`);
		const { quantity, name } = pinOrder(req, idx, L, 'the name printed on the coupons');
		const body = {
			[F.network.wire]: String(net.name),
			[F.plan.wire]: plan.id,
			[F.quantity.wire]: quantity,
			[F.nameOnCard.wire]: name,
		};
		return {
			product: 'data_coupon',
			path: siteFact<string>(settings.baseUrl, ROUTE_FACT) ?? PATH,
			body,
			quote: {
				product: 'data_coupon',
				recipient: name,
				amount: money(plan.price.kobo * quantity),
				description: `${quantity} × ${net.name} ${plan.size} ${plan.kind} data coupon`,
				request: body,
			},
			match: samePinOrder('plan', plan.id, quantity, net),
		};
	},
	parse: recordParser('data_coupon', (o) => {
		return {
			...pinOrderMoney(o),
			recipient: text(o.name_on_card) || null,
			details: {
				cards: parseCards(o.data_pin),
				network: text(o.network_name) || text(o.network),
				plan: Number(o.data_plan) || o.data_plan,
				planName: text(o.plan_name),
				quantity: Number(o.quantity) || 0,
				nameOnCard: text(o.name_on_card),
			},
		};
	}),
	send: (env, req, opts) => sendCoupons(env, req, opts),
});

/**
 * A build without the route: Django's own 404 page, or an empty 404 (the URL matched no view, so nothing was
 * made). A JSON 404 comes from a view that ran (DRF's {"detail": "Not found."}): no reason to try another.
 */
function noSuchRoute(e: unknown): boolean {
	const answer = (e as VtuError).details?.answer;
	return e instanceof VtuNotFoundError && (answer === 'html' || answer === 'empty');
}

/** The site's route first (learned, else /api/data_pin/), then the other builds' on a missing route. */
async function sendCoupons(env: PurchaseEnv, req: DataCouponPurchase, opts: BuyOptions): Promise<PurchaseResult[]> {
	const { ctx } = env;
	const prep = dataCouponProduct.prepare(req, await env.index(), ctx.settings);
	const routes = [prep.path, ...[PATH, ...DATA_COUPON_SPEC.routes].filter((r) => r !== prep.path)];
	for (let i = 0; ; i++) {
		const path = routes[i];
		try {
			// reconciliation reads the records of the route the purchase went to
			const r = await executePurchase(
				ctx,
				{ ...dataCouponProduct, path },
				{ ...prep, path },
				{
					request: req,
					signal: opts.signal,
					retryIfNotCharged: opts.retryIfNotCharged,
					customerRef: opts.customerRef,
				},
			);
			learnSiteFact(ctx.settings.baseUrl, ROUTE_FACT, path);
			return [r];
		} catch (e) {
			if (!noSuchRoute(e) || i === routes.length - 1) throw e;
			ctx.logger?.info?.(`data_coupon: the site has no ${path}; trying ${routes[i + 1]}`);
		}
	}
}
