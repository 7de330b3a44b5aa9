/** The SMS rates section: the seed's /api/get/sms/ or the `sms` of /api/user/; else the assumed rates. */
import { money, tryParseKobo } from '../../money';
import { CatalogShapeError } from '../../schemas/catalog';
import type { SmsRates } from '../../types';
import { isRecord } from '../../util';
import { catalogSection } from '../define';
import { ASSUMED_SMS_RATES } from './rate';

export const smsCatalog = catalogSection({
	key: 'sms',
	name: 'sms',
	routes: ['/api/get/sms/'],
	remember: false,
	legacy: (root) => root.sms ?? root.SMS,
	parse: (body) => parseSmsRates(body),
	fallback: ASSUMED_SMS_RATES,
});

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
