import type { Envelope } from '../helpers/envelope.js';
import { createOrganizationWithKeys, type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';
import { commitEvent, type WebhookBody } from '../webhooks/webhook-kit.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';

type IntegrationBody = ItemOf<'listIntegrations'>;

let app: SharedApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  app = await sharedApp({ jobs: true, webhooks: { allowPrivateTargets: true, retryScheduleMs: [] } });
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function list(key: string, base = '/api'): Promise<IntegrationBody[]> {
  const res = await app.request<Envelope<IntegrationBody[]>>('GET', `${base}/settings/integrations`, { key });
  expect(res.status).toBe(200);
  return res.body.data;
}

function connect(key: string, type: string, body: unknown) {
  return app.request<Envelope<DataOf<'connectIntegration'>>>(
    'POST',
    `/api/settings/integrations/${type}/connect`,
    {
      key,
      body,
    },
  );
}

async function rows(table: string, organizationId: string): Promise<number> {
  const { rows: result } = await app.pool.query<{ count: number }>(
    `select count(*)::int as count from ${table} where organization_id = $1`,
    [organizationId],
  );
  return result[0].count;
}

async function settled(org: OrganizationWithKeys, type: string): Promise<IntegrationBody> {
  return eventually(
    async () => {
      const found = (await list(org.keys.read)).find((integration) => integration.type === type)!;
      expect(found.lastDelivery).toBeTruthy();
      expect(found.lastDelivery!.status).not.toBe('Pending');
      return found;
    },
    { what: `a finished delivery of ${type}` },
  );
}

describe('GET /api/settings/integrations', () => {
  it('lists webhook, slack and teams, none connected, with the list envelope (also under /v1/api)', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await app.request<Envelope<IntegrationBody[]>>('GET', '/api/settings/integrations', {
      key: org.keys.read,
    });
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 3 });
    expect(res.body.data.map((i) => [i.type, i.name, i.connected, i.status])).toEqual([
      ['webhook', 'Webhook', false, 'Not Connected'],
      ['slack', 'Slack', false, 'Not Connected'],
      ['teams', 'Microsoft Teams', false, 'Not Connected'],
    ]);
    expect(await list(org.keys.read, '/v1/api')).toEqual(res.body.data);
  });
});

describe('the webhook integration', () => {
  it('creates a webhook (secret shown once), lists it as Connected, and refuses a second connect', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'webhook', {
      url: receiver.url('/integration-webhook'),
      events: ['user.*'],
      headers: { 'X-Token': 't' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'webhook',
      connected: true,
      status: 'Connected',
      url: receiver.url('/integration-webhook'),
      events: ['user.*'],
      connectedAt: app.clock.now().toISOString(),
      lastDelivery: null,
    });
    expect(res.body.data.secret).toMatch(/^whsec_/);
    const webhook = await app.request<Envelope<WebhookBody>>(
      'GET',
      `/v1/webhooks/${res.body.data.webhookId}`,
      {
        key: org.keys.admin,
      },
    );
    expect(webhook.body.data).toMatchObject({ events: ['user.*'], headers: { 'X-Token': 't' } });

    const again = await connect(org.keys.admin, 'webhook', { url: receiver.url('/again') });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('CONFLICT');

    await commitEvent(app, org.scope, { kind: 'user.created' });
    const listed = await settled(org, 'webhook');
    expect(listed.lastDelivery).toMatchObject({
      event: 'user.created',
      status: 'Succeeded',
      statusCode: 200,
    });
    expect(listed).not.toHaveProperty('secret');
  });
});

