/** The airtime percentages section: the seed's /api/get/airtime/ or the `topuppercentage` of /api/user/. */
import { percentString } from '../../money';
import { CatalogShapeError, canonicalNetwork } from '../../schemas/catalog';
import { zId } from '../../schemas/common';
import type { AirtimeDiscount } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';

export const airtimeCatalog = catalogSection({
	key: 'airtime',
	name: 'airtime',
	routes: ['/api/get/airtime/'],
	remember: false,
	legacy: (root) => root.topuppercentage,
	parse: (body, { networks }) => parseAirtime(body, new Map(networks.map((n) => [n.id, String(n.name)]))),
	fallback: [],
});

/** newer {MTN:{VTU, "Share and Sell"}} | older [{network, percent, percent_s}] */
export function parseAirtime(body: unknown, networkNameById: Map<number, string>): AirtimeDiscount[] {
	if (isRecord(body) && (Array.isArray(body.topuppercentage) || isRecord(body.topuppercentage)))
		body = body.topuppercentage;
	if (isRecord(body) && Array.isArray(body.networks)) body = body.networks;
	const out: AirtimeDiscount[] = [];
	const push = (net: unknown, vtu: unknown, sns: unknown) => {
		const v = percentString(vtu);
		const s = percentString(sns) ?? v;
		if (v === null || s === null) return;
		let name: string;
		const asId = zId.safeParse(net);
		if (asId.success && networkNameById.has(asId.data)) name = networkNameById.get(asId.data)!;
		else name = canonicalNetwork(net);
		out.push({ network: name, vtuPercent: v, shareAndSellPercent: s });
	};
	if (Array.isArray(body)) {
		for (const r of body) {
			if (!isRecord(r)) continue;
			push(
				r.network ?? r.network_name ?? r.name,
				r.percent ?? r.VTU ?? r.vtu,
				r.percent_s ?? r['Share and Sell'] ?? r.share_and_sell,
			);
		}
	} else if (isRecord(body)) {
		for (const [key, val] of Object.entries(body)) {
			if (isRecord(val))
				push(key, val.VTU ?? val.vtu ?? val.percent, val['Share and Sell'] ?? val.share_and_sell ?? val.percent_s);
			else push(key, val, val);
		}
	} else throw new CatalogShapeError('airtime percentages have an unknown shape');
	return out;
}
