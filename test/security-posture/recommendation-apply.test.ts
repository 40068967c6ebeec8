import { DAY_MS } from '../../src/core/clock.js';
import { recommendationApplyTask } from '../../src/recommendations/recommendation-apply.task.js';
import { RECOMMENDATION_APPLY_TASK } from '../../src/recommendations/recommendation-apply.service.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import { type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { postureFootprint, postureTenant, simulatedCloud, tenantMissing } from './posture-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import { gatedProvider } from '../helpers/cloud-gate.js';
import { eventually } from '../helpers/eventually.js';

type OperationBody = DataOf<'getRecommendationApplyOperation'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

/** What an apply could touch, in this file's two organizations. */
const footprint = () => postureFootprint(app, [org.organization.id, other.organization.id]);

const apply = (id: string, body: unknown, headers: Record<string, string> = {}, key = org.keys.write) =>
  app.request<Envelope<OperationBody>>('POST', `/api/security/recommendations/${id}/apply`, {
    key,
    body,
    headers,
  });
const operation = (id: string) =>
  app.request<Envelope<OperationBody>>('GET', `/api/security/recommendations/apply-operations/${id}`, {
    key: org.keys.read,
  });
const runJob = (operationId: string) => onServer(app, 'applyRecommendation', org.scope, operationId);

async function controlOf(tenant: Tenant, controlId: string) {
  const controls = await simulatedCloud(app).listSecurityControls(tenant.externalId);
  return controls.find((control) => control.controlId === controlId)!;
}