describe('Slack', () => {
  it('posts a readable message {text, blocks} for the chosen events', async () => {
    const org = await createOrganizationWithKeys(app);
    const tenant = await createTenant(app, org.scope, { name: 'Fabrikam', domain: 'fabrikam.example.com' });
    const res = await connect(org.keys.admin, 'slack', {
      url: receiver.url('/slack'),
      events: ['security.*'],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.secret).toBeNull();

    await commitEvent(app, org.scope, { kind: 'user.created' }); // not chosen
    await commitEvent(app, org.scope, {
      kind: 'security.risky_signin',
      severity: 'high',
      tenant: tenant.eventRef,
      details: {
        user: 'ada@fabrikam.example.com',
        riskLevel: 'high',
        location: 'Lagos, NG',
        ipAddress: '41.58.1.2',
      },
      actionPath: `/tenants/${tenant.id}/users/u1`,
    });
    const [request] = await receiver.waitFor('/slack', 1);
    const message = JSON.parse(request.body) as { text: string; blocks: Array<Record<string, unknown>> };
    expect(message.text).toBe('Risky sign-in detected · Fabrikam (high)');
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Risky sign-in detected' },
    });
    expect(JSON.stringify(message.blocks[1])).toContain('*User:* ada@fabrikam.example.com');
    expect(JSON.stringify(message.blocks[1])).toContain('*IP address:* 41.58.1.2');
    expect(JSON.stringify(message.blocks[1])).toContain('*Tenant:* Fabrikam (fabrikam.example.com)');
    expect(message.blocks[3]).toMatchObject({
      type: 'actions',
      elements: [{ type: 'button', url: `http://app.test/tenants/${tenant.id}/users/u1` }],
    });
    expect((await settled(org, 'slack')).lastDelivery).toMatchObject({
      event: 'security.risky_signin',
      status: 'Succeeded',
    });
    expect(receiver.on('/slack')).toHaveLength(1);
  });

  it.each([
    ['a URL of another host', { url: 'https://example.com/services/T0/B0/x' }, 'url'],
    ['a Slack host without https', { url: 'http://hooks.slack.com/services/T0/B0/x' }, 'url'],
    ['a Slack host but not a webhook path', { url: 'https://hooks.slack.com/other' }, 'url'],
    ['a services path without team, bot and token', { url: 'https://hooks.slack.com/services/a' }, 'url'],
    ['a services path without its token', { url: 'https://hooks.slack.com/services/T0AB/B0CD' }, 'url'],
    ['a services path in the wrong order', { url: 'https://hooks.slack.com/services/B0CD/T0AB/xyz' }, 'url'],
    ['a services path with more segments', { url: 'https://hooks.slack.com/services/T0/B0/x/y' }, 'url'],
    ['a workflows path of the wrong shape', { url: 'https://hooks.slack.com/workflows/whatever' }, 'url'],
    ['custom headers', { url: 'https://hooks.slack.com/services/T0/B0/x', headers: { A: 'b' } }, 'headers'],
    [
      'an unknown event kind',
      { url: 'https://hooks.slack.com/services/T0/B0/x', events: ['nope'] },
      'events[0]',
    ],
    ['no URL', {}, 'url'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_case, body, field) => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'slack', body);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect((res.body.error?.details.fields as Array<{ field: string }>).map((f) => f.field)).toContain(field);
    expect(await rows('webhooks', org.organization.id)).toBe(0);
    expect(await rows('integrations', org.organization.id)).toBe(0);
  });

  it.each([
    'https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/aBcDeFgHiJkLmNoPqRsTuVwX',
    'https://hooks.slack.com/workflows/T01ABCDEF/A03MNOPQR/123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwX',
    'https://hooks.slack.com/triggers/E01ABCDEF/1234567890123/0123456789abcdef0123456789abcdef',
    'https://hooks.slack-gov.com/services/T01ABCDEF/B02GHIJKL/aBcDeFgHiJkLmNoPqRsTuVwX',
  ])('accepts the Slack URL %s', async (url) => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'slack', { url, events: ['restore.failed'] });
    expect(res.status).toBe(201);
  });

  it('accepts a real Slack incoming-webhook URL and shows only its host and last characters', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'slack', {
      url: 'https://hooks.slack.com/services/T000/B000/XXXXsecretXXXXabcd',
      events: ['restore.failed'],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toBe('https://hooks.slack.com/…abcd');
    // Slack's webhook is the integration's, not one of /v1/webhooks.
    const webhooks = await app.request<Envelope<WebhookBody[]>>('GET', '/v1/webhooks', {
      key: org.keys.read,
    });
    expect(webhooks.body.data).toEqual([]);
    const direct = await app.request('GET', `/v1/webhooks/${res.body.data.webhookId}`, {
      key: org.keys.read,
    });
    expect(direct.status).toBe(404);
  });
});

