/** Printable recharge cards: POST /api/rechargepin/ with a denomination row id and a quantity. */
import { defineProduct } from '../define';
import { rechargeCatalog } from './catalog';
import { rechargeProduct } from './module';
import { RECHARGE_CARD_SPEC } from './spec';

export const rechargeCard = defineProduct({
	spec: RECHARGE_CARD_SPEC,
	module: rechargeProduct,
	catalog: rechargeCatalog,
	prices: (c) =>
		c.recharge.map((r) => ({
			product: 'recharge_card',
			network: r.network,
			networkId: r.networkId,
			id: r.id,
			name: r.label,
			faceValue: r.faceValue.naira,
			price: r.price.naira,
		})),
});
