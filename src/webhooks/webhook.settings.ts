import { SecretBox } from '../core/secret-box.js';
import { systemResolver, withResolveTimeout, type HostResolver } from './webhook-url.js';

declare module '../core/service-context.js' {
  interface AppDeps {
    /** Webhook delivery settings; absent: the defaults of DECISIONS (DEFAULT_WEBHOOK_SETTINGS). */
    webhooks?: Partial<WebhookSettings>;
  }
}

/**
 * How webhook delivery behaves. The defaults are the contract (DECISIONS "Events"); tests shorten the
 * retry schedule and allow loopback receivers through AppDeps.webhooks (declared above, so core's AppDeps
 * names no webhook type).
 */
export interface WebhookSettings {
  /** Deliver to private, loopback and link-local addresses (local development and tests only). */
  allowPrivateTargets: boolean;
  /** An attempt that has no complete response after this long has failed. */
  timeoutMs: number;
  /** Wait before each retry: entry n follows failed attempt n + 1; after the last, the delivery has failed. */
  retryScheduleMs: readonly number[];
  /** Each wait is spread by up to ± this share, so retries of many deliveries do not arrive together. */
  jitterRatio: number;
  /** An endpoint whose attempts have all failed for this long is disabled (business clock). */
  disableAfterFailingMs: number;
  /** After a secret rotation, the previous secret keeps signing beside the new one for this long. */
  rotationOverlapMs: number;
  /** The longest `Retry-After` honoured (a larger one is capped to it). */
  maxRetryAfterMs: number;
  /** How host names are resolved for the private-target check (tests inject one to play DNS rebinding). */
  resolveHost: HostResolver;
  /** A host name without an answer after this long does not resolve (creation: 400 naming `url`). */
  resolveTimeoutMs: number;
  /** Seals signing secrets at rest (SECRETS_KEY); without a key they are stored as they are. */
  secretBox: SecretBox;
  /** First attempts of one endpoint that its batch job claims in one statement (webhook-endpoint-batch.ts). */
  batchSize: number;
  /** Attempts of one batch job in flight at once: connections to one endpoint (its keep-alive sockets). */
  batchConcurrency: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Attempts one delivery may have in all (issue #32 item 3): its first, the retries of the schedule, and
 * manual re-sends, which are refused (409 ATTEMPT_LIMIT) once another could pass it. A delivery's `attempts`
 * are costed at this many (src/http/list-bounds.ts).
 */
export const MAX_DELIVERY_ATTEMPTS = 20;

/** DECISIONS "Events": an endpoint failing this many days in a row is disabled. */
export const DISABLE_AFTER_FAILING_DAYS = 5;
/** DECISIONS "Events": after a rotation the previous secret signs beside the new one this many hours. */
export const SECRET_ROTATION_OVERLAP_HOURS = 24;

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowPrivateTargets: false,
  timeoutMs: 15 * SECOND,
  retryScheduleMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  jitterRatio: 0.2,
  disableAfterFailingMs: DISABLE_AFTER_FAILING_DAYS * DAY,
  rotationOverlapMs: SECRET_ROTATION_OVERLAP_HOURS * HOUR,
  maxRetryAfterMs: DAY,
  resolveHost: systemResolver,
  resolveTimeoutMs: 5 * SECOND,
  secretBox: new SecretBox(null),
  batchSize: 100,
  batchConcurrency: 16,
};

/** The settings in force: the defaults, what the deployment or test changed, and resolution under its deadline. */
export function webhookSettingsOf(deps: { webhooks?: Partial<WebhookSettings> }): WebhookSettings {
  const settings = { ...DEFAULT_WEBHOOK_SETTINGS, ...deps.webhooks };
  return { ...settings, resolveHost: withResolveTimeout(settings.resolveHost, settings.resolveTimeoutMs) };
}
