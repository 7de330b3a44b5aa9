/**
 * IUC / meter validation (free reads: retried like every GET) and BVN / NIN lookups (paid: never repeated).
 * Sites serve IUC/meter validation under `/api/…` or only under the website's `/ajax/…` views, and take
 * the cable/disco by name or by id (docs/real-sites.md §8): a 404 tries the other route, a 500 the
 * other parameter form, and the route that answered is remembered per base URL (client/site.ts).
 */
import type { CatalogIndex } from '../catalog';
import { VtuBadResponseError, VtuServerError } from '../errors';
import type { HttpCore } from '../http';
import { forgetSites, learnSiteFact, siteFact, viaKnownRoute } from '../site';
import type { IdentityResult, ValidationResult } from '../types';
import { isRecord } from '../util';
import { checkIuc, resolveProvider } from './cable/module';
import { invalid, requireDigits, scrubRaw, text } from './common';
import { checkMeter, meterTypeOf, resolveDisco } from './electricity/module';

type Check = 'iuc' | 'meter';
const ROUTES: Record<Check, [api: string, ajax: string]> = {
	iuc: ['/api/validateiuc/', '/ajax/validate_iuc/'],
	meter: ['/api/validatemeter/', '/ajax/validate_meter_number/'],
};

/** Drop the remembered validation routes (tests): everything learned about sites is forgotten. */
export function forgetValidationRoutes(): void {
	forgetSites();
}

/**
 * GET the first parameter form that the site understands: on a 500 (a name-only build given an id, or the
 * reverse), the next. The form that answered is remembered per site and route, like the route.
 */
async function getEitherForm(http: HttpCore, path: string, forms: Array<Record<string, string>>): Promise<unknown> {
	const fact = `form ${path}`;
	const known = siteFact<number>(http.baseUrl, fact) ?? 0;
	const order = [forms[known], ...forms.filter((_, i) => i !== known)].map((f) => forms.indexOf(f));
	for (let i = 0; ; i++) {
		try {
			const body = await http.get(path, { query: forms[order[i]] });
			learnSiteFact(http.baseUrl, fact, order[i]);
			return body;
		} catch (e) {
			if (!(e instanceof VtuServerError) || i === order.length - 1) throw e;
		}
	}
}

function validationGet(http: HttpCore, check: Check, forms: Array<Record<string, string>>): Promise<unknown> {
	return viaKnownRoute(http, `validate.${check}`, ROUTES[check], (route) => getEitherForm(http, route, forms));
}

export async function validateIuc(
	http: HttpCore,
	idx: CatalogIndex,
	r: { provider: unknown; iuc: unknown },
): Promise<ValidationResult> {
	if (!isRecord(r))
		throw invalid('iuc', 'cable.validate needs { provider, iuc }, e.g. { provider: "GOTV", iuc: "7012345678" }.');
	const prov = resolveProvider(idx, r.provider);
	const iuc = checkIuc(r.iuc);
	return toValidation(
		await validationGet(http, 'iuc', [
			{ smart_card_number: iuc, cablename: String(prov.name) },
			{ smart_card_number: iuc, cablename: String(prov.id) },
		]),
	);
}

export async function validateMeter(
	http: HttpCore,
	idx: CatalogIndex,
	r: { disco: unknown; meter: unknown; meterType: unknown },
): Promise<ValidationResult> {
	if (!isRecord(r))
		throw invalid(
			'meter',
			'electricity.validate needs { disco, meter, meterType }, e.g. { disco: "Ikeja Electric", meter: "45012345678", meterType: "prepaid" }.',
		);
	const disco = resolveDisco(idx, r.disco);
	const meter = checkMeter(r.meter);
	const mtype = meterTypeOf(r.meterType) === 'prepaid' ? 'Prepaid' : 'Postpaid';
	return toValidation(
		await validationGet(http, 'meter', [
			{ meternumber: meter, disconame: disco.name, mtype },
			{ meternumber: meter, disconame: String(disco.id), mtype },
		]),
	);
}

/** BVN / NIN lookup. Each call is billed by the site, so it is sent once: never retried after it may have left. */
export async function validateIdentity(http: HttpCore, kind: 'bvn' | 'nin', number: unknown): Promise<IdentityResult> {
	const n = requireDigits(
		number,
		kind,
		kind === 'bvn' ? 'BVN (Bank Verification Number)' : 'NIN (National Identification Number)',
		11,
		11,
	);
	const path = `/api/validate${kind}/`;
	const body = await http.get(path, { query: { [kind]: n }, repeatable: false });
	if (!isRecord(body))
		throw new VtuBadResponseError(`The ${kind.toUpperCase()} lookup answered something that is not a JSON object.`, {
			path,
		});
	const first = text(body.first_name ?? body.firstName);
	const last = text(body.last_name ?? body.lastName);
	const middle = text(body.middle_name ?? body.middleName);
	const full = text(body.name ?? body.full_name) || [first, middle, last].filter(Boolean).join(' ');
	const invalidFlag =
		body.invalid === true ||
		body.invalid === 'true' ||
		body.valid === false ||
		/INVALID|NOT FOUND|NO RECORD/i.test(full);
	return {
		valid: !invalidFlag,
		kind,
		number: n,
		firstName: first,
		lastName: last,
		middleName: middle,
		fullName: full,
		phone: text(body.phone ?? body.phone_number),
		provider: text(body.provider),
		raw: scrubRaw(body),
	};
}

function toValidation(body: unknown): ValidationResult {
	if (!isRecord(body)) return { valid: false, name: '', raw: body };
	const content = isRecord(body.content) ? body.content : {};
	const name = text(body.name ?? body.Customer_Name ?? body.customer_name ?? content.Customer_Name ?? '').trim();
	const inv = body.invalid === true || body.invalid === 'true' || /INVALID|NO NAME RETURN/i.test(name) || name === '';
	const addr = body.address ?? body.Address ?? content.Address;
	const out: ValidationResult = { valid: !inv, name, raw: scrubRaw(body) };
	if (addr !== undefined && addr !== null && addr !== '') out.address = text(addr);
	return out;
}
