import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import {
  backupCall,
  backupTenant,
  browse,
  DAY,
  getRestore,
  latestSnapshot,
  listSnapshots,
  type RestoreJobBody,
  simulatedCloud,
  startRestore,
  untilFinished,
  restoreRowsOf,
} from './backup-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';

let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let users: User[];
let sibling: Tenant;
let siblingUsers: User[];

// A server of the file's own (built in the worker's realm): the housekeeping run below purges the expired exports of
// every organization, and counts them.
beforeAll(async () => {
  ({ app, org, other } = await realmSuite({ jobs: true, other: true }));
  ({ tenant, users } = await backupTenant(app, org));
  ({ tenant: sibling, users: siblingUsers } = await backupTenant(app, org));
});
afterAll(() => app.stop());

const WORKLOADS = ['Mailbox', 'Personal file storage', 'Site collaboration', 'Team chat'] as const;
type Workload = (typeof WORKLOADS)[number];

/** A location that exists in the receiving tenant (every simulated tenant has these site and team). */
function differentLocation(workload: Workload, crossTenant: boolean): string {
  if (workload === 'Site collaboration') return '/sites/intranet/Recovered';
  if (workload === 'Team chat') return '/teams/all-company/Recovered';
  return `${(crossTenant ? siblingUsers : users)[1].userPrincipalName}/Recovered`;
}

const restoredRows = () => restoreRowsOf(app, org.organization.id);

async function events(kind: string, jobId: string): Promise<Array<Record<string, unknown>>> {
  const { rows } = await app.pool.query<{ details: Record<string, unknown> }>(
    `select payload->'details' as details from domain_events
       where kind = $1 and payload->'details'->>'restoreJobId' = $2`,
    [kind, jobId],
  );
  return rows.map((row) => row.details);
}

describe('POST /api/backup/restore: every restore type and target on every workload', () => {
  const cases = WORKLOADS.flatMap((workload) => [
    ...(['Granular item', 'Container', 'Point-in-time'] as const).flatMap((restoreType) =>
      (['Original location', 'Different location', 'Export'] as const).map((target) => ({
        workload,
        restoreType,
        target,
      })),
    ),
    { workload, restoreType: 'Cross-tenant' as const, target: 'Different location' as const },
  ]);

  it.each(cases)('$restoreType to $target of a $workload snapshot runs to Completed', async (c) => {
    const snapshot = await latestSnapshot(app, org.keys.write, tenant.id, c.workload);
    const containers = await browse(app, org.keys.read, tenant.id, snapshot.id);
    const firstItems = await browse(app, org.keys.read, tenant.id, snapshot.id, containers[0].itemId);
    const itemIds =
      c.restoreType === 'Granular item'
        ? firstItems.slice(0, 2).map((item) => item.itemId)
        : c.restoreType === 'Container'
          ? [containers[0].itemId]
          : undefined;
    const expectedCount =
      c.restoreType === 'Granular item'
        ? 2
        : c.restoreType === 'Container'
          ? containers[0].childCount
          : snapshot.itemCount;
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload: c.workload,
      restoreType: c.restoreType,
      snapshotId: snapshot.id,
      itemIds,
      target: {
        type: c.target,
        location:
          c.target === 'Different location'
            ? differentLocation(c.workload, c.restoreType === 'Cross-tenant')
            : undefined,
        tenantId: c.restoreType === 'Cross-tenant' ? sibling.id : undefined,
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'Queued', workload: c.workload, itemCount: expectedCount });
    const job = await untilFinished(app, org.keys.write, tenant.id, res.body.data.id);
    expect(job.status).toBe('Completed');
    expect(job.processedCount).toBe(expectedCount);
    expect(job.restoredCount + job.skippedCount).toBe(expectedCount);
    expect(job.progress).toEqual({ itemsProcessed: expectedCount, itemsTotal: expectedCount, percent: 100 });
    expect(job.download !== null).toBe(c.target === 'Export');
  });
});

