import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Every OAuth artefact is a prefixed random string (so secret scanners and people can tell them apart)
 * with 256 random bits; only SHA-256 hashes are stored. A fast hash is safe at that entropy and keeps
 * the lookup a single index probe.
 */
export const ACCESS_TOKEN_PREFIX = 'svc_at_';
export const REFRESH_TOKEN_PREFIX = 'svc_rt_';
export const AUTHORIZATION_CODE_PREFIX = 'svc_ac_';
export const CLIENT_ID_PREFIX = 'svc_ci_';
export const CLIENT_SECRET_PREFIX = 'svc_cs_';

export function randomSecret(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** client_id is public: 16 random bytes are plenty to keep ids unguessable and unique. */
export function generateClientId(): string {
  return randomSecret(CLIENT_ID_PREFIX, 16);
}

/** One-shot `crypto.hash`: an access token is hashed on every request it authenticates (as API keys are). */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Compares a presented secret with a stored SHA-256 hash without leaking where they differ. */
export function matchesHash(presented: string, storedHash: string): boolean {
  const actual = Buffer.from(sha256(presented), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
