import { VtuBadResponseError } from '../errors';
import { money } from '../money';
import { zodSummary } from '../schemas/common';
import { pickUserFields, zUserFields } from '../schemas/user';
import type { UserProfile } from '../types';

/** Flat (seed) or `user`-nested (family) profile → UserProfile + the root object for legacy catalogue sections. */
export function parseUserPayload(body: unknown): { profile: UserProfile; root: Record<string, unknown> } {
  const picked = pickUserFields(body);
  const p = picked ? zUserFields.safeParse(picked.fields) : null;
  if (!picked || !p || !p.success) {
    throw new VtuBadResponseError(
      `The profile (/api/user/) has an unexpected shape: ${p && !p.success ? zodSummary(p.error) : 'not a JSON object'}`,
      { path: '/api/user/', httpStatus: 200 },
    );
  }
  const u = p.data;
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
