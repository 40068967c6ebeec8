import { CloudError, isCloudError } from '../cloud-error.js';
import { MICROSOFT365, TokenRefusedError } from './graph-errors.js';
import type { AppCredentials, GraphTokenSource } from './graph-token.js';

/** Whether Graph or Defender refused the token itself (401), not the permission (403): it may be stale. */
export function isTokenRefused(error: unknown): error is TokenRefusedError {
  return error instanceof TokenRefusedError;
}

/**
 * Graph (or Defender for Endpoint) refused a token MSAL had cached (401): the customer may have withdrawn its
 * consent since the token was issued, which a cached token does not show (only onboarding and the sync ask
 * Entra ID afresh). Entra ID is asked for a new token of that `scope` (Graph's by default): refused as not
 * consented (AADSTS65001, or 700016 once the app was removed from the tenant), that is the answer — a
 * CloudError Forbidden, reason CONSENT_REQUIRED, naming the tenant (403 with `details.reason:
 * CONSENT_REQUIRED` in a request) — and the call is not made again. Issued, it is in MSAL's cache for the
 * caller's next try.
 */
export async function renewRefusedToken(
  tokens: GraphTokenSource,
  credentials: AppCredentials,
  tenantId: string,
  scope?: string,
): Promise<void> {
  try {
    await tokens.token(credentials, tenantId, { fresh: true, ...(scope ? { scope } : {}) });
  } catch (error) {
    if (!isCloudError(error, 'Forbidden') || error.reason !== 'CONSENT_REQUIRED') throw error;
    throw new CloudError(
      'Forbidden',
      `The customer tenant ${tenantId} no longer grants the app access: Microsoft ${scope ? 'Defender for Endpoint' : 'Graph'} ` +
        `refused its token and Entra ID issues no new one (${error.message}); nothing was changed. The customer's ` +
        'administrator consents again with the admin-consent URL (GET /api/settings/cloud-connection)',
      { provider: MICROSOFT365, reason: 'CONSENT_REQUIRED', tenantExternalId: tenantId, cause: error },
    );
  }
}

/**
 * The one way a refused token is answered, for Graph's calls, its `$batch` items and Defender for Endpoint's
 * calls: `attempt` runs; when it fails with a refused token (401: nothing was done), `renew` asks Entra ID for
 * a fresh token once (renewRefusedToken: CONSENT_REQUIRED when the consent is gone) and `attempt` runs once
 * more, `renewed` true, its outcome final (a second 401 is the caller's Forbidden).
 */
export async function withTokenRenewal<T>(
  renew: () => Promise<void>,
  attempt: (renewed: boolean) => Promise<T>,
): Promise<T> {
  try {
    return await attempt(false);
  } catch (error) {
    if (!isTokenRefused(error)) throw error;
  }
  await renew();
  return attempt(true);
}
