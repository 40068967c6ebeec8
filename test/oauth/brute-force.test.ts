import * as client from 'openid-client';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import {
  Browser,
  createOAuthClient,
  openIdConfiguration,
  postForm,
  REDIRECT_URI,
  type PageResponse,
  type RegisteredClient,
  type Server,
} from '../factories/oauth.js';
import { SIGN_IN_LIMITS, TOKEN_ENDPOINT_LIMITS } from '../../src/oauth/oauth.settings.js';
import { createLowCostMember } from '../helpers/low-cost-member.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';

/** Small limits for the server that shows the caps without hundreds of requests. */
const SMALL = {
  signIn: {
    perIp: { points: 8, durationSeconds: 900 },
    perAccountIp: { points: 2, durationSeconds: 900 },
    perAccount: { points: 4, durationSeconds: 900 },
  },
  token: {
    perIp: { points: 5, durationSeconds: 60 },
    perClientIp: { points: 3, durationSeconds: 900 },
    perClient: { points: 6, durationSeconds: 900 },
  },
};

// Both servers sit "behind a proxy" on loopback (trust proxy), so each request says which address it
// comes from in X-Forwarded-For. They share this file's database, hence its counters: every test
// uses its own addresses, clients and emails. The fixtures are made by the first (`app`).
let app: RealmApp;
let proxied: RealmApp;
let small: RealmApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  app = proxied = await realmApp({ trustProxy: ['loopback'] });
  small = await realmApp({ databaseUrl: app.databaseUrl, trustProxy: ['loopback'], oauthLimits: SMALL });
  org = await createOrganizationWithKeys(app);
});
afterAll(async () => {
  await Promise.all([proxied?.stop(), small?.stop()]);
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });

/** The file's sign-ins at known accounts check low-cost hashes (low-cost-member.ts): the limits are tested here. */
const signInMember = (email: string) => createLowCostMember(app, org.organization.id, { email });

function authorizeUrl(server: Server, registered: RegisteredClient): string {
  return (
    `${server.baseUrl}/oauth/authorize?` +
    new URLSearchParams({
      client_id: registered.clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'read:tenants',
    })
  );
}

/** Posts sign-ins in a row through one browser, each on the form the previous answer showed. */
async function signIns(
  server: Server,
  registered: RegisteredClient,
  browser: Browser,
  attempts: Array<{ email: string; password: string }>,
): Promise<PageResponse[]> {
  let page = await browser.get(authorizeUrl(server, registered));
  const answers: PageResponse[] = [];
  for (const attempt of attempts) {
    const answer = await browser.submit(page, { ...attempt, decision: 'allow' });
    answers.push(answer);
    page = answer.status === 302 ? await browser.get(authorizeUrl(server, registered)) : answer;
  }
  return answers;
}

const wrong = (email: string) => ({ email, password: 'guess-guess-guess' });

/** A token request as a client would post it (an unknown refresh token: invalid_grant once authenticated). */
function tokenRequest(server: Server, registered: RegisteredClient, clientSecret: string, ip: string) {
  return postForm(
    server,
    '/oauth/token',
    {
      grant_type: 'refresh_token',
      refresh_token: 'svc_rt_unknown',
      client_id: registered.clientId,
      client_secret: clientSecret,
    },
    from(ip),
  );
}

