/** Data bundles: POST /api/data/ with a plan id from the networks' plan lists. */
import { nairaText } from '../../money';
import type { DataPlan } from '../../types';
import { defineProduct } from '../define';
import { dataProduct } from './module';
import { DATA_SPEC } from './spec';

/** "1GB SME · ₦250.00 · 30 days" — size, kind, price, validity (node dropdowns, price rows). */
export function planLabel(p: DataPlan): string {
	const parts = [`${p.size} ${p.kind}`.trim(), nairaText(p.price.kobo)];
	if (p.validity) parts.push(p.validity);
	let label = parts.join(' · ');
	if (!p.available) label += ' (not available)';
	return label;
}

/** A data plan as an output item (List Plans, Get Prices). */
export function planJson(p: DataPlan) {
	return {
		id: p.id,
		network: p.network,
		networkId: p.networkId,
		size: p.size,
		kind: p.kind,
		price: p.price.naira,
		validity: p.validity,
		available: p.available,
		label: planLabel(p),
	};
}

export const data = defineProduct({
	spec: DATA_SPEC,
	module: dataProduct,
	prices: (c) =>
		c.networks.flatMap((n) =>
			n.plans.map((p) => ({
				product: 'data',
				...planJson(p),
				network: String(n.name),
				networkId: n.id,
				name: `${p.size} ${p.kind}`,
			})),
		),
});
