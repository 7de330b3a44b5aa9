/**
 * Catalogue parsers: /api/get/network/, /api/get/cable/, /api/get/disco/, the seed's /api/get/exam/,
 * /api/get/airtime/, /api/get/sms/, /api/get/recharge/, and the legacy /api/user/ payload pieces
 * (Exam, topuppercentage, recharge, Cableplan). Lenient about shapes, strict about ids and prices.
 */
import { z } from 'zod';
import { money, nairaText, percentString, tryParseKobo } from '../money';
import type {
	AirtimeDiscount,
	CablePackage,
	CableProvider,
	DataPlan,
	Disco,
	ExamPrice,
	NetworkInfo,
	RechargeDenomination,
	SmsRates,
} from '../types';
import { isRecord } from '../util';
import { zId } from './common';
import { ASSUMED_SMS_RATES } from '../products/sms/rate';

export class CatalogShapeError extends Error {}

export const DEFAULT_NETWORK_IDS: Record<string, number> = { MTN: 1, GLO: 2, '9MOBILE': 3, AIRTEL: 4, SMILE: 5 };

export function canonicalNetwork(name: unknown): string {
	const s = String(name ?? '')
		.trim()
		.toUpperCase()
		.replace(/[_\s-]*PLAN$/, '');
	if (s === 'ETISALAT' || s === '9MOBILE' || s === 'NINEMOBILE') return '9MOBILE';
	if (s === 'MTN' || s === 'GLO' || s === 'AIRTEL' || s === 'SMILE') return s;
	return s;
}

export function canonicalCable(name: unknown): string {
	const s = String(name ?? '')
		.trim()
		.toUpperCase()
		.replace(/[_\s-]*PLAN$/, '');
	if (s === 'STARTIMES') return 'STARTIME';
	return s;
}

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

const zCableRow = z
	.object({
		id: zId,
		package: z.unknown().optional(),
		plan_amount: z.unknown().optional(),
		cablename_id: zId.optional(),
		cablename: z.unknown().optional(),
		cable: z.unknown().optional(),
	})
	.passthrough();

function cablePackages(rows: unknown, providerId: number, provider: string): CablePackage[] {
	if (!Array.isArray(rows)) return [];
	const out: CablePackage[] = [];
	for (const r of rows) {
		const p = zCableRow.safeParse(r);
		if (!p.success) continue;
		const row = p.data as Record<string, unknown>;
		const price = tryParseKobo(row.plan_amount ?? row.amount ?? row.price);
		if (price === null) continue;
		const name = String(row.package ?? row.name ?? row.plan ?? `package ${p.data.id}`).trim();
		out.push({
			id: p.data.id,
			providerId,
			provider,
			name,
			price: money(price),
			label: `${provider} ${name} ${nairaText(price)}`,
		});
	}
	return out;
}

const CABLE_IDS: Record<string, number> = { GOTV: 1, DSTV: 2, STARTIME: 3 };

/** /api/get/cable/ → {GOTV:{cable_id, plans}} ; legacy Cableplan → {GOTVPLAN:[...], cablename:[{id,name}]} */
export function parseCable(body: unknown): CableProvider[] {
	if (!isRecord(body)) throw new CatalogShapeError('cable catalogue is not an object');
	const out: CableProvider[] = [];
	const legacyNames = new Map<string, number>();
	if (Array.isArray(body.cablename)) {
		for (const c of body.cablename) {
			if (isRecord(c)) {
				const id = zId.safeParse(c.id);
				if (id.success) legacyNames.set(canonicalCable(c.name), id.data);
			}
		}
	}
	for (const [key, val] of Object.entries(body)) {
		if (key === 'cablename') continue;
		const name = canonicalCable(key);
		if (isRecord(val)) {
			const idP = zId.safeParse(val.cable_id ?? val.id);
			const id = idP.success ? idP.data : CABLE_IDS[name];
			if (id === undefined) continue;
			out.push({ id, name, packages: cablePackages(val.plans ?? val.packages, id, name) });
		} else if (Array.isArray(val)) {
			const first = val.find(isRecord) as Record<string, unknown> | undefined;
			const idP = zId.safeParse(first?.cablename_id ?? first?.cable ?? first?.cablename);
			const id = legacyNames.get(name) ?? (idP.success ? idP.data : CABLE_IDS[name]);
			if (id === undefined) continue;
			out.push({ id, name, packages: cablePackages(val, id, name) });
		}
	}
	return out;
}

export function parseDiscos(body: unknown): Disco[] {
	const rows = isRecord(body) ? (body.plans ?? body.disko ?? body.discos ?? body.disco) : body;
	if (!Array.isArray(rows)) throw new CatalogShapeError('disco catalogue has no list');
	const out: Disco[] = [];
	for (const r of rows) {
		if (!isRecord(r)) continue;
		const id = zId.safeParse(r.id);
		if (!id.success) continue;
		out.push({ id: id.data, name: String(r.name ?? r.disco_name ?? `Disco ${id.data}`).trim() });
	}
	return out;
}

/** {WAEC:{amount}} | {WAEC: 900} | [{exam_name, amount}] | {exams:[...]} */
export function parseExams(body: unknown): ExamPrice[] {
	if (isRecord(body) && Array.isArray(body.exams)) body = body.exams;
	if (isRecord(body) && isRecord(body.Exam)) body = body.Exam;
	const out: ExamPrice[] = [];
	if (Array.isArray(body)) {
		for (const r of body) {
			if (!isRecord(r)) continue;
			const name = String(r.exam_name ?? r.exam ?? r.name ?? '')
				.trim()
				.toUpperCase();
			const k = tryParseKobo(r.amount ?? r.price);
			if (name && k !== null) out.push({ exam: name, price: money(k) });
		}
	} else if (isRecord(body)) {
		for (const [key, val] of Object.entries(body)) {
			const k = tryParseKobo(isRecord(val) ? (val.amount ?? val.price) : val);
			if (k !== null) out.push({ exam: key.trim().toUpperCase(), price: money(k) });
		}
	} else throw new CatalogShapeError('exam prices have an unknown shape');
	return out;
}

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

export function parseSmsRates(body: unknown): SmsRates {
	if (!isRecord(body)) throw new CatalogShapeError('sms rates are not an object');
	const r = tryParseKobo(body.rate ?? body.price ?? body.sms_rate);
	const d = tryParseKobo(body.dnd_rate ?? body.dnd ?? body.dnd_price);
	if (r === null) throw new CatalogShapeError('sms rate missing');
	if (d === null) {
		// a standard rate only: the DND route costs more on every site seen, so its rate stays unknown
		return {
			perPage: money(r),
			dndPerPage: money(Math.max(r, ASSUMED_SMS_RATES.dndPerPage.kobo)),
			sources: { perPage: 'catalogue', dndPerPage: 'assumed' },
		};
	}
	return { perPage: money(r), dndPerPage: money(d), sources: { perPage: 'catalogue', dndPerPage: 'catalogue' } };
}

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
