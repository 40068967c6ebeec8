import { randomUUID } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { CloudSignInRecord } from '../../src/cloud/provider.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { DAY_MS } from '../../src/core/clock.js';
import { JobStatus } from '../../src/core/job-status.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { grantConsent, type OrganizationWithKeys } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';
import { createWebhook, type WebhookWithSecretBody } from '../webhooks/webhook-kit.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

interface RiskyPayload {
  id: string;
  event: string;
  severity: string;
  tenant: { id: string; name: string; domain: string };
  details: {
    user: string;
    riskLevel: string;
    location: string;
    ipAddress: string;
    userId: string | null;
    signInId: string;
  };
  timestamp: string;
  actionUrl: string;
}

let app: RealmApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;
let cloud: SimulatedCloud;
let webhook: WebhookWithSecretBody;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  // A database of the file's own: housekeeping runs over every organization. The sync's step and housekeeping are
  // the server's (onServer).
  ({ app, org } = await realmSuite({ jobs: true, webhooks: { allowPrivateTargets: true } }));
  cloud = app.deps.clouds as SimulatedCloud;
  webhook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/security'),
    events: ['security.*'],
  });
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function onboardCloudTenant(): Promise<{ tenantId: string; externalId: string }> {
  const slug = `r${randomUUID().slice(0, 8)}`;
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: `Risky ${slug}`,
    domains: [`${slug}.example.com`],
    seed: 777,
    employees: 30,
    hybrid: false,
  });
  await grantConsent(app, tenant.externalId, org.organization.id);
  const res = await app.graphql<{ onboardTenant: { id: string } }>(
    org.keys.write,
    'mutation ($externalId: String!) { onboardTenant(input: { externalId: $externalId }) { id } }',
    { externalId: tenant.externalId },
  );
  return { tenantId: res.body.data!.onboardTenant.id, externalId: tenant.externalId };
}

function received(tenantId: string): RiskyPayload[] {
  return receiver
    .on('/security')
    .map((request) => JSON.parse(request.body) as RiskyPayload)
    .filter((payload) => payload.tenant.id === tenantId);
}

/** Until no webhook delivery is left in the job queue: what will arrive has arrived. */
async function settle(): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ count: number }>(
        `select count(*)::int as count from graphile_worker.jobs where task_identifier = 'webhooks.deliver'`,
      );
      expect(rows[0].count).toBe(0);
    },
    { what: 'the webhook deliveries to drain' },
  );
}