describe('sign-in limits (per account and address, per account, per address)', () => {
  it('locks an account for the address that failed 10 times, not for its owner elsewhere', async () => {
    const registered = await createOAuthClient(app, org.scope);
    const victim = await signInMember('victim@example.com');
    const bystander = await signInMember('bystander@example.com');
    const attacker = new Browser(proxied, from('198.51.100.10'));
    const perAccountIp = SIGN_IN_LIMITS.perAccountIp.points;

    const failures = await signIns(
      proxied,
      registered,
      attacker,
      Array(perAccountIp).fill(wrong(victim.email)),
    );
    expect(failures.map((a) => a.status)).toEqual(Array(perAccountIp).fill(401));

    // The attacker's address is locked out of this account, even with the right password...
    const [locked] = await signIns(proxied, registered, attacker, [victim]);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many sign-in attempts');
    expect(locked.location).toBeNull();

    // ...while the member, from their own address, signs in.
    const [owner] = await signIns(proxied, registered, new Browser(proxied, from('203.0.113.20')), [victim]);
    expect(owner.status).toBe(302);
    expect(owner.location).toContain('code=');

    // Another account from the attacker's address still signs in: the lock is per account...
    const [other] = await signIns(proxied, registered, attacker, [bystander]);
    expect(other.status).toBe(302);

    // ...until the address itself runs out of attempts (unknown emails count the same as known ones).
    const used = perAccountIp + 2;
    const remaining = SIGN_IN_LIMITS.perIp.points - used;
    const spray = await signIns(
      proxied,
      registered,
      attacker,
      Array.from({ length: remaining + 1 }, (_, i) => wrong(`nobody${i}@example.com`)),
    );
    expect(spray.slice(0, remaining).every((a) => a.status === 401)).toBe(true);
    expect(spray[remaining].status).toBe(429);
  }, 60_000);

  it('caps failures at one account from anywhere, so an attack spread over addresses is slowed', async () => {
    const registered = await createOAuthClient(app, org.scope);
    const target = await signInMember('spread@example.com');
    const { perAccountIp, perAccount } = SMALL.signIn;
    const addresses = Array.from(
      { length: perAccount.points / perAccountIp.points },
      (_, i) => `198.51.100.${50 + i}`,
    );
    for (const address of addresses) {
      const answers = await signIns(
        small,
        registered,
        new Browser(small, from(address)),
        Array(perAccountIp.points).fill(wrong(target.email)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(perAccountIp.points).fill(401));
    }
    const [fresh] = await signIns(small, registered, new Browser(small, from('203.0.113.51')), [target]);
    expect(fresh.status).toBe(429);
  }, 30_000);
});

describe('token endpoint limits', () => {
  it("counts failed client authentications per client and address: another address's client still works", async () => {
    const registered = await createOAuthClient(app, org.scope);
    const limit = TOKEN_ENDPOINT_LIMITS.perClientIp.points;
    const attacker = '198.51.100.66';

    const failures = [];
    for (let i = 0; i < limit; i++)
      failures.push((await tokenRequest(proxied, registered, 'svc_cs_wrong', attacker)).body?.error);
    expect(failures).toEqual(Array(limit).fill('invalid_client'));

    // The attacker's address is refused, even with the right secret, at both endpoints.
    const refused = await tokenRequest(proxied, registered, registered.clientSecret, attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const revoke = await postForm(
      proxied,
      '/oauth/revoke',
      { token: 'svc_rt_unknown', client_id: registered.clientId, client_secret: registered.clientSecret },
      from(attacker),
    );
    expect(revoke.status).toBe(429);

    // The client itself, from its own address, is not locked out.
    const legitimate = await tokenRequest(proxied, registered, registered.clientSecret, '203.0.113.66');
    expect(legitimate.status).toBe(400);
    expect(legitimate.body).toMatchObject({ error: 'invalid_grant' });
    const revoked = await postForm(
      proxied,
      '/oauth/revoke',
      { token: 'svc_rt_unknown', client_id: registered.clientId, client_secret: registered.clientSecret },
      from('203.0.113.66'),
    );
    expect(revoked.status).toBe(200);
  });

  it('never counts a request whose client authenticated, whatever else is wrong with it', async () => {
    const registered = await createOAuthClient(app, org.scope);
    const answers = new Set<string>();
    for (let i = 0; i < SMALL.token.perClient.points + 2; i++) {
      // A new address each time: only the client counters are shared between these requests.
      const res = await tokenRequest(small, registered, registered.clientSecret, `203.0.113.${100 + i}`);
      answers.add(`${res.status} ${res.body?.error}`);
    }
    expect([...answers]).toEqual(['400 invalid_grant']);
  });

  it('caps failures of one client from anywhere; openid-client sees 429 temporarily_unavailable', async () => {
    const registered = await createOAuthClient(app, org.scope);
    const { perClientIp, perClient } = SMALL.token;
    for (let n = 0; n < perClient.points / perClientIp.points; n++) {
      for (let i = 0; i < perClientIp.points; i++) {
        const res = await tokenRequest(small, registered, 'svc_cs_wrong', `198.51.100.${120 + n}`);
        expect(res.body?.error).toBe('invalid_client');
      }
    }
    const config = openIdConfiguration(small, registered, from('203.0.113.130'));
    const error = await client.refreshTokenGrant(config, 'svc_rt_unknown').then(
      () => null,
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(client.ResponseBodyError);
    expect(error).toMatchObject({ error: 'temporarily_unavailable', status: 429 });
    expect(Number((error as client.ResponseBodyError).response.headers.get('retry-after'))).toBeGreaterThan(
      0,
    );
  });

  it('limits every request from one address (the perIp limit, small here)', async () => {
    const address = '198.51.100.200';
    const post = (ip: string) => postForm(small, '/oauth/token', { grant_type: 'refresh_token' }, from(ip));
    const answers = [];
    for (let i = 0; i < SMALL.token.perIp.points; i++) answers.push((await post(address)).status);
    expect(answers).toEqual(Array(SMALL.token.perIp.points).fill(400));
    const refused = await post(address);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await post('198.51.100.201')).status).toBe(400);
  });
});
