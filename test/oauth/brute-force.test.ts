import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import {
  Browser,
  createMember,
  createOAuthClient,
  postForm,
  REDIRECT_URI,
  type PageResponse,
  type RegisteredClient,
} from '../factories/oauth.js';
import { SIGN_IN_LIMITS, TOKEN_ENDPOINT_LIMITS } from '../../src/oauth/oauth.settings.js';
import { TestApp } from '../helpers/test-app.js';

// This file has its own database, hence its own counters: every request here comes from 127.0.0.1.
let app: TestApp;
let org: OrganizationWithKeys;
let registered: RegisteredClient;

beforeAll(async () => {
  app = await TestApp.start();
  org = await createOrganizationWithKeys(app);
  registered = await createOAuthClient(app, org.scope);
});
afterAll(() => app.stop());

const authorizeUrl = () =>
  `${app.baseUrl}/oauth/authorize?` +
  new URLSearchParams({
    client_id: registered.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'read:tenants',
  });

/** Posts sign-ins in a row through one browser, each on the form the previous answer showed. */
async function signIns(
  browser: Browser,
  attempts: Array<{ email: string; password: string }>,
): Promise<PageResponse[]> {
  let page = await browser.get(authorizeUrl());
  const answers: PageResponse[] = [];
  for (const attempt of attempts) {
    const answer = await browser.submit(page, { ...attempt, decision: 'allow' });
    answers.push(answer);
    page = answer.status === 302 ? await browser.get(authorizeUrl()) : answer;
  }
  return answers;
}

describe('brute-force protection', () => {
  it('locks one account after 10 failed sign-ins, even for the right password, then the address', async () => {
    const victim = await createMember(app, org.organization.id, { email: 'victim@example.com' });
    const bystander = await createMember(app, org.organization.id, { email: 'bystander@example.com' });
    const browser = new Browser(app);
    const perAccount = SIGN_IN_LIMITS.perAccount.points;

    const failures = await signIns(
      browser,
      Array(perAccount).fill({ email: victim.email, password: 'guess-guess-guess' }),
    );
    expect(failures.map((a) => a.status)).toEqual(Array(perAccount).fill(401));

    const [locked] = await signIns(browser, [victim]);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.html).toContain('Too many sign-in attempts');
    expect(locked.location).toBeNull();

    // Another account from the same address still signs in: the lock is per account...
    const [other] = await signIns(browser, [bystander]);
    expect(other.status).toBe(302);

    // ...until the address itself runs out of attempts (unknown emails count the same as known ones).
    const used = perAccount + 2;
    const remaining = SIGN_IN_LIMITS.perIp.points - used;
    const spray = await signIns(
      browser,
      Array.from({ length: remaining + 1 }, (_, i) => ({
        email: `nobody${i}@example.com`,
        password: 'guess-guess-guess',
      })),
    );
    expect(spray.slice(0, remaining).every((a) => a.status === 401)).toBe(true);
    expect(spray[remaining].status).toBe(429);
  }, 60_000);

  it('limits failed token requests per client, then refuses even a correct one (429 slow_down)', async () => {
    const limit = TOKEN_ENDPOINT_LIMITS.perClient.points;
    const attempt = (clientSecret: string) =>
      postForm(app, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: 'svc_rt_unknown',
        client_id: registered.clientId,
        client_secret: clientSecret,
      });
    const failures = [];
    for (let i = 0; i < limit; i++) failures.push((await attempt('svc_cs_wrong')).body?.error);
    expect(failures).toEqual(Array(limit).fill('invalid_client'));
    const refused = await attempt(registered.clientSecret);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'slow_down' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
