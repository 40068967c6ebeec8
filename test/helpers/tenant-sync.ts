import { JobStatus } from '../../src/core/job-status.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from './envelope.js';
import { eventually } from './eventually.js';
import type { TestServer } from './shared-suite.js';

/**
 * A tenant sync as GET /v1/tenants/:id/syncs/:syncId answers it. Written by hand, not DataOf<'getTenantSync'>: the
 * OpenAPI document declares `summary` as an object without its counts, which the sync tests read.
 */
export interface SyncBody {
  id: string;
  tenantId: string;
  status: string;
  progress: number;
  summary: Record<string, number> | null;
  error: string | null;
}

const FINAL: string[] = [JobStatus.COMPLETED, JobStatus.FAILED];

/**
 * Starts a sync of the tenant over REST (with the organization's write key), waits until its job row says
 * Completed or Failed (read directly, outside the ORM) and returns the sync as the API then answers it. A sync
 * that does not end within `timeout` fails the test. Which end is right is the caller's to assert.
 */
export async function syncAndWait(
  app: TestServer,
  org: OrganizationWithKeys,
  tenantId: string,
  timeout = 20_000,
  /** Another key than the organization's sandbox ones (a live key), for both requests. */
  key?: string,
): Promise<SyncBody> {
  const started = await app.request<Envelope<SyncBody>>('POST', `/v1/tenants/${tenantId}/sync`, {
    key: key ?? org.keys.write,
  });
  expect(started.status).toBe(202);
  const syncId = started.body.data.id;
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ status: string }>(
        'select status from tenant_syncs where id = $1',
        [syncId],
      );
      expect(FINAL).toContain(rows[0]?.status);
    },
    { timeout, what: `sync ${syncId} of tenant ${tenantId} to end` },
  );
  const done = await app.request<Envelope<SyncBody>>('GET', `/v1/tenants/${tenantId}/syncs/${syncId}`, {
    key: key ?? org.keys.read,
  });
  return done.body.data;
}
