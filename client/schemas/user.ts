import { z } from 'zod';
import { tryParseKobo } from '../money';
import { zKobo, zStr } from './common';

/**
 * Seed shape is flat; family shape nests under `user`. Account_Balance is a string or a float.
 * Only the six fields we rely on are validated (the payload is ~14 KB of catalogue: running zod
 * over all of it would triple the cost of a profile read).
 */
export const zUserFields = z.object({
	username: zStr,
	FullName: zStr,
	email: zStr,
	Phone: zStr,
	user_type: zStr,
	Account_Balance: zKobo,
});

export function pickUserFields(
	body: unknown,
): { fields: Record<string, unknown>; root: Record<string, unknown> } | null {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
	const root = body as Record<string, unknown>;
	const u =
		typeof root.user === 'object' && root.user !== null && !Array.isArray(root.user)
			? (root.user as Record<string, unknown>)
			: root;
	return {
		fields: {
			username: u.username,
			FullName: u.FullName,
			email: u.email,
			Phone: u.Phone,
			user_type: u.user_type,
			Account_Balance: u.Account_Balance,
		},
		root,
	};
}

export type UserFields = z.output<typeof zUserFields>;

/** zStr without zod: undefined/null → '', string, or a (non-NaN) number → String; anything else → fail. */
function str(v: unknown): string | undefined {
	if (typeof v === 'string') return v;
	if (v == null) return '';
	if (typeof v === 'number' && !Number.isNaN(v)) return String(v);
	return undefined;
}

/**
 * The same result as `zUserFields.safeParse(fields)` when that succeeds, computed without zod (a zod
 * union allocates an issue for every branch it rejects: ~20 µs per profile read); `null` when any field
 * would fail, so the caller runs the zod schema for its exact error message.
 */
export function parseUserFieldsFast(f: Record<string, unknown>): UserFields | null {
	const username = str(f.username);
	const FullName = str(f.FullName);
	const email = str(f.email);
	const Phone = str(f.Phone);
	const user_type = str(f.user_type);
	if (
		username === undefined ||
		FullName === undefined ||
		email === undefined ||
		Phone === undefined ||
		user_type === undefined
	)
		return null;
	const b = f.Account_Balance;
	if (typeof b !== 'string' && (typeof b !== 'number' || Number.isNaN(b))) return null;
	const Account_Balance = tryParseKobo(b, true);
	if (Account_Balance === null) return null;
	return { username, FullName, email, Phone, user_type, Account_Balance };
}
