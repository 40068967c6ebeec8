import { RECOMMENDATION_APPLY_TASK } from '../../src/recommendations/recommendation-apply.service.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { DataOf } from '../helpers/api-types.js';
import { gatedProvider } from '../helpers/cloud-gate.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { postureFootprint, postureTenant, simulatedCloud, tenantMissing } from './posture-kit.js';

/**
 * Issue #32 item 4: a dry-run apply asked the cloud for every tenant inside the request. It is now an
 * operation of the recommendation-apply job: 202 Queued at once, progress while the job previews tenant by
 * tenant, resumable after a crash, and it changes nothing but its own operation's rows.
 */
type OperationBody = DataOf<'getRecommendationApplyOperation'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

/** What an apply could touch, in this file's two organizations. */
const footprint = () => postureFootprint(app, [org.organization.id, other.organization.id]);

const apply = (id: string, body: unknown, key = org.keys.write) =>
  app.request<Envelope<OperationBody>>('POST', `/api/security/recommendations/${id}/apply`, { key, body });
const operation = (id: string, key = org.keys.read) =>
  app.request<Envelope<OperationBody>>('GET', `/api/security/recommendations/apply-operations/${id}`, {
    key,
  });
const runJob = (operationId: string, clouds?: SharedApp['deps']['clouds']) =>
  onServer(app, 'applyRecommendation', org.scope, operationId, clouds);

/** What a preview must leave alone: the tenants' states, their audit trail, the events, the cloud. */
async function untouched() {
  const { states, changes, events, cloud } = await footprint();
  return { states, changes, events, cloud };
}

