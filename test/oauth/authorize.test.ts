import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { MemberRole } from '../../src/members/member.enums.js';
import {
  Browser,
  createMember,
  createOAuthClient,
  MEMBER_PASSWORD,
  REDIRECT_URI,
  type RegisteredClient,
} from '../factories/oauth.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { createLowCostMember } from '../helpers/low-cost-member.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let registered: RegisteredClient;
let owner: { email: string; password: string };

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  owner = await createLowCostMember(app, org.organization.id, { email: 'ana.owner@example.com' });
  registered = await createOAuthClient(app, org.scope, {
    name: 'Acme <PSA> & "Friends"',
    redirectUris: [REDIRECT_URI, 'https://psa.example.com/oauth/callback'],
  });
});
afterAll(() => app.stop());

function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  const all: Record<string, string | undefined> = {
    client_id: registered.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'read:tenants read:users',
    state: 'xyz-123',
    ...params,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) query.set(name, value);
  return `${app.baseUrl}/oauth/authorize?${query}`;
}

const paramsOf = (location: string) => Object.fromEntries(new URL(location).searchParams);

describe('GET /oauth/authorize: the sign-in and consent page', () => {
  it("shows the client's name (escaped), the organization, and each scope asked for", async () => {
    const page = await new Browser(app).get(authorizeUrl({}));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.html).toContain('Acme &lt;PSA&gt; &amp; &quot;Friends&quot;');
    expect(page.html).not.toContain('<PSA>');
    expect(page.html).toContain(org.organization.name);
    expect(page.html).toContain('<code>read:tenants</code>');
    expect(page.html).toContain('<code>read:users</code>');
    expect(page.html).not.toContain('<code>admin</code>');
    // Not framable, not cached, and the CSRF cookie is HttpOnly and SameSite=Strict.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('set-cookie')).toMatch(/oauth_csrf=[^;]+;.*HttpOnly; SameSite=Strict/);
  });

  it('escapes a hostile state in the hidden fields', async () => {
    const page = await new Browser(app).get(authorizeUrl({ state: '"><script>alert(1)</script>' }));
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>alert(1)</script>');
    expect(page.html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it.each([
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example.com/callback' }],
    ['a redirect_uri that only starts like a registered one', { redirect_uri: `${REDIRECT_URI}/more` }],
    ['a redirect_uri with an added query', { redirect_uri: `${REDIRECT_URI}?next=x` }],
    ['no redirect_uri', { redirect_uri: undefined }],
    ['an unknown client_id', { client_id: 'svc_ci_unknown' }],
    ['no client_id', { client_id: undefined }],
  ])('answers %s with an error page, never a redirect', async (_case, params) => {
    const page = await new Browser(app).get(authorizeUrl(params));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.html).toContain('cannot be completed');
  });

  it('accepts every registered redirect_uri exactly', async () => {
    const page = await new Browser(app).get(
      authorizeUrl({ redirect_uri: 'https://psa.example.com/oauth/callback' }),
    );
    expect(page.status).toBe(200);
  });

  it.each([
    ['an unknown scope', { scope: 'read:tenants read:everything' }, 'invalid_scope'],
    ['no scope', { scope: undefined }, 'invalid_scope'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    [
      'PKCE method plain',
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
      'invalid_request',
    ],
    [
      'a malformed code_challenge',
      { code_challenge: 'short', code_challenge_method: 'S256' },
      'invalid_request',
    ],
  ])('redirects %s back to the client with error=%s and the state', async (_case, params, error) => {
    const page = await new Browser(app).get(authorizeUrl(params));
    expect(page.status).toBe(302);
    expect(page.location!.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(paramsOf(page.location!)).toMatchObject({ error, state: 'xyz-123' });
  });
});

describe('POST /oauth/authorize: signing in and consenting', () => {
  it('redirects with a code and the state after a successful sign-in', async () => {
    const browser = new Browser(app);
    const page = await browser.get(authorizeUrl({}));
    const answer = await browser.submit(page, {
      email: 'ANA.OWNER@example.com',
      password: MEMBER_PASSWORD,
      decision: 'allow',
    });
    expect(answer.status).toBe(302);
    const params = paramsOf(answer.location!);
    expect(params.code).toMatch(/^svc_ac_/);
    expect(params.state).toBe('xyz-123');
    // Stored hashed only.
    const { rows } = await app.pool.query<{ code_hash: string }>(
      'select code_hash from oauth_authorization_codes',
    );
    expect(rows.map((r) => r.code_hash)).toContain(createHash('sha256').update(params.code).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(params.code);
  });

  it('redirects with error=access_denied when the member denies (no sign-in needed)', async () => {
    const browser = new Browser(app);
    const page = await browser.get(authorizeUrl({}));
    const answer = await browser.submit(page, { decision: 'deny' });
    expect(answer.status).toBe(302);
    expect(paramsOf(answer.location!)).toMatchObject({ error: 'access_denied', state: 'xyz-123' });
  });

  it('gives the same answer for an unknown email and a wrong password (no enumeration)', async () => {
    const browser = new Browser(app);
    const page = await browser.get(authorizeUrl({}));
    const wrongPassword = await browser.submit(page, {
      email: owner.email,
      password: 'not the password',
      decision: 'allow',
    });
    // Each answer is a fresh form (new CSRF token), as a browser would post it next.
    const unknownEmail = await browser.submit(wrongPassword, {
      email: 'nobody@example.com',
      password: 'not the password',
      decision: 'allow',
    });
    for (const answer of [wrongPassword, unknownEmail]) {
      expect(answer.status).toBe(401);
      expect(answer.location).toBeNull();
      expect(answer.html).toContain('The email or password is incorrect.');
    }
    const strip = (html: string) => html.replace(/value="[^"]*"/g, '');
    expect(strip(wrongPassword.html)).toBe(strip(unknownEmail.html));
  });

  it('refuses a member of another organization with the same message', async () => {
    const other = await createOrganizationWithKeys(app);
    const stranger = await createMember(app, other.organization.id);
    const browser = new Browser(app);
    const answer = await browser.submit(await browser.get(authorizeUrl({})), {
      ...stranger,
      decision: 'allow',
    });
    expect(answer.status).toBe(401);
    expect(answer.html).toContain('The email or password is incorrect.');
  });

  it('refuses a post without the CSRF cookie (403), and one whose field does not match it', async () => {
    const page = await new Browser(app).get(authorizeUrl({}));
    const withoutCookie = await new Browser(app).submit(page, { ...owner, decision: 'allow' });
    expect(withoutCookie.status).toBe(403);
    expect(withoutCookie.location).toBeNull();

    const browser = new Browser(app);
    const own = await browser.get(authorizeUrl({}));
    const forged = await browser.submit(own, { ...owner, decision: 'allow', csrf_token: 'forged' });
    expect(forged.status).toBe(403);
  });

  it('does not let a tampered form swap in an unregistered redirect_uri', async () => {
    const browser = new Browser(app);
    const page = await browser.get(authorizeUrl({}));
    const answer = await browser.submit(page, {
      ...owner,
      decision: 'allow',
      redirect_uri: 'https://evil.example.com/callback',
    });
    expect(answer.status).toBe(400);
    expect(answer.location).toBeNull();
  });

  it('lets a plain member grant everything but admin (invalid_scope after sign-in)', async () => {
    const plain = await createLowCostMember(app, org.organization.id, { role: MemberRole.MEMBER });
    const browser = new Browser(app);
    const refused = await browser.submit(await browser.get(authorizeUrl({ scope: 'read:tenants admin' })), {
      ...plain,
      decision: 'allow',
    });
    expect(refused.status).toBe(302);
    expect(paramsOf(refused.location!)).toMatchObject({ error: 'invalid_scope', state: 'xyz-123' });

    const allowed = await browser.submit(await browser.get(authorizeUrl({ scope: 'write:users msp:read' })), {
      ...plain,
      decision: 'allow',
    });
    expect(paramsOf(allowed.location!).code).toBeDefined();
  });

  it('records when the member last signed in', async () => {
    const res = await app.graphql<{
      members: { items: Array<{ email: string; lastSignInAt: string | null }> };
    }>(org.keys.admin, '{ members { items { email lastSignInAt } } }');
    const ana = res.body.data!.members.items.find((m) => m.email === owner.email);
    expect(ana?.lastSignInAt).toBe(app.clock.now().toISOString());
  });

  it('builds on the URL openid-client makes', async () => {
    const config = new client.Configuration(
      { issuer: app.baseUrl, authorization_endpoint: `${app.baseUrl}/oauth/authorize` },
      registered.clientId,
      registered.clientSecret,
    );
    client.allowInsecureRequests(config);
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT_URI, scope: 'read:licenses' });
    const page = await new Browser(app).get(url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<code>read:licenses</code>');
  });
});
