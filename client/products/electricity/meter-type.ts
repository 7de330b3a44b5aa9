/**
 * How a site encodes MeterType, learned per site. Builds accept one encoding each ("Prepaid"/"Postpaid" or
 * 1/2; docs/real-sites.md §4.4) and answer the other with a 400 field error, which DRF raises before the view
 * runs: no record, nothing debited. So a purchase refused for exactly that is sent once more in the other
 * encoding, and the encoding that was accepted is remembered for the site (client/site.ts).
 */
import { VtuInvalidInputError } from '../../errors';
import { learnSiteFact, siteFact } from '../../site';

export type MeterEncoding = 'name' | 'number';
const FACT = 'electricity.meterType';

/** The encoding to send: the one this site accepted before, else the configured one. */
export function meterTypeFor(baseUrl: string, configured: MeterEncoding): MeterEncoding {
	return siteFact<MeterEncoding>(baseUrl, FACT) ?? configured;
}

export function learnMeterType(baseUrl: string, used: MeterEncoding): void {
	learnSiteFact(baseUrl, FACT, used);
}

export const otherEncoding = (m: MeterEncoding): MeterEncoding => (m === 'name' ? 'number' : 'name');

/** A 400 whose only complaint is the MeterType choice: `{"MeterType": ["\"1\" is not a valid choice."]}`. */
export function refusedMeterType(e: unknown): boolean {
	return (
		e instanceof VtuInvalidInputError &&
		e.httpStatus === 400 &&
		/^MeterType: .*is not a valid choice\.?$/i.test(e.serverMessage ?? '')
	);
}
