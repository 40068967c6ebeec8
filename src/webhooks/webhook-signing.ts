import { randomBytes } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

/** 32 random bytes, base64, behind `whsec_`: the Standard Webhooks secret format. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export interface SigningKeys {
  current: string;
  /** The secret before a rotation, while it still signs (DECISIONS: 24 hours). */
  previous: string | null;
}

export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

const signers = new Map<string, StandardWebhook>();

/** Parsing a secret costs a base64 decode; deliveries of one webhook reuse its signer. */
function signerFor(secret: string): StandardWebhook {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size > 10_000) signers.clear();
    signer = new StandardWebhook(secret);
    signers.set(secret, signer);
  }
  return signer;
}

/**
 * The Standard Webhooks headers, signed by the official package: `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, one signature per active secret, separated by a space (new secret first).
 * `sentAt` is wall-clock time: receivers compare it with their own clock (5 minutes of tolerance).
 */
export function signatureHeaders(
  messageId: string,
  sentAt: Date,
  body: string,
  keys: SigningKeys,
): SignatureHeaders {
  const secrets = keys.previous ? [keys.current, keys.previous] : [keys.current];
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => signerFor(secret).sign(messageId, sentAt, body)).join(' '),
  };
}
