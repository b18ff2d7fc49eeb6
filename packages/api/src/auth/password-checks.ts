import { createHash } from 'node:crypto';
import { countKeyed, type Context } from '../trpc';

/**
 * The key an account is counted under: its e-mail, lower-cased and hashed, so the same account
 * counts the same at login (which has only the e-mail) and signed in, and the counter names nobody.
 */
const accountKey = (email: string) =>
  createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');

/**
 * Password work of one call (docs/operations.md, "Password checks"): a check of the password of
 * the account with `email` counts one attempt against that account's limit first (429 past it);
 * then the work runs within the process's bound on scrypt (503 `SERVER_BUSY` when full). A new
 * password's hashing (sign-up, reset) passes `undefined`: it guesses nothing.
 */
export async function passwordCheck<T>(
  ctx: Context,
  email: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (email !== undefined) await countKeyed(ctx, 'account', accountKey(email));
  return ctx.passwordWork ? ctx.passwordWork(work) : work();
}

/**
 * A refresh token counts under its hash: the session presenting it, not its address (a token
 * is presented once, twice after a lost answer; guessing one of 256 bits is hopeless, so the
 * address needs no tight limit: the global ceiling bounds a flood).
 */
export const refreshKey = (token: string) => createHash('sha256').update(token).digest('base64url');
