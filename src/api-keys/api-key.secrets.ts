import { hash, randomBytes } from 'node:crypto';
import { Environment } from '../core/scope.js';

export const KEY_PREFIX_BY_ENVIRONMENT: Record<Environment, string> = {
  [Environment.LIVE]: 'svc_sk_live_',
  [Environment.SANDBOX]: 'svc_sk_test_',
};

/** 32 random bytes after the prefix (DECISIONS), base64url: 43 characters. */
export function generateApiKey(environment: Environment): string {
  return KEY_PREFIX_BY_ENVIRONMENT[environment] + randomBytes(32).toString('base64url');
}

/**
 * Keys carry 256 bits of entropy, so SHA-256 cannot be brute-forced and keeps lookups O(1). Hashed on every
 * request (the key cache is keyed by the hash, so no secret is kept in memory): the one-shot `crypto.hash` costs
 * ~0.3 µs where `createHash().update().digest()` cost ~0.8 µs and three objects (issue #31, ninth round).
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function environmentOfKey(key: string): Environment | null {
  if (key.startsWith(KEY_PREFIX_BY_ENVIRONMENT[Environment.LIVE])) return Environment.LIVE;
  if (key.startsWith(KEY_PREFIX_BY_ENVIRONMENT[Environment.SANDBOX])) return Environment.SANDBOX;
  return null;
}
