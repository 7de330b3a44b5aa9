import { VtuBadResponseError } from '../errors';
import { money } from '../money';
import { zodSummary } from '../schemas/common';
import { parseUserFieldsFast, pickUserFields, zUserFields } from '../schemas/user';
import type { UserProfile } from '../types';

function fail(why: string): VtuBadResponseError {
	return new VtuBadResponseError(`The profile (/api/user/) has an unexpected shape: ${why}`, {
		path: '/api/user/',
		httpStatus: 200,
	});
}

/** Flat (seed) or `user`-nested (family) profile → UserProfile + the root object for legacy catalogue sections. */
export function parseUserPayload(body: unknown): { profile: UserProfile; root: Record<string, unknown> } {
	const picked = pickUserFields(body);
	if (!picked) throw fail('not a JSON object');
	let u = parseUserFieldsFast(picked.fields);
	if (!u) {
		// rare: zod says exactly what is wrong (or accepts what the fast check was too strict for)
		const p = zUserFields.safeParse(picked.fields);
		if (!p.success) throw fail(zodSummary(p.error));
		u = p.data;
	}
	const userType = u.user_type.trim();
	return {
		profile: {
			username: u.username,
			fullName: u.FullName,
			email: u.email,
			phone: u.Phone,
			userType,
			isApiUser: userType.toUpperCase() === 'API',
			balance: money(u.Account_Balance),
		},
		root: picked.root,
	};
}
