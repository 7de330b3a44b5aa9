/** The IUC / smart card check before a cable subscription: the customer's name, nothing debited. */
import type { CatalogIndex } from '../../catalog';
import type { HttpCore } from '../../http';
import type { ValidationResult } from '../../types';
import { isRecord } from '../../util';
import { invalid } from '../common';
import { validationGet } from '../validate';
import { checkIuc, resolveProvider } from './module';

/** The API route, then the website's view some builds serve it under only. */
const ROUTES = ['/api/validateiuc/', '/ajax/validate_iuc/'] as const;

export async function validateIuc(
	http: HttpCore,
	idx: CatalogIndex,
	r: { provider: unknown; iuc: unknown },
): Promise<ValidationResult> {
	if (!isRecord(r))
		throw invalid('iuc', 'cable.validate needs { provider, iuc }, e.g. { provider: "GOTV", iuc: "7012345678" }.');
	const prov = resolveProvider(idx, r.provider);
	const iuc = checkIuc(r.iuc);
	return validationGet(http, 'iuc', ROUTES, [
		{ smart_card_number: iuc, cablename: String(prov.name) },
		{ smart_card_number: iuc, cablename: String(prov.id) },
	]);
}