describe('POST /api/security/recommendations/:id/apply', () => {
  it('is not Succeeded when the fix could not be applied: one unsupported tenant of two, then all', async () => {
    const open = await postureTenant(app, org.scope, ['safe-links']);
    const unsupported = await postureTenant(app, org.scope, ['safe-links']);
    await simulatedCloud(app).posture.setControl(unsupported.externalId, 'safe-links', {
      applySupported: false,
    });
    const some = await apply('safe-links', {
      tenantIds: [open.id, unsupported.id],
      dryRun: false,
      notifyAdmins: false,
    });
    await runJob(some.body.data.id!);
    expect((await operation(some.body.data.id!)).body.data).toMatchObject({ status: 'Partially Failed' });

    const only = await postureTenant(app, org.scope, ['safe-links']);
    await simulatedCloud(app).posture.setControl(only.externalId, 'safe-links', { applySupported: false });
    const none = await apply('safe-links', { tenantIds: [only.id], dryRun: false, notifyAdmins: false });
    await runJob(none.body.data.id!);
    expect((await operation(none.body.data.id!)).body.data).toMatchObject({
      status: 'Failed',
      failureReason: 'Nothing was applied: 1 tenant(s) do not support it',
    });
  });

  it('applies to 50 tenants as a job: 49 applied and 1 failed with its reason, reported as Partially Failed', async () => {
    const tenants: Tenant[] = [];
    for (let i = 0; i < 50; i++) tenants.push(await tenantMissing(app, org.scope, 'unified-audit-log'));
    const broken = tenants[17];
    await simulatedCloud(app).posture.setControl(broken.externalId, 'unified-audit-log', {
      applyFailure: 'Audit log licence missing (E3 or above required)',
    });

    const res = await apply('unified-audit-log', {
      tenantIds: tenants.map((t) => t.id),
      dryRun: false,
      notifyAdmins: false,
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'Queued', progress: 0, dryRun: false });
    expect(res.body.data.counts).toMatchObject({ total: 50, pending: 50 });
    const operationId = res.body.data.id!;
    const { rows: states } = await app.pool.query(
      `select distinct status from tenant_recommendations where recommendation_id = 'unified-audit-log' and tenant_id = any($1)`,
      [tenants.map((t) => t.id)],
    );
    expect(states).toEqual([{ status: 'In Progress' }]);
    const { rows: jobs } = await app.pool.query(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier = $1`,
      [RECOMMENDATION_APPLY_TASK],
    );
    expect(jobs[0].n).toBeGreaterThanOrEqual(1);

    await runJob(operationId);
    const done = await operation(operationId);
    expect(done.body.data).toMatchObject({ status: 'Partially Failed', progress: 100, failureReason: null });
    expect(done.body.data.counts).toMatchObject({ total: 50, applied: 49, failed: 1, pending: 0 });
    expect(done.body.data.results.find((r) => r.tenantId === broken.id)).toMatchObject({
      outcome: 'failed',
      reason: 'Audit log licence missing (E3 or above required)',
    });
    expect((await controlOf(tenants[0], 'unified-audit-log')).compliant).toBe(true);
    expect((await controlOf(broken, 'unified-audit-log')).compliant).toBe(false);
    const { rows: after } = await app.pool.query(
      `select compliant, status, count(*)::int as n from tenant_recommendations
        where recommendation_id = 'unified-audit-log' and tenant_id = any($1) group by compliant, status order by n`,
      [tenants.map((t) => t.id)],
    );
    expect(after).toEqual([
      { compliant: false, status: 'Open', n: 1 },
      { compliant: true, status: 'Open', n: 49 },
    ]);
    // Without notifyAdmins, only the tenants that changed are announced.
    const { rows: events } = await app.pool.query(
      `select count(*)::int as n from domain_events where kind = 'recommendation.applied' and payload->'details'->>'operationId' = $1`,
      [operationId],
    );
    expect(events).toEqual([{ n: 49 }]);

    // A retried job finds nothing left to do: nothing is applied or announced twice.
    await runJob(operationId);
    const { rows: again } = await app.pool.query(
      `select count(*)::int as n from domain_events where kind = 'recommendation.applied' and payload->'details'->>'operationId' = $1`,
      [operationId],
    );
    expect(again).toEqual([{ n: 49 }]);
  }, 120_000); // 50 tenants set up one by one: slow on a loaded machine

  it('notifyAdmins announces every tenant outcome, failures included, in recommendation.applied', async () => {
    const good = await tenantMissing(app, org.scope, 'mailbox-auditing');
    const bad = await tenantMissing(app, org.scope, 'mailbox-auditing');
    await simulatedCloud(app).posture.setControl(bad.externalId, 'mailbox-auditing', {
      applyFailure: 'Tenant is read-only',
    });
    const res = await apply('mailbox-auditing', { tenantIds: [good.id, bad.id], notifyAdmins: true });
    await runJob(res.body.data.id!);
    const { rows } = await app.pool.query(
      `select tenant_id, severity, payload->'details' as details from domain_events
        where kind = 'recommendation.applied' and payload->'details'->>'operationId' = $1 order by severity`,
      [res.body.data.id],
    );
    expect(rows).toEqual([
      {
        tenant_id: good.id,
        severity: 'informational',
        details: expect.objectContaining({
          outcome: 'applied',
          reason: null,
          notifyAdmins: true,
          recommendationId: 'mailbox-auditing',
        }),
      },
      {
        tenant_id: bad.id,
        severity: 'medium',
        details: expect.objectContaining({
          outcome: 'failed',
          reason: 'Tenant is read-only',
          notifyAdmins: true,
        }),
      },
    ]);
    expect((await operation(res.body.data.id!)).body.data.status).toBe('Partially Failed');
  });

  it('the same Idempotency-Key twice applies once; another body with that key is 409; after 24 h it is free', async () => {
    const tenant = await tenantMissing(app, org.scope, 'dlp-policies');
    const body = { tenantIds: [tenant.id], notifyAdmins: false };
    const headers = { 'Idempotency-Key': 'apply-dlp-0001' };
    const firstTry = await apply('dlp-policies', body, headers);
    const secondTry = await apply('dlp-policies', body, headers);
    expect(secondTry.status).toBe(202);
    expect(secondTry.body.data.id).toBe(firstTry.body.data.id);
    const { rows } = await app.pool.query(
      `select count(*)::int as n from recommendation_apply_operations where idempotency_key = 'apply-dlp-0001'`,
    );
    expect(rows).toEqual([{ n: 1 }]);
    const misuse = await apply('dlp-policies', { ...body, notifyAdmins: true }, headers);
    expect(misuse.status).toBe(409);
    expect(misuse.body.error?.details).toEqual({
      idempotencyKey: 'apply-dlp-0001',
      operationId: firstTry.body.data.id,
    });

    app.clock.advance(DAY_MS + 1);
    const later = await apply('dlp-policies', body, headers);
    expect(later.status).toBe(202);
    expect(later.body.data.id).not.toBe(firstTry.body.data.id);
  });

  it('replays "apply to every open tenant" with its first operation, not 409 (issue #32 item 7)', async () => {
    await tenantMissing(app, org.scope, 'attack-surface-reduction');
    const headers = { 'Idempotency-Key': 'apply-everywhere-0001' };
    const firstTry = await apply('attack-surface-reduction', {}, headers);
    expect(firstTry.status).toBe(202);
    // Its tenants are In Progress now: without the key first, the replay found no Open tenant (409).
    const secondTry = await apply('attack-surface-reduction', {}, headers);
    expect(secondTry.status).toBe(202);
    expect(secondTry.body.data.id).toBe(firstTry.body.data.id);
  });

  it('refuses foreign tenants (404 naming them), an empty list (400), a Read key (403), an unknown id (404)', async () => {
    const mine = await tenantMissing(app, org.scope, 'tamper-protection');
    const theirs = await tenantMissing(app, other.scope, 'tamper-protection');
    const before = await footprint();
    const foreign = await apply('tamper-protection', { tenantIds: [mine.id, theirs.id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.details).toMatchObject({ ids: [theirs.id] });
    const empty = await apply('tamper-protection', { tenantIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.details.fields).toEqual([{ field: 'tenantIds', problem: expect.any(String) }]);
    const badType = await apply('tamper-protection', { tenantIds: [mine.id], dryRun: 'yes' });
    expect(badType.status).toBe(400);
    expect(badType.body.error?.details.fields).toEqual([{ field: 'dryRun', problem: expect.any(String) }]);
    expect((await apply('tamper-protection', { tenantIds: [mine.id] }, {}, org.keys.read)).status).toBe(403);
    expect((await apply('no-such-recommendation', { tenantIds: [mine.id] })).status).toBe(404);
    expect(await footprint()).toEqual(before);
  });

  it('through GraphQL: apply, then read the operation; a job that gives up marks it Failed with the reason', async () => {
    const tenant = await tenantMissing(app, org.scope, 'attack-surface-reduction');
    const res = await app.graphql<{ applySecurityRecommendation: { id: string; status: string } }>(
      org.keys.write,
      `mutation { applySecurityRecommendation(id: "attack-surface-reduction", tenantIds: ["${tenant.id}"]) { id status } }`,
    );
    const { id, status } = res.body.data!.applySecurityRecommendation;
    expect(status).toBe('QUEUED');
    await onServer(app, 'giveUpRecommendationApply', org.scope, id, 'database unavailable');
    const read = await app.graphql<{
      recommendationApplyOperation: {
        status: string;
        failureReason: string;
        results: Array<{ outcome: string; reason: string }>;
      };
    }>(
      org.keys.read,
      `{ recommendationApplyOperation(id: "${id}") { status failureReason results { outcome reason } } }`,
    );
    expect(read.body.data?.recommendationApplyOperation).toEqual({
      status: 'FAILED',
      failureReason: 'database unavailable',
      results: [{ outcome: 'FAILED', reason: 'The apply job gave up: database unavailable' }],
    });
    const { rows } = await app.pool.query(
      `select status from tenant_recommendations where tenant_id = $1 and recommendation_id = 'attack-surface-reduction'`,
      [tenant.id],
    );
    expect(rows).toEqual([{ status: 'Open' }]);
    const foreign = await app.graphql(
      other.keys.read,
      `{ recommendationApplyOperation(id: "${id}") { id } }`,
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect(await onServer(app, 'taskNames')).toContain(RECOMMENDATION_APPLY_TASK);
    expect(recommendationApplyTask).toBeInstanceOf(Function);
  });
});

describe('a recommendation apply killed between a tenant’s cloud apply and its save (issue #34 item 1)', () => {
  it('the resumed run records that tenant as Applied, with its event, from the request key', async () => {
    const tenants: Tenant[] = [];
    for (let i = 0; i < 4; i++) tenants.push(await tenantMissing(app, org.scope, 'unified-audit-log'));
    const res = await apply('unified-audit-log', { tenantIds: tenants.map((t) => t.id), dryRun: false });
    expect(res.status).toBe(202);
    const id = res.body.data.id!;
    // The first run applies the second tenant at the cloud, then "dies" before saving it (held for good).
    let applies = 0;
    const dying = gatedProvider(
      app.deps.clouds,
      () => undefined,
      (path) =>
        /applySecurityControl$/.test(path) && ++applies === 2 ? new Promise(() => undefined) : undefined,
    );
    void onServer(app, 'applyRecommendation', org.scope, id, dying).catch(() => undefined);
    await eventually(async () => expect(applies).toBe(2));
    await runJob(id);

    const done = (await operation(id)).body.data;
    expect(done.status).toBe('Succeeded');
    // The old run asked again without a key: "already compliant", and no event for a tenant it had applied.
    expect(done.results.map((result) => result.outcome)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
    ]);
    const { rows } = await app.pool.query<{ n: string }>(
      `select count(*) as n from domain_events where kind = 'recommendation.applied' and payload->'details'->>'operationId' = $1`,
      [id],
    );
    expect(Number(rows[0].n)).toBe(4);
  });
});
