/**
 * Every job-backed operation runs through core/tracked-job.ts (docs/reliability.md). For each kind, a real
 * operation is started through the API (its job is queued, no worker runs in this app), then its task is
 * run in-process as the queue would after a worker died mid-run:
 * - once the row says a run started and died (`runAttempts` 1, running status): the run resumes, counts
 *   itself, and finishes (or, for a polling kind, hands over to its next job) without failing;
 * - once `TRACKED_JOB_MAX_RUNS` runs died: the row is marked Failed with a reason, never left running.
 * The real kill of a worker process is test/faults/interrupted-job.test.ts.
 */
import type { JobHelpers } from 'graphile-worker';
import { CONNECTOR_IMPORT_JOB, CONNECTOR_IMPORT_TASK } from '../../src/compliance/connector-import.js';
import { TRACKED_JOB_MAX_RUNS, type TrackedJobKind, type TrackedJobRow } from '../../src/core/tracked-job.js';
import { DEVICE_ACTION_TASK } from '../../src/devices/device-action.service.js';
import { DEVICE_ACTION_JOB } from '../../src/devices/device-action.task.js';
import { BARRIER_APPLY_TASK } from '../../src/info-barriers/barrier-application.service.js';
import { BARRIER_APPLY_JOB } from '../../src/info-barriers/barrier-application.task.js';
import { BarrierApplicationStatus } from '../../src/info-barriers/info-barrier.enums.js';
import { RECOMMENDATION_APPLY_TASK } from '../../src/recommendations/recommendation-apply.service.js';
import { RECOMMENDATION_APPLY_JOB } from '../../src/recommendations/recommendation-apply.task.js';
import type { RestoreJob } from '../../src/backup/restore-job.entity.js';
import { RESTORE_JOB } from '../../src/backup/restore-runner.js';
import { RESTORE_TASK } from '../../src/backup/restore.service.js';
import { TENANT_SYNC_TASK } from '../../src/tenants/tenant.service.js';
import { TENANT_SYNC_JOB } from '../../src/tenants/tenant-sync.task.js';
import { USER_OFFBOARDING_TASK } from '../../src/user-management/offboarding.service.js';
import { USER_OFFBOARDING_JOB } from '../../src/user-management/offboarding.task.js';
import { USER_IMPORT_TASK } from '../../src/user-management/user-import.service.js';
import { USER_IMPORT_JOB } from '../../src/user-management/user-import.task.js';
import { backupTenant, latestSnapshot, startRestore } from '../backup/backup-kit.js';
import { createTenant, createUser, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { seedSecurity } from '../security/security-kit.js';
import { tenantMissing } from '../security-posture/posture-kit.js';

let app: RealmApp;
let org: OrganizationWithKeys;

// A server of the file's own: the connectors' scheduler queues every organization's due imports, and the clock is
// moved. The rows are read and written, and the tasks run, by the server (onServer: its ORM knows the entity
// classes by name, kind.entity.name).
beforeAll(async () => ({ app, org } = await realmSuite()));
afterAll(() => app.stop());

async function post<T>(path: string, body: unknown, tenantId?: string): Promise<T> {
  const res = await app.request<Envelope<T>>('POST', path, {
    key: org.keys.admin, // offboarding and isolation ask for the Admin level
    body,
    headers: tenantId ? { 'X-Tenant-Id': tenantId } : {},
  });
  if (![200, 201, 202].includes(res.status))
    throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The payload the service queued for this operation: the task runs with exactly what the queue holds. */
async function queuedPayload(task: string, id: string): Promise<Record<string, unknown>> {
  const { rows } = await app.pool.query<{ payload: Record<string, unknown> }>(
    `select j.payload from graphile_worker._private_jobs j
       join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = $1 and j.payload::text like $2 order by j.id desc limit 1`,
    [task, `%${id}%`],
  );
  expect(rows).toHaveLength(1);
  return rows[0].payload;
}

interface Case {
  kind: TrackedJobKind<TrackedJobRow>;
  task: string;
  /** Starts one operation through the API (or, for the barrier push, as its service would) → its id. */
  start: () => Promise<string>;
}

const as = <Row extends TrackedJobRow>(kind: TrackedJobKind<Row>) =>
  kind as unknown as TrackedJobKind<TrackedJobRow>;

const cases: Case[] = [
  {
    kind: as(TENANT_SYNC_JOB),
    task: TENANT_SYNC_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      return (await post<{ id: string }>(`/v1/tenants/${tenant.id}/sync`, undefined)).id;
    },
  },
  {
    kind: as(USER_IMPORT_JOB),
    task: USER_IMPORT_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      const csv = `UserPrincipalName,FirstName,LastName\nada.${tenant.id.slice(0, 6)}@${tenant.domain},Ada,Lovelace\n`;
      const path = '/api/user-management-identity/users/bulk';
      return (await post<{ operation: { id: string } }>(path, { csv }, tenant.id)).operation.id;
    },
  },
  {
    kind: as(USER_OFFBOARDING_JOB),
    task: USER_OFFBOARDING_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      const user = await createUser(app, tenant);
      const path = `/api/user-management-identity/users/${user.id}/offboard`;
      return (await post<{ id: string }>(path, { convertMailboxToShared: true }, tenant.id)).id;
    },
  },
  {
    kind: as(RESTORE_JOB as TrackedJobKind<RestoreJob>),
    task: RESTORE_TASK,
    start: async () => {
      const { tenant } = await backupTenant(app, org);
      const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
      const res = await startRestore(app, org.keys.write, tenant.id, {
        workload: 'Mailbox',
        restoreType: 'Point-in-time',
        snapshotId: snapshot.id,
        target: { type: 'Original location' },
      });
      return (res.body as Envelope<{ id: string }>).data.id;
    },
  },
  {
    kind: as(RECOMMENDATION_APPLY_JOB),
    task: RECOMMENDATION_APPLY_TASK,
    start: async () => {
      const tenant = await tenantMissing(app, org.scope, 'attack-surface-reduction');
      const res = await app.graphql<{ applySecurityRecommendation: { id: string } }>(
        org.keys.write,
        `mutation { applySecurityRecommendation(id: "attack-surface-reduction", tenantIds: ["${tenant.id}"]) { id } }`,
      );
      return res.body.data!.applySecurityRecommendation.id;
    },
  },
  {
    kind: as(DEVICE_ACTION_JOB),
    task: DEVICE_ACTION_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      const { deviceIds } = await seedSecurity(app, org.scope, tenant, { devices: [{ deviceName: 'PC-1' }] });
      const body = { type: 'Full isolation', reason: 'Suspicious process', notes: 'Ticket 1' };
      return (
        await post<{ id: string }>(`/api/security/device-security/${deviceIds[0]}/isolate`, body, tenant.id)
      ).id;
    },
  },
  {
    kind: as(BARRIER_APPLY_JOB),
    task: BARRIER_APPLY_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      // An empty configuration pushed (the segments and policies have their own tests).
      const application = await onServer(app, 'createEntity', 'BarrierApplication', {
        ...org.scope,
        tenantId: tenant.id,
        status: BarrierApplicationStatus.PENDING,
        startedAt: app.clock.now(),
        segmentCount: 0,
        policyCount: 0,
        requestedBy: 'test',
      });
      await app.pool.query(`select graphile_worker.add_job($1, $2::json)`, [
        BARRIER_APPLY_TASK,
        JSON.stringify({ applicationId: application.id, ...org.scope }),
      ]);
      return application.id as string;
    },
  },
  {
    kind: as(CONNECTOR_IMPORT_JOB),
    task: CONNECTOR_IMPORT_TASK,
    start: async () => {
      const tenant = await createTenant(app, org.scope);
      const connector = await post<{ id: string; nextRunAt: string }>(
        '/api/compliance/connectors',
        {
          name: 'Slack archive',
          category: 'Communication',
          sourceType: 'Slack',
          credentials: { workspaceUrl: 'https://acme.slack.com', apiToken: 'xoxb-tracked-jobs-test' },
        },
        tenant.id,
      );
      app.clock.set(new Date(Math.max(app.clock.now().getTime(), Date.parse(connector.nextRunAt))));
      await onServer(app, 'scheduleImports');
      const { rows } = await app.pool.query<{ id: string }>(
        'select id from compliance_connector_runs where connector_id = $1',
        [connector.id],
      );
      return rows[0].id;
    },
  },
];

