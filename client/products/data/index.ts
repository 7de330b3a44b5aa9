/** Data bundles: POST /api/data/ with a plan id from the networks' plan lists. */
import { defineProduct } from '../define';
import { dataProduct } from './module';
import { DATA_SPEC } from './spec';

export const data = defineProduct({
	spec: DATA_SPEC,
	module: dataProduct,
	prices: (c) =>
		c.networks.flatMap((n) =>
			n.plans.map((p) => ({
				product: 'data',
				id: p.id,
				network: n.name,
				networkId: n.id,
				size: p.size,
				kind: p.kind,
				price: p.price.naira,
				validity: p.validity,
				available: p.available,
				label: p.label,
				name: `${p.size} ${p.kind}`,
			})),
		),
});
