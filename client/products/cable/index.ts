/** Cable TV subscriptions: POST /api/cablesub/ after the IUC is validated. */
import { defineProduct } from '../define';
import { cableCatalog } from './catalog';
import { cableProduct } from './module';
import { CABLE_SPEC } from './spec';

export const cable = defineProduct({
	spec: CABLE_SPEC,
	module: cableProduct,
	catalog: cableCatalog,
	prices: (c) =>
		c.cable.flatMap((p) =>
			p.packages.map((k) => ({
				product: 'cable',
				provider: p.name,
				providerId: p.id,
				id: k.id,
				name: k.name,
				price: k.price.naira,
			})),
		),
});
