/** The recharge card denominations: the seed's /api/get/recharge/ or the `recharge` of /api/user/. */
import { money, nairaText, tryParseKobo } from '../../money';
import { CatalogShapeError, canonicalNetwork, DEFAULT_NETWORK_IDS } from '../../schemas/catalog';
import { zId } from '../../schemas/common';
import type { RechargeDenomination } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';

export const rechargeCatalog = catalogSection({
	key: 'recharge',
	name: 'recharge',
	routes: ['/api/get/recharge/'],
	remember: false,
	legacy: (root) => root.recharge,
	parse: (body, { networks }) => parseRecharge(body, new Map(networks.map((n) => [String(n.name), n.id]))),
	fallback: [],
});

/** {mtn_pin:[...], glo_pin:[...]} (legacy `recharge`) | [{id, network, amount, amount_to_pay}] */
export function parseRecharge(body: unknown, networkIdByName: Map<string, number>): RechargeDenomination[] {
	if (isRecord(body) && (isRecord(body.recharge) || Array.isArray(body.recharge))) body = body.recharge;
	if (isRecord(body) && Array.isArray(body.denominations)) body = body.denominations;
	const rows: Array<[string | null, unknown]> = [];
	if (Array.isArray(body)) for (const r of body) rows.push([null, r]);
	else if (isRecord(body)) {
		for (const [key, val] of Object.entries(body)) {
			if (!Array.isArray(val)) continue;
			const net = canonicalNetwork(key.replace(/_?pins?$/i, ''));
			for (const r of val) rows.push([net, r]);
		}
	} else throw new CatalogShapeError('recharge denominations have an unknown shape');
	const out: RechargeDenomination[] = [];
	for (const [netKey, r] of rows) {
		if (!isRecord(r)) continue;
		const id = zId.safeParse(r.id);
		if (!id.success) continue;
		const netIdP = zId.safeParse(r.network_id ?? r.network);
		let network = canonicalNetwork(r.network_name ?? (netIdP.success ? '' : r.network) ?? netKey ?? '');
		if (!network && netKey) network = netKey;
		let networkId = networkIdByName.get(network) ?? DEFAULT_NETWORK_IDS[network];
		if (netIdP.success) {
			networkId = netIdP.data;
			if (!network) network = [...networkIdByName.entries()].find(([, v]) => v === netIdP.data)?.[0] ?? '';
		}
		if (networkId === undefined) continue;
		const face = tryParseKobo(r.amount ?? r.face_value ?? r.denomination);
		const price = tryParseKobo(r.amount_to_pay ?? r.price ?? r.amount);
		if (face === null || price === null) continue;
		out.push({
			id: id.data,
			network,
			networkId,
			faceValue: money(face),
			price: money(price),
			label: `${network} ${nairaText(face)} card (${nairaText(price)})`,
		});
	}
	return out;
}
