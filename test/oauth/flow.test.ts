import * as client from 'openid-client';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import {
  authorizeInBrowser,
  createOAuthClient,
  openIdConfiguration,
  type RegisteredClient,
} from '../factories/oauth.js';
import type { Envelope } from '../helpers/envelope.js';
import { createTenant } from '../factories/shared.js';
import { createLowCostMember } from '../helpers/low-cost-member.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let registered: RegisteredClient;
let member: { email: string; password: string };
let config: client.Configuration;

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  await createTenant(app, org.scope, { name: 'Contoso Flow' });
  member = await createLowCostMember(app, org.organization.id);
  registered = await createOAuthClient(app, org.scope);
  config = openIdConfiguration(app, registered);
});
afterAll(() => app.stop());

async function signInAndExchange(scope: string) {
  const { callback, codeVerifier, state } = await authorizeInBrowser(app, config, { scope, ...member });
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: codeVerifier,
    expectedState: state,
  });
}

const tenantsWith = (token: string) =>
  app.request<Envelope<Array<{ name: string }>>>('GET', '/v1/tenants', { key: token });

/** The error code openid-client reports for an OAuth error response. */
async function oauthErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof client.ResponseBodyError) return error.error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('the authorization code flow, driven by openid-client', () => {
  it('signs in, exchanges the code, calls the API, refreshes with rotation, revokes', async () => {
    const tokens = await signInAndExchange('read:tenants write:tenants');
    expect(tokens).toMatchObject({
      token_type: 'bearer', // oauth4webapi lower-cases the type it received ("Bearer")
      expires_in: 3600,
      scope: 'read:tenants write:tenants',
    });
    expect(tokens.access_token).toMatch(/^svc_at_[A-Za-z0-9_-]{43}$/);
    expect(tokens.refresh_token).toMatch(/^svc_rt_[A-Za-z0-9_-]{43}$/);

    const listed = await tenantsWith(tokens.access_token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t) => t.name)).toContain('Contoso Flow');

    // Refresh: a new pair; the new access token works.
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.scope).toBe('read:tenants write:tenants');
    expect((await tenantsWith(refreshed.access_token)).status).toBe(200);

    // Revoking the refresh token revokes the access tokens of its family (RFC 7009 2.1).
    await client.tokenRevocation(config, refreshed.refresh_token!);
    const revoked = await tenantsWith(refreshed.access_token);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error?.code).toBe('UNAUTHORIZED');
    expect((await tenantsWith(tokens.access_token)).status).toBe(401);
    expect(await oauthErrorOf(client.refreshTokenGrant(config, refreshed.refresh_token!))).toBe(
      'invalid_grant',
    );
  });

  it('refuses a refresh token once it has been rotated, and treats its replay as theft (family revoked)', async () => {
    const tokens = await signInAndExchange('read:tenants');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await tenantsWith(refreshed.access_token)).status).toBe(200);

    expect(await oauthErrorOf(client.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    // RFC 9700 4.14.2: the replay revokes what descends from the same authorization.
    expect((await tenantsWith(refreshed.access_token)).status).toBe(401);
    expect(await oauthErrorOf(client.refreshTokenGrant(config, refreshed.refresh_token!))).toBe(
      'invalid_grant',
    );
  });

  it('revokes a single access token and leaves its refresh token usable', async () => {
    const tokens = await signInAndExchange('read:tenants');
    await client.tokenRevocation(config, tokens.access_token);
    expect((await tenantsWith(tokens.access_token)).status).toBe(401);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await tenantsWith(refreshed.access_token)).status).toBe(200);
  });

  it('answers 200 to the revocation of an unknown token (RFC 7009 2.2)', async () => {
    await expect(client.tokenRevocation(config, 'svc_rt_not-a-token')).resolves.toBeUndefined();
  });

  it('acts in the client’s environment: a sandbox client’s token does not see live tenants', async () => {
    const live = await createTenant(app, org.liveScope, { name: 'Live Only' });
    const tokens = await signInAndExchange('read:tenants');
    expect((await app.request('GET', `/v1/tenants/${live.id}`, { key: tokens.access_token })).status).toBe(
      404,
    );
    const names = (await tenantsWith(tokens.access_token)).body.data.map((t) => t.name);
    expect(names).not.toContain('Live Only');
  });

  it('stops every token of a client when the client is revoked', async () => {
    const tokens = await signInAndExchange('read:tenants');
    const revoke = await app.graphql(
      org.keys.admin,
      'mutation($id: UUID!) { revokeOAuthClient(id: $id) { revokedAt } }',
      {
        id: registered.id,
      },
    );
    expect(revoke.body.errors).toBeUndefined();
    expect((await tenantsWith(tokens.access_token)).status).toBe(401);
    expect(await oauthErrorOf(client.refreshTokenGrant(config, tokens.refresh_token!))).toBe(
      'invalid_client',
    );
    // Later tests in this file register their own client.
    registered = await createOAuthClient(app, org.scope);
    config = openIdConfiguration(app, registered);
  });

  it('publishes the RFC 8414 metadata', async () => {
    const res = await app.request<Record<string, unknown>>('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: 'http://app.test',
      authorization_endpoint: 'http://app.test/oauth/authorize',
      token_endpoint: 'http://app.test/oauth/token',
      revocation_endpoint: 'http://app.test/oauth/revoke',
      code_challenge_methods_supported: ['S256'],
      scopes_supported: expect.arrayContaining(['read:tenants', 'admin', 'msp:read']),
    });
  });
});