describe('restore outcomes', () => {
  it('Completed: a container restored with progress that only grows, item results paged, restore.completed', async () => {
    const snapshot = await latestSnapshot(
      app,
      org.keys.read,
      tenant.id,
      'Mailbox',
      `mbx-${users[0].externalId}`,
    );
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Different location', location: `${users[1].userPrincipalName}/Point in time` },
    });
    const seen: number[] = [];
    const job = await untilFinished(app, org.keys.read, tenant.id, res.body.data.id, seen);
    expect(job).toMatchObject({ status: 'Completed', restoredCount: snapshot.itemCount, failedCount: 0 });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const page = await getRestore(app, org.keys.read, tenant.id, job.id, '?limit=5&page=2');
    expect(page.items?.pageInfo.total).toBe(snapshot.itemCount);
    expect(page.items?.items.map((item) => item.ordinal)).toEqual([6, 7, 8, 9, 10]);
    expect(page.items?.items[0]).toMatchObject({
      status: 'Restored',
      restoredTo: expect.stringContaining('Point in time'),
    });
    expect(await events('restore.completed', job.id)).toEqual([
      expect.objectContaining({
        status: 'Completed',
        itemCount: snapshot.itemCount,
        restoredCount: snapshot.itemCount,
      }),
    ]);
  });

  it('conflict policy: Skip leaves existing items, Overwrite replaces them, Keep both restores beside them', async () => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Personal file storage');
    const run = async (conflictPolicy: string) => {
      const res = await startRestore(app, org.keys.write, tenant.id, {
        workload: 'Personal file storage',
        restoreType: 'Container',
        snapshotId: snapshot.id,
        itemIds: ['documents'],
        target: { type: 'Original location' },
        conflictPolicy,
      });
      const job = await untilFinished(app, org.keys.read, tenant.id, res.body.data.id);
      return getRestore(app, org.keys.read, tenant.id, job.id, '?limit=100');
    };
    const skip = await run('Skip');
    expect(skip.status).toBe('Completed');
    expect(skip.skippedCount).toBeGreaterThan(0);
    expect(skip.items?.items.find((item) => item.status === 'Skipped')?.detail).toContain('Skip');
    const overwrite = await run('Overwrite');
    expect(overwrite).toMatchObject({ status: 'Completed', skippedCount: 0, restoredCount: skip.itemCount });
    expect(overwrite.items?.items.every((item) => item.detail?.includes('Overwrite'))).toBe(true);
    const keepBoth = await run('Keep both');
    expect(keepBoth.restoredCount).toBe(skip.itemCount);
    expect(keepBoth.items?.items.every((item) => item.restoredTo?.endsWith('(restored)'))).toBe(true);
  });

  it('CompletedWithErrors when some items fail, each failure with its reason', async () => {
    const own = await backupTenant(app, org);
    const snapshot = await latestSnapshot(app, org.keys.read, own.tenant.id, 'Team chat');
    await simulatedCloud(app).backup.injectFault(own.tenant.externalId, { failItemIds: ['general/2'] });
    const res = await startRestore(app, org.keys.write, own.tenant.id, {
      workload: 'Team chat',
      restoreType: 'Container',
      snapshotId: snapshot.id,
      itemIds: ['general'],
      target: { type: 'Export' },
    });
    const job = await untilFinished(app, org.keys.read, own.tenant.id, res.body.data.id);
    expect(job).toMatchObject({ status: 'CompletedWithErrors', failedCount: 1 });
    const detail = await getRestore(app, org.keys.read, own.tenant.id, job.id, '?limit=100');
    expect(detail.items?.items.find((item) => item.itemId === 'general/2')).toMatchObject({
      status: 'Failed',
      detail: expect.stringContaining('integrity'),
    });
    expect(await events('restore.completed', job.id)).toEqual([
      expect.objectContaining({ status: 'CompletedWithErrors', failedCount: 1 }),
    ]);
  });

  it('Failed with the reason when the backup service refuses, and restore.failed', async () => {
    const own = await backupTenant(app, org);
    const snapshot = await latestSnapshot(app, org.keys.read, own.tenant.id, 'Mailbox');
    await simulatedCloud(app).backup.injectFault(own.tenant.externalId, {
      refused: 'The mailbox is on litigation hold',
    });
    const res = await startRestore(app, org.keys.write, own.tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Container',
      snapshotId: snapshot.id,
      itemIds: ['inbox'],
      target: { type: 'Original location' },
    });
    const job = await untilFinished(app, org.keys.read, own.tenant.id, res.body.data.id);
    expect(job).toMatchObject({ status: 'Failed', restoredCount: 0 });
    expect(job.failureReason).toContain('litigation hold');
    expect(await events('restore.failed', job.id)).toEqual([expect.objectContaining({ status: 'Failed' })]);
  });

  it('export: a signed link served by this server, refused with a wrong signature and once it expired', async () => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Site collaboration');
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Site collaboration',
      restoreType: 'Granular item',
      snapshotId: snapshot.id,
      itemIds: ['documents/1', 'documents/2'],
      target: { type: 'Export' },
    });
    const job = await untilFinished(app, org.keys.write, tenant.id, res.body.data.id);
    // Issue #32 item 7: the link is the archive; a Read key does not see it.
    expect((await untilFinished(app, org.keys.read, tenant.id, job.id)).download).toBeNull();
    expect(job.download?.expiresAt).toBe(new Date(Date.parse(job.completedAt!) + DAY).toISOString());
    const url = new URL(job.download!.url);
    const path = url.pathname + url.search;
    const download = await app.request<{ items: Array<{ itemId: string; content: string }> }>('GET', path);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain(`restore-${job.id}.json`);
    expect(download.body.items.map((item) => item.itemId)).toEqual(['documents/1', 'documents/2']);
    expect(download.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Streamed a page at a time (src/backup/restore-download.ts): pages of one item make the same archive.
    const archive = await onServer(app, 'restoreExportArchive', job.id, 1);
    expect(JSON.parse(archive)).toEqual(download.body);
    const forged = await app.request('GET', path.replace(/signature=[^&]+/, 'signature=AAAA'));
    expect(forged.status).toBe(403);
    // Issue #32 item 7: 43 non-ASCII characters were a 500 (more bytes than characters).
    const nonAscii = `signature=${encodeURIComponent('é'.repeat(43))}`;
    const odd = await app.request('GET', path.replace(/signature=[^&]+/, nonAscii));
    expect(odd.status).toBe(403);
    app.clock.advance(DAY);
    const expired = await app.request<{ error: { message: string } }>('GET', path);
    expect(expired.status).toBe(403);
    expect(expired.body.error.message).toContain('expired');
    // Issue #32 item 7: the exported contents go once the link expired; the job no longer shows a link.
    const purged = await onServer(app, 'runHousekeeping');
    expect(purged.expiredExportItems).toBeGreaterThanOrEqual(2); // other exports of the suite expired too
    const { rows } = await app.pool.query(
      'select count(*)::int as n from restore_job_items where job_id = $1 and exported is not null',
      [job.id],
    );
    expect(rows[0].n).toBe(0);
    expect((await untilFinished(app, org.keys.write, tenant.id, job.id)).download).toBeNull();
    app.clock.advance(-DAY);
  });
});

