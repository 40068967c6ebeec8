import type { Route } from 'playwright-core';
import { createOAuthClient, REDIRECT_URI, type RegisteredClient } from '../factories/oauth.js';
import { HeadlessBrowser, saveScreenshot } from '../helpers/browser.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { createLowCostMember } from '../helpers/low-cost-member.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let browser: HeadlessBrowser;
let registered: RegisteredClient;
let member: { email: string; password: string };

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), HeadlessBrowser.launch()]);
  org = await createOrganizationWithKeys(app);
  registered = await createOAuthClient(app, org.scope, { name: 'Browser PSA' });
  member = await createLowCostMember(app, org.organization.id);
}, 90_000); // Chromium starts in a few seconds alone, longer on a loaded machine
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

function authorizeUrl(state: string): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: registered.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'read:tenants',
    state,
  });
  return `${app.baseUrl}/oauth/authorize?${query.toString()}`;
}

describe('the OAuth sign-in page in a real browser', () => {
  it('signs in, Allow, and lands on the redirect URI with a code and the state', async () => {
    const page = await browser.open(authorizeUrl('browser-state-1'));
    // The client's callback is not running: answer it here, as the client's page would.
    await page.route(`${REDIRECT_URI}**`, (route: Route) => route.fulfill({ status: 200, body: 'callback' }));
    await page.getByText('Browser PSA').first().waitFor();
    await page.fill('#email', member.email);
    await page.fill('#password', member.password);
    await saveScreenshot(page, 'oauth-sign-in');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(REDIRECT_URI));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toMatch(/\S{20,}/);
    expect(landed.searchParams.get('state')).toBe('browser-state-1');
  });

  it('a wrong password stays on the page with an error, and no code is issued', async () => {
    const page = await browser.open(authorizeUrl('browser-state-2'));
    await page.fill('#email', member.email);
    await page.fill('#password', 'not the password');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.locator('#password').waitFor();
    await saveScreenshot(page, 'oauth-sign-in-refused');
    expect(page.url()).not.toContain(REDIRECT_URI);
    expect(page.url()).not.toContain('code=');
  });
});
