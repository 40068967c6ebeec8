import { isCloudError, type CloudError } from '../cloud/cloud-error.js';
import { readOrganization, type TenantOrganization } from '../cloud/microsoft365/graph-directory.js';
import { tokenProblemOf } from '../cloud/microsoft365/graph-errors.js';
import { GraphTransport } from '../cloud/microsoft365/graph-transport.js';
import {
  DEFENDER_DEFAULT_SCOPE,
  type Microsoft365Settings,
} from '../cloud/microsoft365/microsoft365.settings.js';
import { CONNECTION_TEST_PERMISSION } from '../cloud/microsoft365/graph-capabilities.js';
import { InvalidRequestError, ServiceUnavailableError } from '../core/errors.js';
import type { Microsoft365Credentials } from './cloud-connection.validation.js';

/** What a passed test found. */
export interface ConnectionTestResult {
  /** The application permissions in the partner tenant's token (`roles`). */
  roles: string[];
  organization: TenantOrganization;
}

/** Why a test failed, as the `details.reason` of the 400 and the field the person should fix. */
const TOKEN_FAILURES = {
  BAD_SECRET: { field: 'clientSecret', problem: 'is not a valid secret of this application (AADSTS7000215)' },
  SECRET_EXPIRED: { field: 'clientSecret', problem: 'has expired (AADSTS7000222): create a new one' },
  APP_UNKNOWN: {
    field: 'clientId',
    problem: 'no application with this id is registered in the partner tenant (AADSTS700016)',
  },
  CONSENT_REQUIRED: {
    field: 'clientId',
    problem: 'the application has no admin consent in the partner tenant (AADSTS65001)',
  },
  APP_DISABLED: { field: 'clientId', problem: 'the application is disabled in the partner tenant' },
  TENANT_UNKNOWN: { field: 'partnerTenantId', problem: 'no such tenant in Microsoft Entra ID' },
} as const;

function unavailable(error: CloudError, step: string): ServiceUnavailableError {
  return new ServiceUnavailableError(
    error.retryAfterSeconds ?? 30,
    `The connection could not be tested: ${error.message}; nothing was saved, retry shortly`,
    { provider: 'microsoft365', step },
  );
}

/**
 * The app's Defender for Endpoint permissions (Machine.Isolate…) are in the token of Defender's scope, not in
 * Graph's: asked for too, so the connection lists them as granted. Best effort: a partner tenant without
 * Defender for Endpoint gets no such token, and those permissions show as missing (which they are there).
 */
async function defenderRoles(
  transport: GraphTransport,
  app: { clientId: string; clientSecret: string },
  tenantId: string,
): Promise<string[]> {
  try {
    return (await transport.token(app, tenantId, { scope: DEFENDER_DEFAULT_SCOPE })).roles;
  } catch {
    return [];
  }
}

/**
 * The test a Microsoft 365 connection passes before it is saved: a client-credentials token for the partner
 * tenant, then one Graph read with it (`GET /organization`). A refusal is a 400 naming what failed (bad
 * secret, unknown app, missing consent or permission) in `details`; Entra ID or Graph being unreachable or
 * throttling is a 503 with Retry-After. Either way the caller stores nothing. A transport of its own (an
 * empty token cache) makes Entra ID judge the secret now, not an hour ago.
 */
export async function testMicrosoft365Connection(
  settings: Microsoft365Settings,
  credentials: Microsoft365Credentials,
): Promise<ConnectionTestResult> {
  const transport = new GraphTransport(settings);
  const app = { clientId: credentials.clientId, clientSecret: credentials.clientSecret };
  let roles: string[];
  try {
    ({ roles } = await transport.token(app, credentials.partnerTenantId));
  } catch (error) {
    if (!isCloudError(error)) throw error;
    if (error.retryable) throw unavailable(error, 'token');
    const reason = tokenProblemOf(error);
    const failure = reason ? TOKEN_FAILURES[reason] : undefined;
    throw new InvalidRequestError(
      `The connection test failed: Entra ID refused a token for the partner tenant (${error.message})`,
      [failure ?? { field: 'partnerTenantId', problem: error.message }],
      {
        reason: reason ?? 'TOKEN_REFUSED',
        step: 'token',
        ...(error.cloudCode ? { cloudCode: error.cloudCode } : {}),
      },
    );
  }
  try {
    const organization = await readOrganization(transport.forTenant(app, credentials.partnerTenantId));
    const defender = await defenderRoles(transport, app, credentials.partnerTenantId);
    return { roles: [...new Set([...roles, ...defender])].sort(), organization };
  } catch (error) {
    if (!isCloudError(error)) throw error;
    if (error.retryable) throw unavailable(error, 'graph');
    const permissionMissing = error.kind === 'Forbidden';
    throw new InvalidRequestError(
      permissionMissing
        ? `The connection test failed: the application lacks the ${CONNECTION_TEST_PERMISSION} permission`
        : `The connection test failed: Microsoft Graph refused GET /organization (${error.message})`,
      [
        {
          field: 'clientId',
          problem: permissionMissing
            ? `the application needs the ${CONNECTION_TEST_PERMISSION} application permission, with admin consent`
            : error.message,
        },
      ],
      {
        reason: permissionMissing ? 'PERMISSION_MISSING' : 'GRAPH_REFUSED',
        step: 'graph',
        ...(permissionMissing ? { missingPermissions: [CONNECTION_TEST_PERMISSION] } : {}),
        grantedPermissions: roles,
      },
    );
  }
}