describe('validation before anything starts (400/404 naming the field, nothing written)', () => {
  it.each([
    ['items not in the snapshot', { itemIds: ['inbox/999'] }, 'itemIds'],
    ['a container for a granular restore', { itemIds: ['inbox'] }, 'itemIds'],
    [
      'a target that does not fit the workload',
      { target: { type: 'Different location', location: '/sites/x' } },
      'target.location',
    ],
    [
      'a location for the original location',
      { target: { type: 'Original location', location: 'a@b.com' } },
      'target.location',
    ],
    ['the wrong workload', { workload: 'Team chat' }, 'workload'],
    ['a point-in-time restore naming items', { restoreType: 'Point-in-time' }, 'itemIds'],
    [
      'a cross-tenant restore without the receiving tenant',
      { restoreType: 'Cross-tenant', target: { type: 'Different location', location: 'a@b.com' } },
      'target.tenantId',
    ],
    ['an unknown conflict policy', { conflictPolicy: 'Merge' }, 'conflictPolicy'],
  ])('refuses %s', async (_name, change, field) => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const before = await restoredRows();
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Granular item',
      snapshotId: snapshot.id,
      itemIds: ['inbox/1'],
      target: { type: 'Original location' },
      ...change,
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(res.body.error?.details)).toContain(field);
    expect(await restoredRows()).toBe(before);
  });

  it('refuses a cross-tenant target outside the organization (400) and a snapshot of another organization (404)', async () => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const stranger = await createTenant(app, other.scope);
    const before = await restoredRows();
    const cross = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Cross-tenant',
      snapshotId: snapshot.id,
      target: { type: 'Different location', tenantId: stranger.id, location: 'a@b.com' },
    });
    expect(cross.status).toBe(400);
    expect(cross.body.error?.details.fields).toEqual([
      { field: 'target.tenantId', problem: expect.any(String) },
    ]);
    const foreignTenant = await createTenant(app, other.scope);
    const foreign = await startRestore(app, other.keys.write, foreignTenant.id, {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Original location' },
    });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body.error)).toContain('snapshotId');
    expect(await restoredRows()).toBe(before);
  });

  it('refuses a snapshot that left the retention window by the clock', async () => {
    const own = await backupTenant(app, org);
    const oldest = (
      await listSnapshots(app, org.keys.read, own.tenant.id, '?workload=Mailbox&limit=100')
    ).pop()!;
    const before = await restoredRows();
    app.clock.advance(27 * DAY + 1);
    try {
      const res = await startRestore(app, org.keys.write, own.tenant.id, {
        workload: 'Mailbox',
        restoreType: 'Point-in-time',
        snapshotId: oldest.id,
        target: { type: 'Original location' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error?.details.fields).toEqual([
        { field: 'snapshotId', problem: expect.stringContaining('retention') },
      ]);
    } finally {
      app.clock.advance(-(27 * DAY + 1));
    }
    expect(await restoredRows()).toBe(before);
  });

  it('a Read key cannot restore (403); X-Tenant-Id missing is 400', async () => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const body = {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Export' },
    };
    expect((await startRestore(app, org.keys.read, tenant.id, body)).status).toBe(403);
    const missing = await backupCall(app, 'POST', '/restore', { key: org.keys.write, body });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('X-Tenant-Id');
  });
});