describe('Microsoft Teams', () => {
  it('posts an Adaptive Card message', async () => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'teams', {
      url: receiver.url('/teams'),
      events: ['alert.created'],
    });
    expect(res.status).toBe(201);
    await commitEvent(app, org.scope, {
      kind: 'alert.created',
      severity: 'medium',
      details: { title: 'Suspicious inbox rule', category: 'Phishing' },
      actionPath: '/security/alerts/a1',
    });
    const [request] = await receiver.waitFor('/teams', 1);
    const message = JSON.parse(request.body) as {
      type: string;
      attachments: Array<{
        contentType: string;
        content: { type: string; body: Array<Record<string, unknown>>; actions: unknown[] };
      }>;
    };
    expect(message.type).toBe('message');
    const card = message.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content.type).toBe('AdaptiveCard');
    expect(card.content.body[0]).toMatchObject({ type: 'TextBlock', text: 'Security alert raised' });
    expect(card.content.body[1]).toEqual({
      type: 'FactSet',
      facts: [
        { title: 'Severity', value: 'medium' },
        { title: 'Title', value: 'Suspicious inbox rule' },
        { title: 'Category', value: 'Phishing' },
      ],
    });
    expect(card.content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open in MSP Admin', url: 'http://app.test/security/alerts/a1' },
    ]);
  });

  it.each([
    ['https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi', 201],
    ['https://prod-01.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke', 201],
    ['https://hooks.slack.com/services/T/B/C', 400],
    ['https://webhook.office.com.evil.example/x', 400],
  ])('checks the URL %s → %i', async (url, status) => {
    const org = await createOrganizationWithKeys(app);
    const res = await connect(org.keys.admin, 'teams', { url, events: ['restore.failed'] });
    expect(res.status).toBe(status);
  });
});

