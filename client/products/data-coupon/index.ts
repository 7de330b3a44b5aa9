/** Data coupons: printable pins that load a data plan, bought from the VTU Data node (Buy Coupon). */
import { planJson } from '../data';
import { defineProduct } from '../define';
import { dataCouponProduct } from './module';
import { DATA_COUPON_SPEC } from './spec';

export const dataCoupon = defineProduct({
	spec: DATA_COUPON_SPEC,
	module: dataCouponProduct,
	// a coupon loads a data plan and costs what the plan costs: one row per plan, priced per coupon
	prices: (c) =>
		c.networks.flatMap((n) =>
			n.plans.map((p) => ({ product: 'data_coupon', ...planJson(p), network: String(n.name), networkId: n.id })),
		),
});
