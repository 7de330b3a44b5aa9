/** The cable TV section of the catalogue: /api/get/cable/, /api/cable/ or the `Cableplan` of /api/user/. */
import { z } from 'zod';
import { money, nairaText, tryParseKobo } from '../../money';
import { CatalogShapeError } from '../../schemas/catalog';
import { zId } from '../../schemas/common';
import type { CablePackage, CableProvider } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';

export const cableCatalog = catalogSection({
	key: 'cable',
	name: 'cable',
	routes: ['/api/get/cable/', '/api/cable/'],
	remember: true,
	legacy: (root) => root.Cableplan,
	parse: (body) => parseCable(body),
	fallback: [],
});

export function canonicalCable(name: unknown): string {
	const s = String(name ?? '')
		.trim()
		.toUpperCase()
		.replace(/[_\s-]*PLAN$/, '');
	if (s === 'STARTIMES') return 'STARTIME';
	return s;
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
