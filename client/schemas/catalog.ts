/**
 * What every catalogue section shares: the shape error a section's parser throws (the section is then read
 * from the legacy /api/user/ payload, client/catalog.ts), and network names as the sites spell them.
 * Each product's own section (routes, parser) is in its folder: client/products/<name>/catalog.ts.
 */
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