describe('disconnecting', () => {
  it('deletes the webhook with its deliveries and attempts, and lists the type as Not Connected', async () => {
    const org = await createOrganizationWithKeys(app);
    await connect(org.keys.admin, 'teams', { url: receiver.url('/teams-bye'), events: ['*'] });
    await commitEvent(app, org.scope);
    await settled(org, 'teams');
    expect(await rows('webhook_attempts', org.organization.id)).toBe(1);

    const refused = await app.request('DELETE', '/api/settings/integrations/teams', { key: org.keys.write });
    expect(refused.status).toBe(403);
    const res = await app.request<Envelope<IntegrationBody>>(
      'DELETE',
      '/v1/api/settings/integrations/teams',
      {
        key: org.keys.admin,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'teams',
      connected: false,
      status: 'Not Connected',
      webhookId: null,
    });
    for (const table of ['integrations', 'webhooks', 'webhook_deliveries', 'webhook_attempts'])
      expect([table, await rows(table, org.organization.id)]).toEqual([table, 0]);
    const again = await app.request('DELETE', '/api/settings/integrations/teams', { key: org.keys.admin });
    expect(again.status).toBe(404);
  });

  it('answers 404 for an unknown type on every route', async () => {
    const org = await createOrganizationWithKeys(app);
    const connectUnknown = await connect(org.keys.admin, 'discord', { url: receiver.url('/x') });
    expect(connectUnknown.status).toBe(404);
    expect(connectUnknown.body.error?.code).toBe('NOT_FOUND');
    const disconnectUnknown = await app.request('DELETE', '/api/settings/integrations/discord', {
      key: org.keys.admin,
    });
    expect(disconnectUnknown.status).toBe(404);
    // The GraphQL enum name is not the REST spelling: /SLACK is as unknown as /discord.
    const upperCase = await connect(org.keys.admin, 'SLACK', {
      url: 'https://hooks.slack.com/services/T0/B0/x',
    });
    expect(upperCase.status).toBe(404);
  });

  it('keeps organizations apart: another organization sees nothing connected and cannot disconnect it', async () => {
    const org = await createOrganizationWithKeys(app);
    const other = await createOrganizationWithKeys(app);
    await connect(org.keys.admin, 'webhook', { url: receiver.url('/mine'), events: ['*'] });
    expect((await list(other.keys.read)).every((integration) => !integration.connected)).toBe(true);
    const res = await app.request('DELETE', '/api/settings/integrations/webhook', { key: other.keys.admin });
    expect(res.status).toBe(404);
    expect((await list(org.keys.read)).find((i) => i.type === 'webhook')?.connected).toBe(true);
  });

  it('a connected integration’s status follows its webhook (Disabled after 410)', async () => {
    const org = await createOrganizationWithKeys(app);
    receiver.respondWith((request) => ({ status: request.path === '/slack-archived' ? 410 : 200 }));
    await connect(org.keys.admin, 'slack', { url: receiver.url('/slack-archived'), events: ['*'] });
    await commitEvent(app, org.scope);
    const listed = await settled(org, 'slack');
    expect(listed).toMatchObject({
      connected: true,
      status: 'Disabled',
      lastDelivery: { status: 'Failed', statusCode: 410 },
    });
    receiver.respondWith(() => ({ status: 200 }));
  });
});

describe('GraphQL', () => {
  it('lists, connects and disconnects, with the same checks', async () => {
    const org = await createOrganizationWithKeys(app);
    const listed = await app.graphql<{ integrations: { items: Array<{ type: string; status: string }> } }>(
      org.keys.read,
      '{ integrations { items { type status } } }',
    );
    expect(listed.body.data!.integrations.items).toEqual([
      { type: 'WEBHOOK', status: 'NOT_CONNECTED' },
      { type: 'SLACK', status: 'NOT_CONNECTED' },
      { type: 'TEAMS', status: 'NOT_CONNECTED' },
    ]);
    const CONNECT = `mutation ($type: IntegrationType!, $input: ConnectIntegrationInput!) {
      connectIntegration(type: $type, input: $input) { type connected status events secret }
    }`;
    const bad = await app.graphql(org.keys.admin, CONNECT, {
      type: 'SLACK',
      input: { url: 'https://example.com/x' },
    });
    expect(bad.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'url', problem: expect.stringContaining('Slack') as string }] },
    });
    const byWrite = await app.graphql(org.keys.write, CONNECT, {
      type: 'WEBHOOK',
      input: { url: receiver.url('/g') },
    });
    expect(byWrite.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const connected = await app.graphql<{
      connectIntegration: { events: string[]; status: string; secret: string };
    }>(org.keys.admin, CONNECT, { type: 'WEBHOOK', input: { url: receiver.url('/g') } });
    expect(connected.body.data!.connectIntegration).toMatchObject({ events: ['*'], status: 'CONNECTED' });
    expect(connected.body.data!.connectIntegration.secret).toMatch(/^whsec_/);
    const gone = await app.graphql<{ disconnectIntegration: { connected: boolean } }>(
      org.keys.admin,
      'mutation { disconnectIntegration(type: WEBHOOK) { connected } }',
    );
    expect(gone.body.data!.disconnectIntegration.connected).toBe(false);
    const twice = await app.graphql(
      org.keys.admin,
      'mutation { disconnectIntegration(type: WEBHOOK) { connected } }',
    );
    expect(twice.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
