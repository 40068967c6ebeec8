import { createOrganizationWithKeys, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { HeadlessBrowser, saveScreenshot } from '../helpers/browser.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';
import { DOCS_TITLE } from '../../rest-adapter/openapi/docs-title.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let browser: HeadlessBrowser;
let tenantName: string;

beforeAll(async () => {
  [app, browser] = await Promise.all([sharedApp(), HeadlessBrowser.launch()]);
  org = await createOrganizationWithKeys(app);
  tenantName = (await createTenant(app, org.scope)).name;
}, 90_000); // Chromium starts in a few seconds alone, longer on a loaded machine
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe('/docs in a real browser, offline', () => {
  // Swagger UI renders every operation of a ~400 KB document first: slow on two busy cores.
  it('renders the reference from our own assets and runs "try it out" with a pasted key', async () => {
    const page = await browser.open(`${app.baseUrl}/docs#/tenants/listTenants`);
    expect(await page.title()).toBe(DOCS_TITLE);
    const operation = page.locator('#operations-tenants-listTenants');
    // The first render includes fetching and parsing the 1 MB document: more than one ordinary step.
    await operation.waitFor({ timeout: 45_000 });

    // Authorize: paste the key into the ApiKey (bearer) scheme of the modal.
    await page.locator('.auth-wrapper .authorize').first().click();
    const scheme = page.locator('.auth-container').filter({ hasText: 'ApiKey' });
    await scheme.locator('input').first().fill(org.keys.read);
    await scheme.locator('button.authorize').click();
    // The viewport: the authorization dialog and, below, the operation (the whole reference is some ten screens).
    await saveScreenshot(page, 'docs-authorized', { fullPage: false });
    await page.locator('button.btn-done').first().click();

    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    await operation.locator('.live-responses-table').getByText(tenantName).first().waitFor();
    await saveScreenshot(page, 'docs-try-it-out', { fullPage: false });
    expect((await status.innerText()).trim()).toBe('200');
  }, 90_000);
});