describe('a dry-run apply is a job (issue #32 item 4)', () => {
  it('REST: 202 Queued at once, then the job previews each tenant and changes nothing else', async () => {
    const open = await postureTenant(app, org.scope, ['safe-links']);
    const met = await postureTenant(app, org.scope, []);
    const unsupported = await postureTenant(app, org.scope, ['safe-links']);
    await simulatedCloud(app).posture.setControl(unsupported.externalId, 'safe-links', {
      applySupported: false,
    });
    const before = await untouched();
    const res = await apply('safe-links', {
      tenantIds: [open.id, met.id, unsupported.id],
      dryRun: true,
      notifyAdmins: true,
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ dryRun: true, status: 'Queued', progress: 0 });
    expect(res.body.data.counts).toMatchObject({ total: 3, pending: 3 });
    const id = res.body.data.id;
    expect(id).toEqual(expect.any(String));
    const { rows: jobs } = await app.pool.query(
      `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = $1 and j.payload->>'operationId' = $2`,
      [RECOMMENDATION_APPLY_TASK, id],
    );
    expect(jobs).toEqual([{ n: 1 }]);

    await runJob(id);
    const done = (await operation(id)).body.data;
    expect(done).toMatchObject({ dryRun: true, status: 'Succeeded', progress: 100, failureReason: null });
    expect(done.results).toEqual(
      expect.arrayContaining([
        {
          tenantId: open.id,
          outcome: 'would apply',
          reason: null,
          finishedAt: expect.any(String),
          cloudWaitMs: 0,
        },
        {
          tenantId: met.id,
          outcome: 'already compliant',
          reason: null,
          finishedAt: expect.any(String),
          cloudWaitMs: 0,
        },
        {
          tenantId: unsupported.id,
          outcome: 'not supported',
          reason: null,
          finishedAt: expect.any(String),
          cloudWaitMs: 0,
        },
      ]),
    );
    // Not applied in the cloud, no state moved, no event even with notifyAdmins.
    expect(await untouched()).toEqual(before);
  });

  it('shows the job’s progress tenant by tenant, and resumes after a run died mid-way', async () => {
    const tenants: Tenant[] = [];
    for (let i = 0; i < 4; i++) tenants.push(await tenantMissing(app, org.scope, 'mailbox-auditing'));
    const res = await apply('mailbox-auditing', { tenantIds: tenants.map((t) => t.id), dryRun: true });
    const id = res.body.data.id;
    // The first run previews two tenants, then hangs for good at the third ("dies" there).
    let previews = 0;
    const dying = gatedProvider(app.deps.clouds, (path) =>
      /previewSecurityControl$/.test(path) && ++previews === 3 ? new Promise(() => undefined) : undefined,
    );
    void runJob(id, dying).catch(() => undefined);
    await eventually(async () => {
      const halfway = (await operation(id)).body.data;
      expect(halfway).toMatchObject({ status: 'Running', progress: 50 });
      expect(halfway.counts).toMatchObject({ total: 4, pending: 2, wouldApply: 2 });
    });
    // The queue's next attempt takes it over (a new fencing token) and finishes the two left.
    await runJob(id);
    const done = (await operation(id)).body.data;
    expect(done).toMatchObject({ status: 'Succeeded', progress: 100 });
    expect(done.counts).toMatchObject({ total: 4, wouldApply: 4, pending: 0 });
  });

  it('fails visibly when the job gives up, leaving a real apply’s tenants In Progress', async () => {
    const tenant = await tenantMissing(app, org.scope, 'tamper-protection');
    const preview = await apply('tamper-protection', { tenantIds: [tenant.id], dryRun: true });
    const real = await apply('tamper-protection', { tenantIds: [tenant.id], dryRun: false });
    expect(real.status).toBe(202);
    // The real apply's job is not run here: its tenant stays In Progress.
    await onServer(
      app,
      'giveUpRecommendationApply',
      org.scope,
      preview.body.data.id,
      'worker crashed 5 times',
    );
    expect((await operation(preview.body.data.id)).body.data).toMatchObject({
      status: 'Failed',
      failureReason: 'worker crashed 5 times',
      results: [
        { tenantId: tenant.id, outcome: 'failed', reason: 'The apply job gave up: worker crashed 5 times' },
      ],
    });
    const { rows } = await app.pool.query(
      `select status from tenant_recommendations where tenant_id = $1 and recommendation_id = 'tamper-protection'`,
      [tenant.id],
    );
    expect(rows).toEqual([{ status: 'In Progress' }]);
  });

  it('a cloud that refuses one tenant: Partially Failed with its reason; a throttled one is retried by the queue', async () => {
    const good = await tenantMissing(app, org.scope, 'dlp-policies');
    const refused = await tenantMissing(app, org.scope, 'dlp-policies');
    const cloud = simulatedCloud(app);
    cloud.faults.inject(refused.externalId, 'securityPosture.previewSecurityControl', {
      kind: 'Refused',
      message: 'Tenant is read-only',
    });
    cloud.faults.inject(good.externalId, 'securityPosture.previewSecurityControl', { kind: 'Throttled' });
    const res = await apply('dlp-policies', { tenantIds: [good.id, refused.id], dryRun: true });
    const id = res.body.data.id;
    // Throttled: the run stops for the queue to retry (the tenant is still pending, nothing recorded twice).
    await expect(runJob(id)).rejects.toThrow();
    await runJob(id);
    const done = (await operation(id)).body.data;
    expect(done.status).toBe('Partially Failed');
    expect(done.results.find((r) => r.tenantId === good.id)?.outcome).toBe('would apply');
    expect(done.results.find((r) => r.tenantId === refused.id)).toMatchObject({
      outcome: 'failed',
      reason: 'Tenant is read-only',
    });
  });

  it('GraphQL: queued with an id, read back; another organization gets NOT_FOUND', async () => {
    const tenant = await tenantMissing(app, org.scope, 'attack-surface-reduction');
    const res = await app.graphql<{
      applySecurityRecommendation: { id: string; status: string; dryRun: boolean; progress: number };
    }>(
      org.keys.write,
      `mutation($ids: [UUID!]) { applySecurityRecommendation(id: "attack-surface-reduction", tenantIds: $ids, dryRun: true) { id status dryRun progress } }`,
      { ids: [tenant.id] },
    );
    const started = res.body.data!.applySecurityRecommendation;
    expect(started).toMatchObject({ status: 'QUEUED', dryRun: true, progress: 0 });
    await runJob(started.id);
    const read = await app.graphql<{
      recommendationApplyOperation: { status: string; results: Array<{ outcome: string }> };
    }>(org.keys.read, `{ recommendationApplyOperation(id: "${started.id}") { status results { outcome } } }`);
    expect(read.body.data?.recommendationApplyOperation).toEqual({
      status: 'SUCCEEDED',
      results: [{ outcome: 'WOULD_APPLY' }],
    });
    const foreign = await app.graphql(
      other.keys.read,
      `{ recommendationApplyOperation(id: "${started.id}") { id } }`,
    );
    expect(foreign.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await operation(started.id, other.keys.read)).status).toBe(404);
  });

  it('a Read key is refused (403) before its input is looked at, in REST and GraphQL; nothing is written', async () => {
    const tenant = await tenantMissing(app, org.scope, 'safe-links');
    const theirs = await tenantMissing(app, other.scope, 'safe-links');
    const before = await footprint();
    const rest = await apply(
      'safe-links',
      { tenantIds: ['not-a-uuid'], dryRun: 'yes', notifyAdmins: 3 },
      org.keys.read,
    );
    expect(rest.status).toBe(403);
    const valid = await apply('safe-links', { tenantIds: [tenant.id], dryRun: true }, org.keys.read);
    expect(valid.status).toBe(403);
    const graphql = await app.graphql(
      org.keys.read,
      `mutation($ids: [UUID!]) { applySecurityRecommendation(id: "safe-links", tenantIds: $ids, dryRun: true) { id } }`,
      { ids: ['not-a-uuid'] },
    );
    expect(graphql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    // Another organization's tenant in a dry run: 404 naming it, nothing queued.
    const foreign = await apply('safe-links', { tenantIds: [tenant.id, theirs.id], dryRun: true });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.details).toMatchObject({ ids: [theirs.id] });
    expect(await footprint()).toEqual(before);
  });
});
