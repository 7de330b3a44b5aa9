/** The discos section of the catalogue: /api/get/disco/, /api/disco/ or the `Disco` of /api/user/. */
import { CatalogShapeError } from '../../schemas/catalog';
import { zId } from '../../schemas/common';
import type { Disco } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';

export const discoCatalog = catalogSection({
	key: 'discos',
	name: 'disco',
	routes: ['/api/get/disco/', '/api/disco/'],
	remember: true,
	legacy: (root) => root.Disco ?? root.disco,
	parse: (body) => parseDiscos(body),
	fallback: [],
});

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
