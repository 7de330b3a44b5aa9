/**
 * Validation GETs: IUC and meter (family shapes; anonymous allowed like the family's views),
 * and BVN/NIN (ours), answered through the identity provider chosen in admin config.
 */
import type { FastifyInstance } from 'fastify';
import {
	cableById,
	cableByName,
	discoByNameOrId,
	lookupIdentity,
	lookupIuc,
	lookupMeter,
	type Person,
} from '../catalog';
import {
	apiRoute,
	apiRouteOptionalAuth,
	type Ctx,
	type Handler,
	html500,
	notFoundPage,
	type Out,
	type Runtime,
	viewError,
} from '../http';
import { parseNaira } from '../money';
import { moneyOf } from '../render';
import type { IdentityProvider, User, ValidationRoutes } from '../state';

function validateIuc(c: Ctx<User | null>): Out {
	const name = c.query.cablename ?? '';
	// The family's name-only build crashes (500) on an id or unknown name; the seed dialect also takes the id.
	const cable =
		cableByName(name) ?? (c.dialect === 'seed' && /^\d+$/.test(name) ? cableById.get(Number(name)) : undefined);
	if (!cable) return html500();
	return { status: 200, body: lookupIuc(c.query.smart_card_number ?? '') };
}

function validateMeter(c: Ctx<User | null>): Out {
	const disco = discoByNameOrId(c.query.disconame ?? '');
	if (!disco) return html500();
	return { status: 200, body: lookupMeter(c.query.meternumber ?? '') };
}

// ---------------------------------------------------------------- identity

type Kind = 'bvn' | 'nin';

/** Each provider's own raw answer (different field names), as its API would send it. */
const PROVIDERS: Record<
	IdentityProvider,
	(kind: Kind, num: string, p: Person | null, ref: string) => Record<string, unknown>
> = {
	premblyish: (kind, num, p, ref) => {
		if (!p) return { status: false, detail: `${kind.toUpperCase()} not found`, response_code: '01', data: {} };
		const data =
			kind === 'bvn'
				? { bvn: num, firstName: p.first, middleName: p.middle, lastName: p.last, phoneNumber1: p.phone }
				: { nin: num, firstname: p.first, middlename: p.middle, surname: p.last, telephoneno: p.phone };
		return {
			status: true,
			detail: 'Verification Successfull',
			response_code: '00',
			data,
			verification: { status: 'VERIFIED', reference: ref },
		};
	},
	dojahish: (kind, num, p) => {
		if (!p) return { error: `${kind.toUpperCase()} not found` };
		return {
			entity: { [kind]: num, first_name: p.first, middle_name: p.middle, last_name: p.last, phone_number: p.phone },
		};
	},
};

/** Normalise a provider's raw answer into the sandbox's common shape. */
function normalise(provider: IdentityProvider, raw: Record<string, any>) {
	let first = '',
		middle = '',
		last = '',
		phone = '';
	if (provider === 'premblyish' && raw.status) {
		const d = raw.data;
		first = d.firstName ?? d.firstname;
		middle = d.middleName ?? d.middlename;
		last = d.lastName ?? d.surname;
		phone = d.phoneNumber1 ?? d.telephoneno;
	} else if (provider === 'dojahish' && raw.entity) {
		({ first_name: first, middle_name: middle, last_name: last, phone_number: phone } = raw.entity);
	}
	const invalid = !first;
	const name = invalid ? 'NOT FOUND' : [first, middle, last].filter(Boolean).join(' ').toUpperCase();
	return { invalid, name, first_name: first, last_name: last, middle_name: middle, phone, provider, raw };
}

function identity(kind: Kind) {
	return (c: Ctx): Out => {
		const num = c.query[kind] ?? '';
		if (!/^\d{11}$/.test(num)) return viewError(`${kind.toUpperCase()} must be exactly 11 digits`);
		const fee = parseNaira(c.state.config.identity_fee) ?? 0;
		if (!c.user.funded) return viewError('No Wallet Funding Record Found, Contact admin to fund your wallet');
		if (c.user.balanceKobo < fee)
			return viewError(`insufficient balance, your current balance N${moneyOf(c.dialect)(c.user.balanceKobo)}`);
		const provider = c.state.config.identity_provider;
		const ref = `${kind === 'bvn' ? 'Bvn' : 'Nin'}${c.state.rng.hex(9)}`;
		// Providers bill every lookup, found or not.
		if (fee > 0) c.state.charge(c.user, fee, 'identity', ref);
		const raw = PROVIDERS[provider](kind, num, lookupIdentity(num), ref);
		return { status: 200, body: normalise(provider, raw) };
	};
}

/** The handler when this form of the route is served (admin config `validation_routes`), else Django's 404 page. */
function servedAs(form: Exclude<ValidationRoutes, 'both'>, handler: Handler<User | null>): Handler<User | null> {
	return (c) =>
		c.state.config.validation_routes === 'both' || c.state.config.validation_routes === form
			? handler(c)
			: notFoundPage();
}

export function validateRoutes(app: FastifyInstance, rt: Runtime): void {
	apiRouteOptionalAuth(app, rt, '/api/validateiuc/', servedAs('api', validateIuc));
	apiRouteOptionalAuth(app, rt, '/api/validatemeter/', servedAs('api', validateMeter));
	// the website's AJAX views: same parameters and answers, no DRF (docs/real-sites.md §8)
	apiRouteOptionalAuth(app, rt, '/ajax/validate_iuc/', servedAs('ajax', validateIuc));
	apiRouteOptionalAuth(app, rt, '/ajax/validate_meter_number/', servedAs('ajax', validateMeter));
	apiRoute(app, rt, 'GET', '/api/validatebvn/', identity('bvn'));
	apiRoute(app, rt, 'GET', '/api/validatenin/', identity('nin'));
}
