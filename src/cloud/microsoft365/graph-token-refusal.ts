import { GraphError } from '@microsoft/microsoft-graph-client';
import { CloudError, isCloudError } from '../cloud-error.js';
import { MICROSOFT365 } from './graph-errors.js';
import type { AppCredentials, GraphTokenSource } from './graph-token.js';

/** Whether Graph refused the token itself (401), not the permission (403): the cached token may be stale. */
export function isTokenRefused(error: CloudError): boolean {
  return error.kind === 'Forbidden' && error.cause instanceof GraphError && error.cause.statusCode === 401;
}

/**
 * Graph refused a token MSAL had cached (401): the customer may have withdrawn its consent since the token was
 * issued, which a cached token does not show (only onboarding and the sync ask Entra ID afresh). Entra ID is
 * asked for a new token: refused as not consented (AADSTS65001, or 700016 once the app was removed from the
 * tenant), that is the answer — a CloudError Forbidden, reason CONSENT_REQUIRED, naming the tenant (403 with
 * `details.reason: CONSENT_REQUIRED` in a request) — and the call is not made again. Issued, the caller may
 * send the call once more with it: a 401 means Graph did nothing with the request.
 */
export async function renewRefusedToken(
  tokens: GraphTokenSource,
  credentials: AppCredentials,
  tenantId: string,
): Promise<void> {
  try {
    await tokens.token(credentials, tenantId, { fresh: true });
  } catch (error) {
    if (!isCloudError(error, 'Forbidden') || error.reason !== 'CONSENT_REQUIRED') throw error;
    throw new CloudError(
      'Forbidden',
      `The customer tenant ${tenantId} no longer grants the app access: Microsoft Graph refused its token and ` +
        `Entra ID issues no new one (${error.message}); nothing was changed. The customer's administrator ` +
        'consents again with the admin-consent URL (GET /api/settings/cloud-connection)',
      { provider: MICROSOFT365, reason: 'CONSENT_REQUIRED', tenantExternalId: tenantId, cause: error },
    );
  }
}
