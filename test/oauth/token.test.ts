import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import {
  authorizeInBrowser,
  createOAuthClient,
  openIdConfiguration,
  postForm,
  REDIRECT_URI,
  type RegisteredClient,
} from '../factories/oauth.js';
import { sha256 } from '../../src/oauth/oauth-secrets.js';
import type { Envelope } from '../helpers/envelope.js';
import { createLowCostMember } from '../helpers/low-cost-member.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let registered: RegisteredClient;
let member: { email: string; password: string };
let config: client.Configuration;

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  member = await createLowCostMember(app, org.organization.id);
  registered = await createOAuthClient(app, org.scope);
  config = openIdConfiguration(app, registered);
});
afterAll(() => app.stop());

const codeOf = (callback: URL) => callback.searchParams.get('code')!;

/** The exchange as a client would post it, verifier and redirect_uri overridable. */
function exchange(code: string, extra: Record<string, string> = {}) {
  return postForm(app, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    client_id: registered.clientId,
    client_secret: registered.clientSecret,
    redirect_uri: REDIRECT_URI,
    ...extra,
  });
}

const tenantsWith = (token: string) => app.request<Envelope>('GET', '/v1/tenants', { key: token });

/** Signs the member in through the real page and exchanges the code with openid-client. */
async function signInAndExchange(scope: string) {
  const { callback, codeVerifier, state } = await authorizeInBrowser(app, config, { scope, ...member });
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: codeVerifier,
    expectedState: state,
  });
}

describe('PKCE (S256)', () => {
  it('exchanges the code with the right verifier', async () => {
    const { callback, codeVerifier } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
    });
    const res = await exchange(codeOf(callback), { code_verifier: codeVerifier });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read:tenants' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a wrong verifier (invalid_grant), and the code is spent: the right one fails afterwards', async () => {
    const { callback, codeVerifier } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
    });
    const wrong = await exchange(codeOf(callback), { code_verifier: client.randomPKCECodeVerifier() });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant' });
    const right = await exchange(codeOf(callback), { code_verifier: codeVerifier });
    expect(right.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an exchange without the verifier when the authorization had a challenge', async () => {
    const { callback } = await authorizeInBrowser(app, config, { scope: 'read:tenants', ...member });
    const res = await exchange(codeOf(callback));
    expect(res.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('works without PKCE too (the client secret authenticates), and refuses a stray verifier', async () => {
    const plain = await authorizeInBrowser(app, config, { scope: 'read:tenants', ...member, pkce: false });
    expect((await exchange(codeOf(plain.callback))).status).toBe(200);
    const stray = await authorizeInBrowser(app, config, { scope: 'read:tenants', ...member, pkce: false });
    const res = await exchange(codeOf(stray.callback), { code_verifier: client.randomPKCECodeVerifier() });
    expect(res.body).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('authorization codes', () => {
  it('are single use: a second exchange fails and revokes the tokens of the first', async () => {
    const { callback, codeVerifier } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
    });
    const first = await exchange(codeOf(callback), { code_verifier: codeVerifier });
    expect(first.status).toBe(200);
    expect((await tenantsWith(first.body!.access_token)).status).toBe(200);

    const second = await exchange(codeOf(callback), { code_verifier: codeVerifier });
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({ error: 'invalid_grant' });
    expect((await tenantsWith(first.body!.access_token)).status).toBe(401);
    const refresh = await postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.body!.refresh_token,
      client_id: registered.clientId,
      client_secret: registered.clientSecret,
    });
    expect(refresh.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('expire after 60 seconds', async () => {
    const { callback, codeVerifier } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
    });
    app.clock.advance(61_000);
    const res = await exchange(codeOf(callback), { code_verifier: codeVerifier });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });

  it('are bound to their redirect_uri and their client', async () => {
    const other = await createOAuthClient(app, org.scope, { name: 'Other app' });
    const mismatch = await authorizeInBrowser(app, config, { scope: 'read:tenants', ...member, pkce: false });
    const res = await exchange(codeOf(mismatch.callback), { redirect_uri: 'http://127.0.0.1:9/other' });
    expect(res.body).toMatchObject({ error: 'invalid_request' });

    const stolen = await authorizeInBrowser(app, config, { scope: 'read:tenants', ...member, pkce: false });
    const byOther = await exchange(codeOf(stolen.callback), {
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(byOther.body).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('refresh tokens', () => {
  it('narrow the scope on request, and never widen it', async () => {
    const tokens = await signInAndExchange('read:tenants write:tenants read:users');
    const narrowed = await client.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'read:tenants' });
    expect(narrowed.scope).toBe('read:tenants');
    expect((await tenantsWith(narrowed.access_token)).status).toBe(200);
    const users = await app.request<Envelope>('GET', `/v1/tenants/${randomUUID()}/users`, {
      key: narrowed.access_token,
    });
    expect(users.status).toBe(403);
    expect(users.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required: 'read:users' } });
    // The token it was refreshed from keeps its own scopes until it expires.
    expect(
      (await app.request('GET', `/v1/tenants/${randomUUID()}/users`, { key: tokens.access_token })).status,
    ).toBe(404);

    // The narrowed family cannot get its scopes back.
    const widened = await postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: narrowed.refresh_token!,
      client_id: registered.clientId,
      client_secret: registered.clientSecret,
      scope: 'read:tenants read:users',
    });
    expect(widened.status).toBe(400);
    expect(widened.body).toMatchObject({ error: 'invalid_scope' });
  });

  it('leave the refresh token valid after a refused refresh (invalid_scope burns nothing)', async () => {
    const tokens = await signInAndExchange('read:tenants');
    const refresh = (fields: Record<string, string>) =>
      postForm(app, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: registered.clientId,
        client_secret: registered.clientSecret,
        ...fields,
      });
    for (const scope of ['read:tenants read:users', 'admin', 'read:nothing', 'read:tenants\u0001']) {
      const refused = await refresh({ scope });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_scope' });
    }
    // Nothing was spent or revoked: the access token works, and the same refresh token refreshes.
    expect((await tenantsWith(tokens.access_token)).status).toBe(200);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.scope).toBe('read:tenants');
    expect((await tenantsWith(refreshed.access_token)).status).toBe(200);
    expect((await tenantsWith(tokens.access_token)).status).toBe(200);
    // ...and that refresh did rotate it.
    expect((await refresh({})).body).toMatchObject({ error: 'invalid_grant' });
  });

  it('normalize the scope asked on refresh: repeats dropped, canonical order, stored so', async () => {
    const tokens = await signInAndExchange('read:tenants read:users');
    const res = await postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: registered.clientId,
      client_secret: registered.clientSecret,
      scope: 'read:users read:tenants  read:tenants read:users',
    });
    expect(res.status).toBe(200);
    expect(res.body!.scope).toBe('read:tenants read:users');
    const { rows } = await app.pool.query<{ scopes: string[] }>(
      'select scopes from oauth_tokens where token_hash = any($1)',
      [[sha256(res.body!.access_token), sha256(res.body!.refresh_token)]],
    );
    expect(rows.map((row) => row.scopes)).toEqual([
      ['read:tenants', 'read:users'],
      ['read:tenants', 'read:users'],
    ]);
    const duplicate = await postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: res.body!.refresh_token,
      client_id: registered.clientId,
      client_secret: registered.clientSecret,
      scope: 'read:tenants read:tenants',
    });
    expect(duplicate.body).toMatchObject({ scope: 'read:tenants' });
  });

  it('expire after 30 days', async () => {
    const tokens = await signInAndExchange('read:tenants');
    app.clock.advance(60 * 60 * 1000 + 1000);
    expect((await tenantsWith(tokens.access_token)).status).toBe(401); // access tokens live 1 h
    app.clock.advance(30 * 24 * 60 * 60 * 1000);
    const res = await postForm(app, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
      client_id: registered.clientId,
      client_secret: registered.clientSecret,
    });
    expect(res.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('expired'),
    });
  });
});

