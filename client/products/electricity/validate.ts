/** The meter check before an electricity payment: the customer's name and address, nothing debited. */
import type { CatalogIndex } from '../../catalog';
import type { HttpCore } from '../../http';
import type { ValidationResult } from '../../types';
import { isRecord } from '../../util';
import { invalid } from '../common';
import { validationGet } from '../validate';
import { checkMeter, meterTypeOf, resolveDisco } from './module';

/** The API route, then the website's view some builds serve it under only. */
const ROUTES = ['/api/validatemeter/', '/ajax/validate_meter_number/'] as const;

export async function validateMeter(
	http: HttpCore,
	idx: CatalogIndex,
	r: { disco: unknown; meter: unknown; meterType: unknown },
): Promise<ValidationResult> {
	if (!isRecord(r))
		throw invalid(
			'meter',
			'electricity.validate needs { disco, meter, meterType }, e.g. { disco: "Ikeja Electric", meter: "45012345678", ' +
				'meterType: "prepaid" }.',
		);
	const disco = resolveDisco(idx, r.disco);
	const meter = checkMeter(r.meter);
	const mtype = meterTypeOf(r.meterType) === 'prepaid' ? 'Prepaid' : 'Postpaid';
	return validationGet(http, 'meter', ROUTES, [
		{ meternumber: meter, disconame: disco.name, mtype },
		{ meternumber: meter, disconame: String(disco.id), mtype },
	]);
}
