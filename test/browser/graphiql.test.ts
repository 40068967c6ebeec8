import type { Page } from 'playwright-core';
import { createOrganizationWithKeys, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { HeadlessBrowser, saveScreenshot } from '../helpers/browser.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';
import { commitEvent } from '../webhooks/webhook-kit.js';
import { eventually } from '../helpers/eventually.js';

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

/** Replaces the text of a GraphiQL (CodeMirror) editor as a user would: click, select all, type. */
async function typeInto(page: Page, editorSelector: string, text: string): Promise<void> {
  await page.locator(`${editorSelector} .CodeMirror`).first().click();
  await page.keyboard.press('Control+A');
  // insertText: the characters arrive as typed text, without the editor's bracket auto-closing on keys.
  await page.keyboard.insertText(text);
}

const response = (page: Page) => page.locator('.graphiql-response .CodeMirror-code');

describe('/graphiql in a real browser, offline', () => {
  it('runs a query with a key typed into the header editor and shows the data', async () => {
    const page = await browser.open(`${app.baseUrl}/graphiql`);
    await page.locator('.graphiql-execute-button').waitFor();
    // The headers tab is open by default; the key goes in there.
    await typeInto(
      page,
      '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
      `{"Authorization": "Bearer ${org.keys.read}"}`,
    );
    await typeInto(page, '.graphiql-query-editor', 'query Tenants { tenants(limit: 5) { items { name } } }');
    await page.locator('.graphiql-execute-button').click();
    await response(page).getByText(tenantName).waitFor();
    await saveScreenshot(page, 'graphiql-query');
    expect(await response(page).innerText()).toContain(`"name": "${tenantName}"`);
  });

  it("runs a subscription over graphql-ws with the header editor's key and shows the events", async () => {
    const page = await browser.open(`${app.baseUrl}/graphiql`);
    await page.locator('.graphiql-execute-button').waitFor();
    await typeInto(
      page,
      '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
      `{"Authorization": "Bearer ${org.keys.read}"}`,
    );
    await typeInto(
      page,
      '.graphiql-query-editor',
      'subscription Live { events(filter: { events: ["user.*"] }) { event details } }',
    );
    // GraphiQL re-reads the edited document (its operations and their types) after a pause in typing; a click
    // before that would run the previous document's operation as a person could never do.
    await page.waitForTimeout(1_000);
    await page.locator('.graphiql-execute-button').click();
    // Events committed until one reaches the page: the subscription starts after the socket's handshake.
    await eventually(
      async () => {
        await commitEvent(app, org.scope, { kind: 'user.created', details: { probe: 'graphiql' } });
        expect(await response(page).innerText()).toContain('user.created');
      },
      { timeout: 10_000, interval: 250, what: 'a committed event to reach the page' },
    );
    await saveScreenshot(page, 'graphiql-subscription');
    expect(await response(page).innerText()).toContain('"event": "user.created"');
  });

  it('without a key, it opens on how to get one and sends nothing, the schema fetch included', async () => {
    const page = await browser.open(`${app.baseUrl}/graphiql`);
    const sent: string[] = [];
    page.on('request', (request) => request.url().endsWith('/graphql') && sent.push(request.method()));
    await page.locator('.graphiql-execute-button').waitFor();
    const editor = await page.locator('.graphiql-query-editor .CodeMirror-code').innerText();
    expect(editor).toContain('Paste it into the Headers tab below');
    await page.locator('.graphiql-execute-button').click();
    await response(page).getByText('No API key yet, so nothing was sent').first().waitFor();
    expect(await response(page).innerText()).not.toContain(tenantName);
    expect(sent).toEqual([]);
  });

  it('fetches the schema once a key is typed, without a reload (docs and completion work at once)', async () => {
    const page = await browser.open(`${app.baseUrl}/graphiql`);
    await page.locator('.graphiql-execute-button').waitFor();
    const introspection = page.waitForResponse(
      (res) => res.url().endsWith('/graphql') && (res.request().postData() ?? '').includes('__schema'),
      { timeout: 15_000 },
    );
    await typeInto(
      page,
      '.graphiql-editor-tool .graphiql-editor:not(.hidden)',
      `{"Authorization": "Bearer ${org.keys.read}"}`,
    );
    const answered = await introspection;
    expect(answered.status()).toBe(200);
    const body = (await answered.json()) as { data?: { __schema?: { queryType?: { name: string } } } };
    expect(body.data?.__schema?.queryType?.name).toBe('Query');
    // The documentation explorer lists the root types once the schema is there.
    await page.locator('.graphiql-sidebar button[aria-label*="Documentation"]').first().click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();
    await saveScreenshot(page, 'graphiql-schema-after-key');
  });

  it('the Apollo Sandbox landing page falls back to /graphiql when the Sandbox cannot load', async () => {
    const page = await browser.open(`${app.baseUrl}/graphql`);
    await page.waitForURL(`${app.baseUrl}/graphiql`);
    await page.locator('.graphiql-execute-button').waitFor();
    await saveScreenshot(page, 'graphql-landing-offline-fallback');
  });
});
