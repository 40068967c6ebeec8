/**
 * The one error type every cloud provider throws (simulated and Microsoft 365 alike), so that services,
 * jobs and the HTTP layer decide from its kind, never from a provider's own classes or messages.
 *
 * - NotFound: the object is not in the cloud (deleted, purged, or never there).
 * - Forbidden: the cloud refuses our credentials for this call; `reason: 'CONSENT_REQUIRED'` when the
 *   customer tenant has not consented to the app (or revoked it).
 * - Throttled: the cloud asked us to slow down; `retryAfterSeconds` is its Retry-After.
 * - Transient: the cloud failed in a way worth retrying (5xx, timeout, connection reset).
 * - Refused: the cloud understood and said no (a rule of its own); `message` is its reason, fit to show.
 * - Unsupported: the provider has no API for this capability (Microsoft Graph v1.0 has none for Exchange
 *   Online mail contacts, for instance); `capability` names it. Never retried, never pretended.
 *
 * In a request, Throttled and Transient become 503 SERVICE_UNAVAILABLE with Retry-After; in a job they are
 * retried after the cloud's Retry-After.
 */
export type CloudErrorKind = 'NotFound' | 'Forbidden' | 'Throttled' | 'Transient' | 'Refused' | 'Unsupported';

export type CloudForbiddenReason = 'CONSENT_REQUIRED' | 'PERMISSION_MISSING';

export interface CloudErrorOptions {
  /** Which provider said it ('simulated', 'microsoft365'). */
  provider?: string;
  /** Throttled/Transient: seconds the cloud asked us to wait (Retry-After), when it said. */
  retryAfterSeconds?: number;
  /** Forbidden: why. */
  reason?: CloudForbiddenReason;
  /** The cloud's own error code (Graph's `error.code`), for logs and mapping; never shown raw. */
  cloudCode?: string;
  /** The customer tenant the call was about (Forbidden: the one that did not consent), when one was. */
  tenantExternalId?: string;
  /** Unsupported: the capability the provider lacks (as listed by the connection: `mailContacts`…). */
  capability?: string;
  cause?: unknown;
}

export class CloudError extends Error {
  readonly kind: CloudErrorKind;
  readonly provider: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly reason: CloudForbiddenReason | undefined;
  readonly cloudCode: string | undefined;
  readonly tenantExternalId: string | undefined;
  readonly capability: string | undefined;

  constructor(kind: CloudErrorKind, message: string, options: CloudErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CloudError';
    this.kind = kind;
    this.provider = options.provider;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.reason = options.reason;
    this.cloudCode = options.cloudCode;
    this.tenantExternalId = options.tenantExternalId;
    this.capability = options.capability;
  }

  /** Worth trying again later (the cloud was busy or failing, not refusing). */
  get retryable(): boolean {
    return this.kind === 'Throttled' || this.kind === 'Transient';
  }
}

export function isCloudError(error: unknown, kind?: CloudErrorKind): error is CloudError {
  return error instanceof CloudError && (kind === undefined || error.kind === kind);
}

/**
 * The Throttled or Transient CloudError that `error` is, or was caused by (a feature may wrap it in its
 * own error, `{ cause }`); null when there is none. A job failing with one is retried after its Retry-After.
 */
export function retryableCloudError(error: unknown): CloudError | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof CloudError) return current.retryable ? current : null;
    current = current.cause;
  }
  return null;
}

/** The Unsupported CloudError that `error` is, or was caused by; null when there is none. */
export function unsupportedCloudError(error: unknown): CloudError | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof CloudError) return current.kind === 'Unsupported' ? current : null;
    current = current.cause;
  }
  return null;
}