describe('security.risky_signin from tenant sync', () => {
  let tenantId: string;
  let externalId: string;

  beforeAll(async () => {
    ({ tenantId, externalId } = await onboardCloudTenant());
  });

  it('on the first sync, announces each medium or high risky sign-in the cloud holds, and no other', async () => {
    const upstream = await cloud.listSignIns(externalId, null);
    const risky = upstream.filter((signIn) => signIn.riskLevel === 'high' || signIn.riskLevel === 'medium');
    expect(risky.length).toBeGreaterThan(0);
    expect((await syncAndWait(app, org, tenantId)).status).toBe(JobStatus.COMPLETED);
    await settle();
    expect(
      received(tenantId)
        .map((payload) => payload.details.signInId)
        .sort(),
    ).toEqual(risky.map((signIn) => signIn.id).sort());
  });

  it('after new upstream activity, delivers one signed event per new risky sign-in with the SPEC 6 details', async () => {
    const before = received(tenantId).length;
    app.clock.advance(60_000);
    const batch: CloudSignInRecord[] = await cloud.advance(externalId);
    const [risky] = batch.filter((signIn) => signIn.riskLevel !== 'none');
    expect(batch.filter((signIn) => signIn.riskLevel !== 'none')).toHaveLength(1);
    app.clock.advance(60_000);
    expect((await syncAndWait(app, org, tenantId)).status).toBe(JobStatus.COMPLETED);
    await settle();

    const fresh = received(tenantId).slice(before);
    expect(fresh).toHaveLength(1);
    const [payload] = fresh;
    const tenant = (await onServer(app, 'findEntity', 'Tenant', { id: tenantId })) as unknown as Tenant;
    const { rows } = await app.pool.query<{ id: string }>(
      'select id from users where tenant_id = $1 and lower(user_principal_name) = lower($2) and deleted_at is null',
      [tenantId, risky.userPrincipalName],
    );
    expect(payload).toEqual({
      id: expect.any(String) as string,
      event: 'security.risky_signin',
      severity: risky.riskLevel,
      tenant: { id: tenantId, name: tenant.name, domain: tenant.domain },
      details: {
        user: risky.userPrincipalName,
        riskLevel: risky.riskLevel,
        location: risky.location,
        ipAddress: risky.ipAddress,
        userId: rows[0].id,
        signInId: risky.id,
        signedInAt: risky.createdAt,
      },
      timestamp: app.clock.now().toISOString(),
      actionUrl: `http://app.test/tenants/${tenantId}/users/${rows[0].id}`,
    });
    const request = receiver
      .on('/security')
      .find((r) => (JSON.parse(r.body) as RiskyPayload).id === payload.id)!;
    expect(() => new StandardWebhook(webhook.secret!).verify(request.body, request.headers)).not.toThrow();
  });

  it('announces nothing when a sync finds no new sign-ins', async () => {
    const before = received(tenantId).length;
    app.clock.advance(60_000);
    expect((await syncAndWait(app, org, tenantId)).status).toBe(JobStatus.COMPLETED);
    await settle();
    expect(received(tenantId)).toHaveLength(before);
  });

  it('announces a sign-in once, even if a later sync reports it again', async () => {
    const signIns = await cloud.listSignIns(externalId, null);
    const risky = signIns.filter((signIn) => signIn.riskLevel === 'high' || signIn.riskLevel === 'medium');
    const emitted = await onServer(app, 'announceRiskySignIns', org.scope, tenantId, signIns);
    expect(risky.length).toBeGreaterThan(0);
    expect(emitted).toBe(0);
  });

  it('still announces a sign-in once after housekeeping deleted the events that announced it', async () => {
    const signIns = await cloud.listSignIns(externalId, null);
    const riskyIds = signIns
      .filter((signIn) => signIn.riskLevel === 'high' || signIn.riskLevel === 'medium')
      .map((signIn) => signIn.id)
      .sort();
    const announcedEvents = () =>
      app.pool
        .query<{ count: number }>(
          `select count(*)::int as count from domain_events where tenant_id = $1 and kind = 'security.risky_signin'`,
          [tenantId],
        )
        .then(({ rows }) => rows[0].count);
    expect(await announcedEvents()).toBe(riskyIds.length);

    const RETENTION = await onServer(app, 'housekeepingRetention');
    app.clock.advance(RETENTION.eventHistoryMs + DAY_MS);
    const swept = await onServer(app, 'runHousekeeping');
    expect(swept.events).toBeGreaterThanOrEqual(riskyIds.length);
    expect(await announcedEvents()).toBe(0);
    const { rows } = await app.pool.query<{ sign_in_id: string }>(
      'select sign_in_id from announced_sign_ins where organization_id = $1 and environment = $2 and tenant_id = $3',
      [org.scope.organizationId, org.scope.environment, tenantId],
    );
    expect(rows.map((row) => row.sign_in_id).sort()).toEqual(riskyIds);

    // The provider reports every sign-in again (as on a first sync): nothing is news.
    const before = received(tenantId).length;
    const emitted = await onServer(app, 'announceRiskySignIns', org.scope, tenantId, signIns);
    expect(emitted).toBe(0);
    await settle();
    expect(received(tenantId)).toHaveLength(before);
    expect(await announcedEvents()).toBe(0);
  });

  it('announces a sign-in reported twice in one report once', async () => {
    const { tenantId: freshTenantId, externalId: freshExternalId } = await onboardCloudTenant();
    const [risky] = (await cloud.listSignIns(freshExternalId, null)).filter(
      (signIn) => signIn.riskLevel === 'high',
    );
    const copy = { ...risky, id: `dup-${randomUUID()}` };
    const emitted = await onServer(app, 'announceRiskySignIns', org.scope, freshTenantId, [copy, copy]);
    expect(emitted).toBe(1);
  });
});
