import type { CatalogIndex } from '../../catalog';
import { parseMobile } from '../../input';
import type { CableProvider } from '../../types';
import {
	firstMoney,
	recordMoney,
	requireDigits,
	resolveChoice,
	recordParser,
	text,
	type ProductModule,
} from '../common';
import { productModule } from '../define';
import { pick } from '../pick';
import { CABLE_SPEC } from './spec';

/** What a caller passes to buy or quote this product (`product` names it). */
export interface CablePurchase {
	product: 'cable';
	provider: string | number;
	package: number;
	iuc: string;
	phone?: string;
}

const { fields: F, limits: L, path: PATH } = CABLE_SPEC;

export function resolveProvider(idx: CatalogIndex, provider: unknown): CableProvider {
	return resolveChoice(idx.cables, provider, 'provider', 'a cable TV provider');
}

export function checkIuc(v: unknown): string {
	return requireDigits(v, 'iuc', 'IUC / smart card number', L.iucDigits.min, L.iucDigits.max);
}

export const cableProduct: ProductModule<CablePurchase> = productModule(CABLE_SPEC, {
	hasDetail: true,
	prepare(req, idx) {
		const prov = resolveProvider(idx, req.provider);
		const pkg = pick(idx, 'cable', req.package, prov);
		const iuc = checkIuc(req.iuc);
		if (req.phone !== undefined && req.phone !== '') parseMobile(req.phone, 'phone');
		const body = { [F.provider.wire]: prov.id, [F.package.wire]: pkg.id, [F.iuc.wire]: iuc };
		return {
			product: 'cable',
			path: PATH,
			body,
			quote: {
				product: 'cable',
				recipient: iuc,
				amount: pkg.price,
				description: `${pkg.label} for IUC ${iuc}`,
				request: body,
			},
			match: { recipient: iuc, search: iuc, test: (r) => Number(r.details.package) === pkg.id },
		};
	},
	parse: recordParser('cable', (o) => {
		return {
			...recordMoney(o, firstMoney(o.paid_amount, o.plan_amount, o.amount)),
			recipient: text(o.smart_card_number) || null,
			details: {
				package: typeof o.cableplan === 'number' ? o.cableplan : Number(o.cableplan) || o.cableplan,
				packageName: text(o.package),
				provider: o.cablename,
				customerName: text(o.customer_name),
			},
		};
	}),
});
