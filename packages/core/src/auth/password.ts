import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt password hashing (node:crypto, runs on the libuv thread pool, so it does not block the
 * event loop). The parameters travel with each hash: `scrypt$<log2N>$<r>$<p>$<salt>$<key>`, so the
 * cost can be raised later and old hashes still verify.
 */
const KEY_LENGTH = 64;
/** OWASP's scrypt recommendation: N = 2^17, r = 8, p = 1. */
export const DEFAULT_PASSWORD_COST = 17;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const maxmem = 256 * (options.N ?? 0) * (options.r ?? 8) + 32 * 1024 * 1024;
    scrypt(password, salt, KEY_LENGTH, { ...options, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(
  password: string,
  log2Cost = DEFAULT_PASSWORD_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: 2 ** log2Cost, r: 8, p: 1 });
  return ['scrypt', log2Cost, 8, 1, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: 2 ** Number(log2N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password at `log2Cost`, verified against when the e-mail is unknown, so that
 * such a login costs what a real one costs (equal timing). One per cost: services of another cost
 * in the same process (the tests) must not get a cheaper or dearer decoy than their own.
 */
const decoyHashes = new Map<number, Promise<string>>();
export function decoyPasswordHash(log2Cost: number): Promise<string> {
  let decoy = decoyHashes.get(log2Cost);
  if (!decoy) {
    decoy = hashPassword(randomBytes(16).toString('hex'), log2Cost);
    decoyHashes.set(log2Cost, decoy);
  }
  return decoy;
}