describe('GET /api/backup/restore/history and /:jobId', () => {
  it('lists finished restores with the SPEC 2.6 fields, latest first; another organization sees none of them', async () => {
    const res = await backupCall<RestoreJobBody[]>(app, 'GET', '/restore/history?limit=5', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.meta?.total).toBeGreaterThan(5);
    expect(res.body.data[0]).toMatchObject({
      id: expect.any(String),
      tenantId: tenant.id,
      workload: expect.any(String),
      itemCount: expect.any(Number),
      initiatedBy: apiKeyActor(),
      completedAt: expect.any(String),
      status: expect.stringMatching(/^(Completed|CompletedWithErrors|Failed|Cancelled)$/),
    });
    const times = res.body.data.map((job) => Date.parse(job.completedAt!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const foreign = await backupCall(app, 'GET', `/restore/${res.body.data[0].id}`, {
      key: other.keys.read,
      tenantId: tenant.id,
    });
    expect(foreign.status).toBe(404);
  });

  it('history and a job read the same through GraphQL, with constant SQL per page size', async () => {
    const read = async (limit: number) => {
      const res = await app.graphql<{
        restoreHistory: {
          items: Array<{
            id: string;
            status: string;
            workload: string;
            restoreType: string;
            progress: { percent: number };
            download: { url: string } | null;
          }>;
        };
      }>(
        org.keys.read,
        `query($t: UUID!, $limit: Int) { restoreHistory(tenantId: $t, limit: $limit) {
          items { id status workload restoreType progress { percent } download { url } } } }`,
        { t: tenant.id, limit },
      );
      expect(res.body.data?.restoreHistory.items).toHaveLength(limit);
      return res.body.data!.restoreHistory.items;
    };
    const items = await read(2);
    expect(items[0].workload).toMatch(/^[A-Z_]+$/);
    const small = await app.sql.during(() => read(2));
    const large = await app.sql.during(() => read(12));
    expect(large).toBe(small);
  });
});