describe('client authentication and errors (RFC 6749 5.2)', () => {
  it.each([
    ['a wrong client_secret', { client_secret: 'svc_cs_wrong' }, 'invalid_client'],
    ['an unknown client_id', { client_id: 'svc_ci_unknown' }, 'invalid_client'],
    ['no client_secret (and no PKCE verifier)', { client_secret: '' }, 'invalid_client'],
    // Issue #32 item 10: a grant we support for no client is unsupported, not unauthorized.
    ['the password grant', { grant_type: 'password' }, 'unsupported_grant_type'],
    ['the client_credentials grant', { grant_type: 'client_credentials' }, 'unsupported_grant_type'],
    ['an unknown grant_type', { grant_type: 'urn:example:unknown' }, 'unsupported_grant_type'],
    ['an unknown code', { code: 'svc_ac_unknown' }, 'invalid_grant'],
  ])('answers %s with %s as JSON', async (_case, fields, error) => {
    const res = await exchange('svc_ac_unknown', fields);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toMatchObject({ error, error_description: expect.any(String) });
  });

  it('accepts client_secret_basic as well', async () => {
    const { callback } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
      pkce: false,
    });
    const basic = Buffer.from(`${registered.clientId}:${registered.clientSecret}`).toString('base64');
    const res = await postForm(
      app,
      '/oauth/token',
      { grant_type: 'authorization_code', code: codeOf(callback), redirect_uri: REDIRECT_URI },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(200);
  });

  it('refuses a JSON body (the token endpoint is form-encoded)', async () => {
    const res = await fetch(`${app.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('authenticates the client at the revocation endpoint (401 invalid_client)', async () => {
    const res = await postForm(app, '/oauth/revoke', {
      token: 'svc_rt_whatever',
      client_id: registered.clientId,
      client_secret: 'svc_cs_wrong',
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'invalid_client' });
  });

  it("does not let a client revoke another client's token", async () => {
    const other = await createOAuthClient(app, org.scope, { name: 'Meddler' });
    const { callback, codeVerifier } = await authorizeInBrowser(app, config, {
      scope: 'read:tenants',
      ...member,
    });
    const tokens = (await exchange(codeOf(callback), { code_verifier: codeVerifier })).body!;
    const res = await postForm(app, '/oauth/revoke', {
      token: tokens.refresh_token,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    });
    expect(res.status).toBe(200);
    expect((await tenantsWith(tokens.access_token)).status).toBe(200);
  });
});
