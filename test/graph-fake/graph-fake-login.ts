import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { DEFENDER_SCOPE, fakeDefender, isDefenderRole } from './graph-fake-defender.js';
import type { GraphFakeState } from './graph-fake-state.js';

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

const SIGNING_KEY = randomBytes(32);

/**
 * Entra ID's error body for a token request (learn.microsoft.com, "Microsoft identity platform and the OAuth
 * 2.0 client credentials flow", error response): `error`, `error_description` starting with the AADSTS code,
 * `error_codes`, `timestamp`, `trace_id`, `correlation_id`, `error_uri`.
 */
function entraError(status: number, error: string, code: number, description: string): FakeReply {
  const correlationId = randomUUID();
  const traceId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    status,
    body: {
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
      error_codes: [code],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    },
  };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** An access token shaped like Entra's (a JWT with tid, appid, roles); the fake alone ever checks it. */
function accessToken(
  tenantId: string,
  clientId: string,
  roles: string[],
  expiresAt: number,
  defender: boolean,
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url({ typ: 'JWT', alg: 'HS256' });
  const payload = base64url({
    aud: defender ? 'https://api.securitycenter.microsoft.com' : 'https://graph.microsoft.com',
    iss: `https://sts.windows.net/${tenantId}/`,
    iat: now,
    nbf: now,
    exp: Math.floor(expiresAt / 1000),
    appid: clientId,
    idtyp: 'app',
    tid: tenantId,
    oid: randomUUID(),
    roles,
  });
  const signature = createHmac('sha256', SIGNING_KEY).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/**
 * POST /{tenant}/oauth2/v2.0/token, client credentials (grant_type, client_id, client_secret, scope
 * https://graph.microsoft.com/.default, or Defender for Endpoint's https://api.securitycenter.microsoft.com/.default),
 * answering as Entra ID does: the app's granted application permissions
 * in the token's `roles`, or AADSTS90002 (tenant unknown), 700016 (app unknown in the tenant), 65001 (not
 * consented), 7000215 (wrong secret), 7000222 (expired secret).
 */
export function handleTokenRequest(
  state: GraphFakeState,
  tenantRef: string,
  form: URLSearchParams,
): FakeReply {
  const clientId = form.get('client_id') ?? '';
  if (form.get('grant_type') !== 'client_credentials')
    return entraError(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
  const defender = form.get('scope') === DEFENDER_SCOPE;
  if (form.get('scope') !== 'https://graph.microsoft.com/.default' && !defender)
    return entraError(
      400,
      'invalid_scope',
      1002012,
      `The provided value for scope ${form.get('scope')} is not valid.`,
    );
  const tenant = state.findTenant(tenantRef);
  if (!tenant)
    return entraError(
      400,
      'invalid_request',
      90002,
      `Tenant '${tenantRef}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
    );
  const app = state.apps.get(clientId);
  const consent = tenant.consents.get(clientId);
  if (!app || consent === undefined)
    return entraError(
      400,
      'unauthorized_client',
      700016,
      `Application with identifier '${clientId}' was not found in the directory '${tenant.displayName}'. This can ` +
        'happen if the application has not been installed by the administrator of the tenant or consented to by ' +
        'any user in the tenant. You may have sent your authentication request to the wrong tenant.',
    );
  const secret = form.get('client_secret') ?? '';
  if (app.expiredSecrets.includes(secret))
    return entraError(
      401,
      'invalid_client',
      7000222,
      `The provided client secret keys for app '${clientId}' are expired.`,
    );
  if (!app.secrets.includes(secret))
    return entraError(
      401,
      'invalid_client',
      7000215,
      'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, ' +
        `not the client secret ID, for a secret added to app '${clientId}'.`,
    );
  if (consent === 'consent-missing')
    return entraError(
      400,
      'invalid_grant',
      65001,
      `The user or administrator has not consented to use the application with ID '${clientId}' named ` +
        `'${app.displayName}'. Send an interactive authorization request for this user and resource.`,
    );
  if (defender && !fakeDefender(tenant).provisioned)
    return entraError(
      400,
      'invalid_resource',
      500011,
      `The resource principal named https://api.securitycenter.microsoft.com was not found in the tenant named ` +
        `${tenant.displayName}. This can happen if the application has not been installed by the administrator ` +
        'of the tenant or consented to by any user in the tenant.',
    );
  const expiresAt = Date.now() + state.tokenLifetimeSeconds * 1000;
  // A token carries the roles of its resource only: Defender's (Machine.*) or Graph's.
  const roles = consent.roles.filter((role) => isDefenderRole(role) === defender);
  const token = accessToken(tenant.id, clientId, roles, expiresAt, defender);
  state.tokens.set(token, {
    tenantId: tenant.id,
    clientId,
    roles,
    expiresAt,
    ...(defender ? { audience: 'defender' as const } : {}),
  });
  return {
    status: 200,
    body: {
      token_type: 'Bearer',
      expires_in: state.tokenLifetimeSeconds,
      ext_expires_in: state.tokenLifetimeSeconds,
      access_token: token,
    },
  };
}
