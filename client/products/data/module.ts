import { tryNormalizePhone } from '../../phone';
import { parseMobile } from '../../input';
import {
	firstMoney,
	recordMoney,
	invalid,
	optionalBoolean,
	resolveNetwork,
	recordParser,
	text,
	type ProductModule,
} from '../common';
import { productModule } from '../define';
import { canonicalNetwork } from '../../schemas/catalog';
import type { CatalogIndex } from '../../catalog';
import type { NetworkInfo } from '../../types';
import { pick } from '../pick';
import { DATA_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface DataPurchase {
	product: 'data';
	network: string | number;
	plan: number;
	phone: string;
	ported?: boolean;
}

const { fields: F, path: PATH } = DATA_SPEC;

/**
 * Phone ↔ network check shared by data and airtime. The number must be a Nigerian mobile number (a known
 * mobile prefix, client/input.ts parseMobile: the same rule as SMS and the bot); `ported` only allows a
 * number whose prefix belongs to another network, since a ported number keeps its original prefix.
 */
export function checkPhoneNetwork(phoneIn: unknown, net: NetworkInfo, ported: boolean | undefined): string {
	const { phone, network: detected } = parseMobile(phoneIn, 'phone');
	const want = canonicalNetwork(net.name);
	if (!ported && detected !== want) {
		throw invalid(
			'phone',
			`phone ${phone} looks like a ${detected} number, not ${want}. Choose network ${detected}, or set ported: true if ` +
				`the number was ported to ${want}.`,
		);
	}
	return phone;
}

function dataDetails(o: Record<string, unknown>): Record<string, unknown> {
	const plan = typeof o.plan === 'number' ? o.plan : Number(o.plan) || o.plan;
	const planName = text(o.plan_name);
	const network = text(o.plan_network) || o.network;
	const ported = o.Ported_number === true || o.Ported_number === 'true';
	// same keys in the same order as before, without an object spread per record
	return o.plan_type
		? { plan, planName, network, planType: text(o.plan_type), ported }
		: { plan, planName, network, ported };
}

export const dataProduct: ProductModule<DataPurchase> = productModule(DATA_SPEC, {
	hasDetail: true,
	prepare(req, idx: CatalogIndex) {
		const net = resolveNetwork(idx, req.network);
		const plan = pick(idx, 'data', req.plan, net);
		if (!plan.available)
			throw invalid('plan', `plan ${plan.id} (${plan.label}) is marked not available by the site; pick another plan.`);
		const ported = optionalBoolean(req.ported, 'ported');
		const phone = checkPhoneNetwork(req.phone, net, ported);
		const body = { [F.network.wire]: net.id, [F.plan.wire]: plan.id, [F.phone.wire]: phone, [F.ported.wire]: ported };
		return {
			product: 'data',
			path: PATH,
			body,
			quote: {
				product: 'data',
				recipient: phone,
				amount: plan.price,
				description: `${plan.label} to ${phone}`,
				request: body,
			},
			// a method, not an arrow property: no per-purchase function naming under tsx/esbuild keepNames
			match: {
				recipient: phone,
				search: phone,
				test(r) {
					return Number(r.details.plan) === plan.id;
				},
			},
		};
	},
	parse: recordParser('data', (o) => {
		return {
			...recordMoney(o, firstMoney(o.plan_amount, o.paid_amount, o.amount)),
			recipient: tryNormalizePhone(o.mobile_number) ?? (text(o.mobile_number) || null),
			details: dataDetails(o),
		};
	}),
});
