import type { CloudConsentPermissions } from '../consent.provider.js';
import { isCloudError } from '../cloud-error.js';
import { isDefenderMissing } from './defender-client.js';
import { MICROSOFT365_CAPABILITIES } from './graph-capabilities.js';
import type { AppCredentials } from './graph-token.js';
import type { GraphTransport } from './graph-transport.js';
import { DEFENDER_DEFAULT_SCOPE } from './microsoft365.settings.js';

/** Areas that act in the partner tenant only: a customer's consent has nothing to do with them. */
const PARTNER_ONLY = new Set(['customers']);

/**
 * What a customer's consent grants and what its gaps disable, from the permissions its tokens carry. Each
 * available area of MICROSOFT365_CAPABILITIES that needs a permission not granted is disabled in that tenant.
 */
export function consentPermissionsOf(granted: readonly string[]): CloudConsentPermissions {
  const have = new Set(granted);
  const disabledCapabilities = MICROSOFT365_CAPABILITIES.filter(
    (area) => area.available && !PARTNER_ONLY.has(area.capability),
  )
    .map((area) => ({
      capability: area.capability,
      missingPermissions: area.permissions.filter((permission) => !have.has(permission)),
    }))
    .filter((area) => area.missingPermissions.length > 0);
  return {
    granted: [...have].sort(),
    missing: [...new Set(disabledCapabilities.flatMap((area) => area.missingPermissions))].sort(),
    disabledCapabilities,
  };
}

/**
 * The application permissions a customer tenant granted the app, as Entra ID reports them: the `roles` claim
 * of an app-only access token lists the app roles (application permissions) granted to the app's service
 * principal for the token's resource (learn.microsoft.com, "Access token claims reference": `roles`). Graph's
 * token carries Graph's; Defender for Endpoint's (Machine.*, SecurityRecommendation.Read.All) come in a token of
 * Defender's scope, asked for fresh as Graph's was, so a consent changed since shows at once. A tenant without
 * Defender for Endpoint has no such token (AADSTS500011), nor a consent refused for it: none of those granted.
 * Any other failure of that second token (Entra ID throttled or unreachable): undefined, not known this time
 * (the caller keeps what it knew), rather than permissions wrongly reported missing or a consent check failed.
 */
export async function customerConsentPermissions(
  transport: GraphTransport,
  credentials: AppCredentials,
  customerTenantId: string,
  graphRoles: readonly string[],
): Promise<CloudConsentPermissions | undefined> {
  let defenderRoles: string[];
  try {
    ({ roles: defenderRoles } = await transport.token(credentials, customerTenantId, {
      scope: DEFENDER_DEFAULT_SCOPE,
      fresh: true,
    }));
  } catch (error) {
    if (!isDefenderMissing(error) && !isCloudError(error, 'Forbidden')) return undefined;
    defenderRoles = [];
  }
  return consentPermissionsOf([...graphRoles, ...defenderRoles]);
}
