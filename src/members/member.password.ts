import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Member passwords: scrypt (node:crypto) with a random 16-byte salt, stored with its parameters as
 * `scrypt$N$r$p$salt$hash` (base64url), so the cost can be raised later without breaking old hashes.
 * N=2^15, r=8, p=1 (OWASP's minimum for scrypt) costs about 32 MiB and a few tens of ms per check.
 */
const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is just too small for N=2^15. */
const MAX_MEMORY = 64 * 1024 * 1024;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** scrypt's cost parameters, stored with each hash (so a check uses the cost the hash was made with). */
export type ScryptParameters = Readonly<{ N: number; r: number; p: number }>;

/**
 * A new hash, at the current cost unless `parameters` says otherwise (a raised cost later; tests that need many
 * sign-ins and do not test the cost store cheaper hashes, which verifyPassword checks at their own cost).
 */
export async function hashPassword(
  password: string,
  parameters: ScryptParameters = PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, parameters, KEY_LENGTH);
  const { N, r, p } = parameters;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Checks a password against a stored hash in constant time (for hashes of the same length). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * What an unknown email is checked against, so that an unknown email and a wrong password take the same time
 * and no one can tell which emails have an account: the stored form of a hash with the same parameters, a
 * random salt and a random key. Checking a password against it costs one scrypt derivation of the same cost, as
 * against a member's hash, and no password derives 32 random bytes. Deriving a real hash of a random password
 * instead cost 32 MiB (128·N·r) of memory at start-up, for no difference a caller could see.
 */
const DUMMY_HASH = [
  'scrypt',
  PARAMETERS.N,
  PARAMETERS.r,
  PARAMETERS.p,
  randomBytes(SALT_BYTES).toString('base64url'),
  randomBytes(KEY_LENGTH).toString('base64url'),
].join('$');

export function dummyPasswordHash(): Promise<string> {
  return Promise.resolve(DUMMY_HASH);
}
