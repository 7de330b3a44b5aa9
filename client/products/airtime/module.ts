import type { AmountInput } from '../../types';
import { formatNaira, money, nairaText, parsePlainNaira, percentOf } from '../../money';
import { tryNormalizePhone } from '../../phone';
import { canonicalNetwork } from '../../schemas/catalog';
import {
	firstMoney,
	recordMoney,
	invalid,
	optionalBoolean,
	sameFaceValue,
	resolveNetwork,
	recordParser,
	text,
	type ProductModule,
} from '../common';
import { productModule } from '../define';
import { shown } from '../../errors';
import { checkPhoneNetwork } from '../data/module';
import { AIRTIME_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface AirtimePurchase {
	product: 'airtime';
	network: string | number;
	amount: AmountInput;
	phone: string;
	type?: 'VTU' | 'Share and Sell';
	ported?: boolean;
}

const { fields: F, limits: L } = AIRTIME_SPEC;

function airtimeType(t: unknown): 'VTU' | 'Share and Sell' {
	if (t === undefined || t === null || t === '') return 'VTU';
	const s =
		typeof t === 'string'
			? t
					.trim()
					.toLowerCase()
					.replace(/[\s_-]+/g, ' ')
			: null;
	if (s === 'vtu') return 'VTU';
	if (s === 'share and sell' || s === 'share & sell' || s === 'sns' || s === 'share n sell') return 'Share and Sell';
	throw invalid('type', `type must be "VTU" or "Share and Sell"; got ${shown(t)}.`);
}

export const airtimeProduct: ProductModule<AirtimePurchase> = productModule(AIRTIME_SPEC, {
	hasDetail: true,
	prepare(req, idx) {
		const net = resolveNetwork(idx, req.network);
		const type = airtimeType(req.type);
		const kobo = parsePlainNaira(req.amount, 'amount');
		const min = L.minKobo[type];
		if (kobo < min)
			throw invalid('amount', `amount ${nairaText(kobo)} is below the ${type} minimum of ${nairaText(min)}.`, {
				minKobo: min,
			});
		if (kobo > L.maxKobo)
			throw invalid(
				'amount',
				`amount ${nairaText(kobo)} is above the maximum of ${nairaText(L.maxKobo)} per top-up; split it.`,
				{ maxKobo: L.maxKobo },
			);
		const ported = optionalBoolean(req.ported, 'ported');
		const phone = checkPhoneNetwork(req.phone, net, ported);
		const disc = idx.catalog.airtime.find((a) => canonicalNetwork(a.network) === canonicalNetwork(net.name));
		const pct = disc ? (type === 'VTU' ? disc.vtuPercent : disc.shareAndSellPercent) : '100';
		const cost = percentOf(kobo, pct);
		const body = {
			[F.network.wire]: net.id,
			[F.amount.wire]: Number(formatNaira(kobo)),
			[F.phone.wire]: phone,
			[F.ported.wire]: ported,
			[F.type.wire]: type,
		};
		return {
			product: 'airtime',
			path: AIRTIME_SPEC.path,
			body,
			quote: {
				product: 'airtime',
				recipient: phone,
				amount: money(cost),
				description: `${nairaText(kobo)} ${net.name} ${type} airtime to ${phone} (you pay ${pct}%: ${nairaText(cost)})`,
				request: body,
			},
			match: sameFaceValue(phone, kobo),
		};
	},
	parse: recordParser('airtime', (o) => {
		const face = firstMoney(o.amount, o.plan_amount);
		return {
			...recordMoney(o, firstMoney(o.paid_amount), face),
			recipient: tryNormalizePhone(o.mobile_number) ?? (text(o.mobile_number) || null),
			details: {
				faceValue: face,
				type: text(o.airtime_type) || 'VTU',
				network: text(o.plan_network) || o.network,
				...(o.customer_name ? { customerName: text(o.customer_name) } : {}),
			},
		};
	}),
});
