import { z } from 'zod';
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

export function pickUserFields(body: unknown): { fields: Record<string, unknown>; root: Record<string, unknown> } | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const root = body as Record<string, unknown>;
  const u = typeof root.user === 'object' && root.user !== null && !Array.isArray(root.user) ? (root.user as Record<string, unknown>) : root;
  return {
    fields: { username: u.username, FullName: u.FullName, email: u.email, Phone: u.Phone, user_type: u.user_type, Account_Balance: u.Account_Balance },
    root,
  };
}
