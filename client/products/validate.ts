/**
 * The customer checks' mechanism (the products' own checks: cable/validate.ts, electricity/validate.ts; free
 * reads, retried like every GET) and BVN / NIN lookups (paid: never repeated).
 * Sites serve IUC/meter validation under `/api/…` or only under the website's `/ajax/…` views, and take
 * the cable/disco by name or by id (docs/real-sites.md §8): a 404 tries the other route, a 500 the
 * other parameter form, and the route that answered is remembered per base URL (client/site.ts).
 */
import { VtuBadResponseError, VtuServerError } from '../errors';
import type { HttpCore } from '../http';
import { forgetSites, learnSiteFact, siteFact, viaKnownRoute } from '../site';
import type { IdentityResult, ValidationResult } from '../types';
import { isRecord } from '../util';
import { requireDigits, scrubRaw, text } from './common';

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

/**
 * A product's customer check (cable/validate.ts, electricity/validate.ts): the first of `routes` the site
 * serves ([api, ajax]), in the first parameter form it understands, read into a ValidationResult.
 */
export async function validationGet(
	http: HttpCore,
	check: string,
	routes: readonly string[],
	forms: Array<Record<string, string>>,
): Promise<ValidationResult> {
	return toValidation(
		await viaKnownRoute(http, `validate.${check}`, routes, (route) => getEitherForm(http, route, forms)),
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
