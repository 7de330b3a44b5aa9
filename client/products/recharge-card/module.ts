import { money } from '../../money';
import { resolveNetwork, recordParser, text, type ProductModule, pinOrderMoney } from '../common';
import { productModule } from '../define';
import { pick } from '../pick';
import { parseCards, pinOrder, samePinOrder } from '../pin-order';
import { RECHARGE_CARD_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface RechargeCardPurchase {
	product: 'recharge_card';
	network: string | number;
	denomination: number;
	quantity: number;
	nameOnCard?: string;
}

const { fields: F, limits: L, path: PATH } = RECHARGE_CARD_SPEC;

export const rechargeProduct: ProductModule<RechargeCardPurchase> = productModule(RECHARGE_CARD_SPEC, {
	hasDetail: false,
	prepare(req, idx) {
		const net = resolveNetwork(idx, req.network);
		const d = pick(idx, 'recharge_card', req.denomination, net);
		const { quantity, name } = pinOrder(req, idx, L, 'the name printed on the cards, e.g. "Ade Stores"');
		const body = {
			[F.network.wire]: net.id,
			[F.denomination.wire]: d.id,
			[F.quantity.wire]: quantity,
			[F.nameOnCard.wire]: name,
		};
		return {
			product: 'recharge_card',
			path: PATH,
			body,
			quote: {
				product: 'recharge_card',
				recipient: name || String(net.name),
				amount: money(d.price.kobo * quantity),
				description: `${quantity} × ${d.label}`,
				request: body,
			},
			match: samePinOrder('denomination', d.id, quantity, net),
		};
	},
	parse: recordParser('recharge_card', (o) => {
		return {
			...pinOrderMoney(o),
			recipient: text(o.name_on_card) || text(o.network_name) || null,
			details: {
				cards: parseCards(o.data_pin),
				network: text(o.network_name) || o.network,
				networkId: Number(o.network) || o.network,
				denomination: Number(o.network_amount) || o.network_amount,
				quantity: Number(o.quantity) || 0,
				nameOnCard: text(o.name_on_card),
			},
		};
	}),
});
