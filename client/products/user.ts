import { VtuBadResponseError } from '../errors';
import { money } from '../money';
import { zodSummary } from '../schemas/common';
import { zUserPayload } from '../schemas/user';
import type { UserProfile } from '../types';
import { isRecord } from '../util';

/** Flat (seed) or `user`-nested (family) profile → UserProfile + the root object for legacy catalogue sections. */
export function parseUserPayload(body: unknown): { profile: UserProfile; root: Record<string, unknown> } {
  const p = zUserPayload.safeParse(body);
  if (!p.success) {
    throw new VtuBadResponseError(`The profile (/api/user/) has an unexpected shape: ${zodSummary(p.error)}`, { path: '/api/user/', httpStatus: 200 });
  }
  const u = p.data.user;
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
    root: isRecord(p.data.root) ? p.data.root : {},
  };
}
