import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { onServer } from '../helpers/on-server.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { DataOf, ItemOf } from '../helpers/api-types.js';
import { eventually } from '../helpers/eventually.js';
import { createTenant, createUser } from '../factories/shared.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export type SnapshotBody = ItemOf<'listBackupSnapshots'>;

export type BackupItemBody = ItemOf<'browseBackupSnapshot'>;

/** A restore job as POST, cancel and the history show it; GET /restore/:jobId adds its page of items. */
export type RestoreJobBody = ItemOf<'restoreHistory'>;

export function simulatedCloud(app: TestServer): SimulatedCloud {
  return app.deps.clouds as SimulatedCloud;
}

/** A tenant with two users (mailbox and drive protected), its sites and teams, and its snapshot catalog. */
export async function backupTenant(
  app: TestServer,
  org: OrganizationWithKeys,
): Promise<{ tenant: Tenant; users: User[] }> {
  const tenant = await createTenant(app, org.scope);
  const users = [await createUser(app, tenant), await createUser(app, tenant)];
  await refreshCatalog(app, tenant);
  return { tenant, users };
}

/** What the hourly catalog job does, for one tenant. */
export function refreshCatalog(app: TestServer, tenant: Tenant): Promise<number> {
  return onServer(app, 'refreshCatalog', tenant);
}

export function backupCall<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown },
): Promise<ApiResponse<Envelope<T>>> {
  return app.request<Envelope<T>>(method, `/api/backup${path}`, {
    key: options.key,
    body: options.body,
    headers: options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {},
  });
}

export async function listSnapshots(
  app: TestServer,
  key: string,
  tenantId: string,
  query = '',
): Promise<SnapshotBody[]> {
  const res = await backupCall<SnapshotBody[]>(app, 'GET', `/snapshots${query}`, { key, tenantId });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The newest snapshot of a workload (and resource, when given). */
export async function latestSnapshot(
  app: TestServer,
  key: string,
  tenantId: string,
  workload: string,
  resourceId?: string,
): Promise<SnapshotBody> {
  const query = `?workload=${encodeURIComponent(workload)}${resourceId ? `&resourceId=${resourceId}` : ''}&limit=1`;
  const [snapshot] = await listSnapshots(app, key, tenantId, query);
  return snapshot;
}

export async function browse(
  app: TestServer,
  key: string,
  tenantId: string,
  snapshotId: string,
  parentId?: string,
): Promise<BackupItemBody[]> {
  const query = parentId ? `?parentId=${encodeURIComponent(parentId)}&limit=100` : '?limit=100';
  const res = await backupCall<BackupItemBody[]>(app, 'GET', `/snapshots/${snapshotId}/items${query}`, {
    key,
    tenantId,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

export function startRestore(app: TestServer, key: string, tenantId: string, body: unknown) {
  return backupCall<RestoreJobBody>(app, 'POST', '/restore', { key, tenantId, body });
}

export async function getRestore(
  app: TestServer,
  key: string,
  tenantId: string,
  jobId: string,
  query = '',
): Promise<DataOf<'getRestoreJob'>> {
  const res = await backupCall<DataOf<'getRestoreJob'>>(app, 'GET', `/restore/${jobId}${query}`, {
    key,
    tenantId,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const FINAL = ['Completed', 'CompletedWithErrors', 'Failed', 'Cancelled'];

/**
 * Waits until the job reaches a final status (bounded) and reads it through the API. The wait reads the job's
 * status row (one statement every 20 ms); only a caller that records the progress seen on the way (`seen`)
 * polls the API itself, each answer checked against the OpenAPI document as every answer is.
 */
export async function untilFinished(
  app: TestServer,
  key: string,
  tenantId: string,
  jobId: string,
  seen?: number[],
  timeoutMs = 30_000,
): Promise<DataOf<'getRestoreJob'>> {
  const what = `restore ${jobId} to reach a final status`;
  if (seen)
    return eventually(
      async () => {
        const job = await getRestore(app, key, tenantId, jobId);
        seen.push(job.processedCount);
        expect(FINAL).toContain(job.status);
        return job;
      },
      { timeout: timeoutMs, what },
    );
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ status: string }>(
        'select status from restore_jobs where id = $1',
        [jobId],
      );
      expect(FINAL).toContain(rows[0]?.status);
    },
    { timeout: timeoutMs, what },
  );
  const job = await getRestore(app, key, tenantId, jobId);
  expect(FINAL).toContain(job.status);
  return job;
}

/** Restore jobs and their items an organization holds: a refused restore must leave this unchanged. */
export async function restoreRowsOf(app: TestServer, organizationId: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    `select (select count(*) from restore_jobs where organization_id = $1)::int
          + (select count(*) from restore_job_items where organization_id = $1)::int as n`,
    [organizationId],
  );
  return rows[0].n;
}