async function rowOf(kind: TrackedJobKind<TrackedJobRow>, id: string): Promise<Record<string, unknown>> {
  const row = await onServer(app, 'findEntity', kind.entity.name, { id });
  if (!row) throw new Error(`No ${kind.entity.name} ${id}`);
  return row;
}

/** Runs the operation's task once, as graphile-worker's first attempt of a retried job would. */
async function runTask(task: string, id: string): Promise<void> {
  const helpers = {
    job: { attempts: 1, max_attempts: 5 },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined },
    abortSignal: new AbortController().signal,
  } as unknown as JobHelpers;
  await onServer(app, 'runTask', task, await queuedPayload(task, id), helpers);
}

/** Kinds whose runs save item progress (a checkpoint): interruptions count from their last progress. */
const ITEM_PROGRESS = new Set(['user import', 'offboarding', 'recommendation apply']);

/** As the row looks after `runs` runs that each died mid-job. */
async function diedRuns(kind: TrackedJobKind<TrackedJobRow>, id: string, runs: number): Promise<void> {
  await onServer(
    app,
    'updateEntities',
    kind.entity.name,
    { id },
    { status: kind.running, runAttempts: runs },
  );
}

describe.each(cases.map((c) => [c.kind.name, c] as const))('tracked job: %s', (_name, c) => {
  it(`is marked ${c.kind.failed} with a reason after ${TRACKED_JOB_MAX_RUNS} runs that died`, async () => {
    const id = await c.start();
    await diedRuns(c.kind, id, TRACKED_JOB_MAX_RUNS);
    await runTask(c.task, id);
    const row = await rowOf(c.kind, id);
    expect(row.status).toBe(c.kind.failed);
    expect(row[c.kind.reasonColumn]).toMatch(/interrupted runs: the worker running it died each time/);
  });

  it('resumes after one run that died: counts the run, and finishes or hands over to its next job', async () => {
    const id = await c.start();
    await diedRuns(c.kind, id, 1);
    await runTask(c.task, id);
    const row = await rowOf(c.kind, id);
    expect(row.status).not.toBe(c.kind.failed);
    if (c.kind.runnable.includes(row.status as string))
      expect(row.runAttempts).toBe(0); // next poll queued
    // Counted (2), unless the run saved item progress: then it is the one run since progress (issue #34 item 3).
    else expect(row.runAttempts).toBe(ITEM_PROGRESS.has(c.kind.name) ? 1 : 2);
  });
});
