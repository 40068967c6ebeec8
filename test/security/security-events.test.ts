import { createOrganizationWithKeys, type OrganizationWithKeys, createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  bearer,
  connect,
  emitTestEvent,
  EVENT_FIELDS,
  waitUntilLive,
  type Connection,
  type TestSubscription,
  type WireEvent,
} from '../subscriptions/subscription-kit.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { api, securityCloud, seedSecurity, sync, waitForAction } from './security-kit.js';

/** Item 6 of issue #12: subscriptions and chat integrations receive the real alert.* and device.* events. */
let app: SharedApp;
let receiver: WebhookReceiver;
let org: OrganizationWithKeys;
const connections: Connection[] = [];

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  ({ app, org } = await sharedSuite({
    jobs: true,
    webhooks: { allowPrivateTargets: true, retryScheduleMs: [] },
  }));
});
afterAll(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await app.stop();
  await receiver.stop();
});

/** The next event that is not a liveness probe (the probes of three kinds reach `events` too). */
async function nextReal(subscription: TestSubscription): Promise<WireEvent> {
  for (;;) {
    const event = await subscription.nextEvent();
    if (!('probe' in event.details)) return event;
  }
}

it('events, alertCreated, alertUpdated and deviceIsolated deliver what sync, PATCH and isolation emit', async () => {
  const tenant = await createTenant(app, org.scope, { name: 'Fabrikam' });
  const connection = connect(app.baseUrl, bearer(org.keys.read));
  connections.push(connection);
  const all = connection.subscribe(
    'events',
    `subscription { events(filter: { events: ["alert.*", "device.*"] }) { ${EVENT_FIELDS} } }`,
  );
  const created = connection.subscribe('alertCreated', `subscription { alertCreated { ${EVENT_FIELDS} } }`);
  const updated = connection.subscribe('alertUpdated', `subscription { alertUpdated { ${EVENT_FIELDS} } }`);
  const isolated = connection.subscribe(
    'deviceIsolated',
    `subscription { deviceIsolated { ${EVENT_FIELDS} } }`,
  );
  await waitUntilLive([all, created, updated, isolated], async (probe) => {
    for (const kind of ['alert.created', 'alert.updated', 'device.isolated'])
      await emitTestEvent(app, org.scope, { kind, details: { probe } });
  });

  const device = await securityCloud(app).addDevice(tenant.externalId, { deviceName: 'LAPTOP-ADA' });
  await securityCloud(app).raiseAlert(tenant.externalId, {
    title: 'Ransomware behavior detected',
    severity: 'High',
    deviceExternalId: device.externalId,
    affectedEntity: 'LAPTOP-ADA',
  });
  await sync(app, org.scope, tenant.id);
  const raised = await nextReal(created);
  expect(raised).toMatchObject({
    event: 'alert.created',
    severity: 'HIGH',
    tenant: { id: tenant.id, name: 'Fabrikam' },
    details: { title: 'Ransomware behavior detected', affectedEntity: 'LAPTOP-ADA', status: 'New' },
  });
  expect(await nextReal(all)).toEqual(raised);

  const alertId = raised.details.alertId as string;
  await api(app, 'PATCH', `/alerts/${alertId}`, {
    key: org.keys.write,
    tenantId: tenant.id,
    body: { status: 'In Progress' },
  });
  expect(await nextReal(updated)).toMatchObject({
    event: 'alert.updated',
    details: { alertId, from: 'New', to: 'In Progress' },
  });
  expect((await nextReal(all)).event).toBe('alert.updated');

  const deviceId = raised.details.deviceId as string;
  const action = await api<{ id: string }>(app, 'POST', `/devices/${deviceId}/isolate`, {
    key: org.keys.write,
    tenantId: tenant.id,
    body: { type: 'Full isolation', reason: 'Ransomware', notes: 'Containment' },
  });
  expect(await waitForAction(app, action.body.data.id)).toBe('Succeeded');
  expect(await nextReal(isolated)).toMatchObject({
    event: 'device.isolated',
    details: { deviceId, isolationType: 'Full isolation' },
  });
  expect((await nextReal(all)).event).toBe('device.isolated');
});

it('a Slack integration connected with its default events receives alert notifications in its message format', async () => {
  const other = await createOrganizationWithKeys(app);
  const tenant = await createTenant(app, other.scope, { name: 'Contoso', domain: 'contoso.example.com' });
  const connected = await app.request('POST', '/api/settings/integrations/slack/connect', {
    key: other.keys.admin,
    body: { url: receiver.url('/slack-alerts') },
  });
  expect(connected.status).toBe(201);
  await seedSecurity(app, other.scope, tenant, {
    alerts: [
      {
        title: 'Impossible travel activity',
        severity: 'Medium',
        category: 'Suspicious sign-in',
        affectedEntity: 'ada@contoso.example.com',
      },
    ],
  });
  const [request] = await receiver.waitFor('/slack-alerts', 1);
  const message = JSON.parse(request.body) as { text: string; blocks: Array<Record<string, unknown>> };
  expect(message.text).toBe('Security alert raised · Contoso (medium)');
  expect(message.blocks[0]).toEqual({
    type: 'header',
    text: { type: 'plain_text', text: 'Security alert raised' },
  });
  const facts = JSON.stringify(message.blocks[1]);
  expect(facts).toContain('*Title:* Impossible travel activity');
  expect(facts).toContain('*Affected entity:* ada@contoso.example.com');
  expect(message.blocks[3]).toMatchObject({
    type: 'actions',
    elements: [
      {
        type: 'button',
        url: expect.stringMatching(new RegExp(`^http://app.test/tenants/${tenant.id}/security/alerts/`)),
      },
    ],
  });
});
