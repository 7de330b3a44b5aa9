import { z } from 'zod';
import { zKobo, zStr } from './common';

/** Seed shape is flat; family shape nests under `user`. Account_Balance is a string or a float. */
export const zUserFields = z
  .object({
    username: zStr,
    FullName: zStr,
    email: zStr,
    Phone: zStr,
    user_type: zStr,
    Account_Balance: zKobo,
  })
  .passthrough();

export const zUserPayload = z.union([
  z.object({ user: zUserFields }).passthrough().transform((v) => ({ user: v.user, root: v as Record<string, unknown> })),
  zUserFields.transform((v) => ({ user: v, root: v as Record<string, unknown> })),
]);
