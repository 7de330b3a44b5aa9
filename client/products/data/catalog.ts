/**
 * The data plans section of the catalogue: /api/get/network/ (newer builds), /api/network/ (older ones, what
 * MSORG's app reads) or the `Dataplans` of /api/user/. Every other section's networks come from it, so it
 * is read first and must answer (client/catalog.ts).
 */
import { z } from 'zod';
import { money, nairaText, tryParseKobo } from '../../money';
import { CatalogShapeError, canonicalNetwork, DEFAULT_NETWORK_IDS } from '../../schemas/catalog';
import { zId } from '../../schemas/common';
import type { DataPlan, NetworkInfo } from '../../types';
import { isRecord } from '../../util';

/** Its routes, newest first; the one that answers is remembered per site. */
export const NETWORK_ROUTES = ['/api/get/network/', '/api/network/'] as const;

/** The section in the legacy /api/user/ payload. */
export const legacyNetworks = (root: Record<string, unknown>): unknown => root.Dataplans;

function kindOf(t: unknown): string {
	const s = String(t ?? '')
		.trim()
		.toUpperCase()
		.replace(/\s+/g, ' ');
	if (s === 'CG' || s === 'CORPORATE' || s === 'CORPORATE GIFTING' || s === 'CORPORATE_GIFTING')
		return 'CORPORATE GIFTING';
	if (s === 'DATA SHARE' || s === 'DATASHARE' || s === 'DATA_SHARE' || s === 'SHARE') return 'DATA SHARE';
	if (s === 'AWOOF' || s === 'AWUF') return 'AWOOF';
	return s || 'SME';
}

function sizeOf(size: unknown, vol: unknown): string {
	let s = String(size ?? '').trim();
	s = s.replace(/^(\d+)\.0+(?=[A-Za-z]|$)/, '$1'); // 1.0 / "1.0GB" (the older forms) → 1 / 1GB
	const v = String(vol ?? '').trim();
	if (s && v && !s.toUpperCase().endsWith(v.toUpperCase())) return s + v;
	return s || v;
}

/** Column holding the caller's price, per user type. */
export function priceColumn(userType: string): string | null {
	const u = userType.trim().toLowerCase().replace(/\s+/g, '');
	if (u === 'api') return 'api_price';
	if (u === 'affilliate' || u === 'affiliate') return 'Affilliate_price';
	if (u === 'topuser') return 'TopUser_price';
	return null;
}

const zPlanRow = z
	.object({
		id: zId,
		network_id: zId.optional(),
		network: z.unknown().optional(),
		plan_size: z.unknown().optional(),
		plan_Volume: z.unknown().optional(),
		plan: z.unknown().optional(),
		plan_amount: z.unknown().optional(),
		plan_type: z.unknown().optional(),
		month_validate: z.unknown().optional(),
		available: z.unknown().optional(),
	})
	.passthrough();

export function planLabel(size: string, kind: string, priceKobo: number, validity: string): string {
	return `${size} ${kind} ${nairaText(priceKobo)}${validity ? ` (${validity})` : ''}`;
}

/**
 * The plan rows of one network entry: `{network_info, data_plans}` (/api/get/network/), a bare list
 * (`MTN_PLAN: [...]`, /api/network/) or the lists by kind with `ALL` (`Dataplans.MTN_PLAN`, /api/user/).
 */
function planRows(val: unknown): unknown[] | null {
	if (Array.isArray(val)) return val;
	if (!isRecord(val)) return null;
	if (Array.isArray(val.data_plans)) return val.data_plans;
	if (Array.isArray(val.plans)) return val.plans;
	if (Array.isArray(val.ALL)) return val.ALL;
	return isRecord(val.network_info) ? [] : null;
}

/** /api/get/network/, /api/network/ or the legacy `Dataplans` (see planRows) → networks with their plans. */
export function parseNetworks(body: unknown, userType: string): NetworkInfo[] {
	if (!isRecord(body)) throw new CatalogShapeError('the data plan catalogue is not an object');
	const col = priceColumn(userType);
	const out: NetworkInfo[] = [];
	for (const [key, val] of Object.entries(body)) {
		const rows = planRows(val);
		if (!rows) continue;
		const info = isRecord(val) && isRecord(val.network_info) ? val.network_info : {};
		const name = canonicalNetwork(info.name ?? key);
		// the older forms carry the network's id only on each row (`network`)
		const first = rows.find(isRecord);
		const idP = zId.safeParse(info.id ?? info.network_id ?? first?.network_id ?? first?.network);
		const networkId = idP.success ? idP.data : DEFAULT_NETWORK_IDS[name];
		if (networkId === undefined) {
			if (!isRecord(val) || val.network_info !== undefined) throw new CatalogShapeError(`network ${key} has no id`);
			continue; // a key of the older forms that is not a network
		}
		const plans: DataPlan[] = [];
		for (const r of rows) {
			const p = zPlanRow.safeParse(r);
			if (!p.success) continue;
			const row = p.data as Record<string, unknown>;
			let priceKobo: number | null = null;
			if (col && row[col] !== undefined && row[col] !== null && row[col] !== '') priceKobo = tryParseKobo(row[col]);
			if (priceKobo === null) priceKobo = tryParseKobo(row.plan_amount ?? row.amount ?? row.price);
			if (priceKobo === null) continue;
			const size = sizeOf(row.plan_size ?? row.plan, row.plan_Volume);
			const kind = kindOf(row.plan_type);
			const validityRaw = String(row.month_validate ?? row.validity ?? '').trim();
			const available = !/NOT\s*AVAILABLE/i.test(validityRaw) && row.available !== false && row.available !== 'false';
			const validity = validityRaw.replace(/\(?\s*NOT\s*AVAILABLE\s*\)?/i, '').trim();
			plans.push({
				id: p.data.id,
				networkId: p.data.network_id ?? networkId,
				network: name,
				size,
				kind,
				validity,
				price: money(priceKobo),
				available,
				label: planLabel(size, kind, priceKobo, validity) + (available ? '' : ' [not available]'),
			});
		}
		out.push({ id: networkId, name, plans });
	}
	return out;
}
