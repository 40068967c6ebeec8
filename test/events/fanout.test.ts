import { createOrganizationWithKeys, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { commitEvent, createWebhook, waitForDeliveries } from '../webhooks/webhook-kit.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

// Events recorded in a transaction of a test's own, and a fan-out run again, go through the server's ORM
// (onServer: server-side-orm.ts).
let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  ({ app, org, other } = await sharedSuite({
    jobs: true,
    webhooks: { allowPrivateTargets: true },
    other: true,
  }));
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    `select count(*)::int as count from (${sql}) x`,
    params,
  );
  return rows[0].count;
}

/** Events seen by a path, by kind, after the queue has drained. */
async function kindsReceived(path: string): Promise<string[]> {
  await drained();
  return receiver.on(path).map((request) => (JSON.parse(request.body) as { event: string }).event);
}

const DELIVERY_JOBS = `select 1 from graphile_worker.jobs where task_identifier = 'webhooks.deliver'`;

/** Waits until no delivery job is left in the queue. */
async function drained(): Promise<void> {
  await eventually(async () => expect(await count(DELIVERY_JOBS)).toBe(0), {
    what: 'the job queue to drain',
  });
}

describe('fan-out from the outbox', () => {
  it('delivers each event to the enabled webhooks whose selection matches it, in the same organization and environment', async () => {
    const scope = org.liveScope; // a scope of its own for this test
    const tenantA = await createTenant(app, scope, { name: 'A' });
    const tenantB = await createTenant(app, scope, { name: 'B' });
    const key = org.liveAdminKey;
    await createWebhook(app, key, { url: receiver.url('/all'), events: ['*'] });
    await createWebhook(app, key, { url: receiver.url('/security'), events: ['security.*'] });
    await createWebhook(app, key, { url: receiver.url('/users'), events: ['user.created', 'user.deleted'] });
    await createWebhook(app, key, {
      url: receiver.url('/tenant-a'),
      events: ['*'],
      filter: { tenantIds: [tenantA.id] },
    });
    await createWebhook(app, key, {
      url: receiver.url('/high'),
      events: ['*'],
      filter: { minSeverity: 'high' },
    });
    await createWebhook(app, key, { url: receiver.url('/off'), events: ['*'], enabled: false });
    await createWebhook(app, other.liveAdminKey, { url: receiver.url('/other-org'), events: ['*'] });
    await createWebhook(app, org.keys.admin, { url: receiver.url('/sandbox'), events: ['*'] });

    await commitEvent(app, scope, {
      kind: 'security.risky_signin',
      severity: 'high',
      tenant: tenantA.eventRef,
    });
    await commitEvent(app, scope, {
      kind: 'user.created',
      severity: 'informational',
      tenant: tenantB.eventRef,
    });
    await commitEvent(app, scope, { kind: 'user.updated', severity: 'critical', tenant: null });

    expect((await kindsReceived('/all')).sort()).toEqual([
      'security.risky_signin',
      'user.created',
      'user.updated',
    ]);
    expect(await kindsReceived('/security')).toEqual(['security.risky_signin']);
    expect(await kindsReceived('/users')).toEqual(['user.created']);
    expect(await kindsReceived('/tenant-a')).toEqual(['security.risky_signin']);
    expect((await kindsReceived('/high')).sort()).toEqual(['security.risky_signin', 'user.updated']);
    expect(await kindsReceived('/off')).toEqual([]);
    expect(await kindsReceived('/other-org')).toEqual([]);
    expect(await kindsReceived('/sandbox')).toEqual([]);
  });

  it('fans out in the event’s transaction: a rolled-back change leaves no event, delivery or job', async () => {
    const webhook = await createWebhook(app, org.keys.admin, {
      url: receiver.url('/rollback'),
      events: ['*'],
    });
    await drained();
    const { countInside, failure } = await onServer(
      app,
      'recordEventThenFail',
      org.scope,
      {
        kind: 'user.created',
        severity: 'low',
        tenant: null,
        details: { marker: 'rolled-back' },
        actionPath: '/x',
      },
      `select count(*)::int as count from (${DELIVERY_JOBS}) x`,
    );
    // Inside the transaction the deliveries (this scope has two webhooks) and their jobs exist...
    expect(countInside).toBe(2);
    expect(failure).toContain('the change fails');
    // ...and go with it.
    expect(await count(DELIVERY_JOBS)).toBe(0);
    expect(
      await count(`select 1 from domain_events where payload->'details'->>'marker' = 'rolled-back'`),
    ).toBe(0);
    expect(await count(`select 1 from webhook_deliveries where webhook_id = $1`, [webhook.id])).toBe(0);
    await drained();
    expect(receiver.on('/rollback')).toHaveLength(0);
  });

  it('writes no delivery and queues no job where no webhook matches', async () => {
    const lonely = await createOrganizationWithKeys(app);
    await createWebhook(app, lonely.keys.admin, { url: receiver.url('/lonely'), events: ['alert.*'] });
    await drained();
    await commitEvent(app, lonely.scope, { kind: 'user.created' });
    expect(await count(DELIVERY_JOBS)).toBe(0);
    expect(
      await count('select 1 from webhook_deliveries where organization_id = $1', [
        lonely.scope.organizationId,
      ]),
    ).toBe(0);
    expect(
      await count('select 1 from domain_events where organization_id = $1', [lonely.scope.organizationId]),
    ).toBe(1);
  });

  it('does not send a new webhook the events that happened before it existed', async () => {
    const late = await createOrganizationWithKeys(app);
    await createWebhook(app, late.keys.admin, { url: receiver.url('/early'), events: ['*'] });
    const before = await commitEvent(app, late.scope);
    app.clock.advance(1000);
    const webhook = await createWebhook(app, late.keys.admin, { url: receiver.url('/late'), events: ['*'] });
    const after = await commitEvent(app, late.scope);
    await drained();
    expect(receiver.on('/late').map((r) => r.headers['webhook-id'])).toEqual([after]);
    expect(
      receiver
        .on('/early')
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual([before, after].sort());
    void webhook;
  });

  it('delivers an event once per webhook even when its fan-out runs twice', async () => {
    const twice = await createOrganizationWithKeys(app);
    const webhook = await createWebhook(app, twice.keys.admin, {
      url: receiver.url('/twice'),
      events: ['*'],
    });
    const eventId = await commitEvent(app, twice.scope);
    await drained();
    const written = await onServer(app, 'fanOutAgain', twice.scope, eventId);
    expect(written).toEqual({ webhooks: 1 });
    await drained();
    const deliveries = await waitForDeliveries(app, twice.keys.read, webhook.id, (all) => all.length > 0);
    expect(deliveries).toHaveLength(1);
    expect(receiver.on('/twice')).toHaveLength(1);
  });

  it('links the event to its item under the public URL, keeping the URL’s path prefix', async () => {
    const { event } = await onServer(
      app,
      'recordEventWith',
      other.scope,
      {
        kind: 'user.updated',
        severity: 'informational',
        tenant: null,
        details: {},
        actionPath: '/tenants/t1/users/u1',
      },
      { publicUrl: 'https://msp.example.com/admin' },
    );
    expect(event.payload.actionUrl).toBe('https://msp.example.com/admin/tenants/t1/users/u1');
  });

  it('writes every persisted property of DomainEvent: the row read back equals the event returned', async () => {
    const tenant = await createTenant(app, other.scope, { name: 'Columns' });
    const { persisted, differing } = await onServer(app, 'recordEventReadBack', other.scope, {
      kind: 'user.updated',
      severity: 'medium',
      tenant: tenant.eventRef,
      details: { quoted: `it's a \\ path?`, nested: [1, null] },
      actionPath: '/tenants/columns',
    });
    expect(persisted).toContain('occurredAt');
    expect(differing).toEqual([]); // names each property whose column differs, with both values
  });

  it('never fans a webhook.test out, even through recordEvent: it is addressed to one webhook', async () => {
    const pinged = await createOrganizationWithKeys(app);
    await createWebhook(app, pinged.keys.admin, { url: receiver.url('/ping-all'), events: ['*'] });
    await createWebhook(app, pinged.keys.admin, {
      url: receiver.url('/ping-webhooks'),
      events: ['webhook.*'],
    });
    const test = await commitEvent(app, pinged.scope, { kind: 'webhook.test' });
    const later = await commitEvent(app, pinged.scope, { kind: 'user.created' });
    await drained();
    expect(await count('select 1 from webhook_deliveries where event_id = $1', [test])).toBe(0);
    expect(receiver.on('/ping-all').map((r) => r.headers['webhook-id'])).toEqual([later]);
    expect(receiver.on('/ping-webhooks')).toHaveLength(0);
  });

  it('turns a burst of events from one transaction into a delivery per event and matching webhook', async () => {
    const burst = await createOrganizationWithKeys(app);
    await createWebhook(app, burst.keys.admin, { url: receiver.url('/burst-1'), events: ['*'] });
    await createWebhook(app, burst.keys.admin, { url: receiver.url('/burst-2'), events: ['user.*'] });
    await onServer(
      app,
      'recordEventsTogether',
      burst.scope,
      Array.from({ length: 50 }, (_, i) => ({
        kind: i % 2 === 0 ? 'user.created' : 'tenant.synced',
        severity: 'informational' as const,
        tenant: null,
        details: { i },
        actionPath: '/x',
      })),
    );
    await receiver.waitFor('/burst-1', 50);
    await receiver.waitFor('/burst-2', 25);
    await drained();
    const ids = new Set(receiver.on('/burst-1').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(50);
  });
});
