import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** The payload of a webhook delivery (SPEC 6). */
export interface WebhookEvent {
  id?: string;
  event: string;
  severity: string;
  tenant: { id: string; name: string; domain: string } | null;
  details: Record<string, unknown>;
  timestamp: string;
  actionUrl: string;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: HeaderBag): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers instanceof Headers) headers.forEach((value, name) => (plain[name] = value));
  else
    for (const [name, value] of Object.entries(headers))
      if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return plain;
}

/**
 * Checks a delivery with the official Standard Webhooks verifier: the `webhook-signature` over the raw body (as
 * received, before any JSON parsing), `webhook-id` and `webhook-timestamp` (within 5 minutes). Returns the event;
 * throws WebhookVerificationError when the delivery is not from us or was changed.
 * `secret` is the webhook's whsec_... secret (creation or rotation answer).
 */
export function verifyWebhook(secret: string, rawBody: string | Buffer, headers: HeaderBag): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  return new Webhook(secret).verify(body, plainHeaders(headers)) as WebhookEvent;
}
