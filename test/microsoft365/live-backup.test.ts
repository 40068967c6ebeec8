import { seedFakeBackup } from '../graph-fake/graph-fake-backup-seed.js';
import { fakeBackup, type FakeBackup } from '../graph-fake/graph-fake-backup.js';
import {
  backupCall,
  getRestore,
  listSnapshots,
  restoreRowsOf,
  startRestore,
  untilFinished,
} from '../backup/backup-kit.js';
import { eventually } from '../helpers/eventually.js';
import { onServer } from '../helpers/on-server.js';
import type { SharedApp } from '../helpers/shared-suite.js';
import { graphCalls, onboardAndSyncLive, sharedLiveWorld, type LiveWorld } from './live-kit.js';

/**
 * Backup in the live environment, end to end on the Graph fake with the live key: the hourly catalog reads
 * Microsoft 365 Backup's restore points into our snapshots, a restore becomes one restore session that the
 * restore job follows to its end, and what Graph cannot do is refused before anything is written.
 */
/**
 * The shared live server's first looks at a restore session, 0.2 s apart instead of the default 5 s
 * (LIVE_RESTORE_POLL_MIN_DELAY_MS, test/helpers/shared-live-server.ts; RESTORE_POLL_MIN_DELAY_MS): a restore
 * waits for the fake's few reads, not for the pauses between them.
 */
const RESTORE_POLL_MIN_DELAY_MS = 200;

let world: LiveWorld<SharedApp>;
let tenantId: string;
let fake: FakeBackup;
let adeleId: string;

const snapshots = (query: string) => listSnapshots(world.app, world.key, tenantId, query);
/** The hourly catalog job's run for this file's tenant (the shared server's database holds other files' too). */
const runCatalogJob = () => onServer(world.app, 'runCatalogJobFor', world.org.liveScope, tenantId);

beforeAll(async () => {
  world = await sharedLiveWorld({ jobs: true });
  expect(world.app.deps.restores?.pollMinDelayMs).toBe(RESTORE_POLL_MIN_DELAY_MS);
  const adele = world.scenario.consented.users.find((record) => record.user.displayName === 'Adele Vance')!;
  adeleId = adele.user.id!;
  fake = seedFakeBackup(world.scenario.consented, [
    { id: adeleId, userPrincipalName: adele.user.userPrincipalName! },
  ]);
  ({ tenantId } = await onboardAndSyncLive(world));
});
beforeEach(() => world.scenario.fake.clearRequests());

describe('backup in the live environment (Microsoft 365 Backup)', () => {
  it("the catalog job lists each protected resource's restore points, linked to our user, item count null", async () => {
    // Per resource: the five newest restore points and the last of each of the past 14 days (13 of them when
    // yesterday's last is one of the five newest, just after midnight).
    const listed = await runCatalogJob();
    expect(listed === 3 * 19 || listed === 3 * 18).toBe(true);
    expect(graphCalls(world).filter((call) => !call.startsWith('POST /v1.0/$batch'))).toEqual([
      'GET /v1.0/solutions/backupRestore',
      'GET /v1.0/solutions/backupRestore/mailboxProtectionUnits',
      'GET /v1.0/solutions/backupRestore/driveProtectionUnits',
      'GET /v1.0/solutions/backupRestore/siteProtectionUnits',
    ]);
    const mailbox = await snapshots('?workload=Mailbox&limit=100');
    expect(mailbox).toHaveLength(listed / 3);
    const newest = fake.restorePoints.find((point) => point.id === 'rp-mbx-0-0')!;
    expect(mailbox[0]).toMatchObject({
      workload: 'Mailbox',
      resourceId: 'mbx-0',
      resourceName: fake.units.mailbox[0].email,
      userId: expect.any(String),
      takenAt: newest.protectionDateTime,
      itemCount: null,
    });
    const sites = await snapshots('?workload=Site%20collaboration&limit=100');
    expect(sites.map((site) => site.resourceName)).toEqual(Array(listed / 3).fill('/sites/intranet'));
    // The oldest: the last restore point of 14 days ago.
    const oldest = fake.restorePoints.find((point) => point.id === 'rp-mbx-0-d14')!;
    expect(mailbox.at(-1)?.takenAt).toBe(oldest.protectionDateTime);
    expect(await snapshots('?workload=Team%20chat')).toEqual([]);
  });

  it("a listing of one mailbox reaching past the catalog's 14 days asks Graph's restore point search, five per call", async () => {
    const day = 24 * 3_600_000;
    const listedSince = new Date(Math.floor(Date.now() / day) * day - 14 * day).toISOString();
    const from = new Date(Math.floor(Date.now() / 1000) * 1000 - 25 * day).toISOString();
    const range = `?resourceId=mbx-0&from=${from}&to=${listedSince}&limit=4`;
    const search = () =>
      world.scenario.fake.requests.filter(
        (r) => r.url === '/v1.0/solutions/backupRestore/restorePoints/search',
      );
    const older = (days: number[]) =>
      days.map((d) => fake.restorePoints.find((point) => point.id === `rp-mbx-0-d${d}`)!.protectionDateTime);

    // Page 1: nothing held before the catalog's days, so one search (five points, the newest of the range).
    const first = await snapshots(range);
    expect(first.map((snapshot) => snapshot.takenAt)).toEqual(older([15, 16, 17, 18]));
    expect(first[0]).toMatchObject({
      workload: 'Mailbox',
      resourceName: fake.units.mailbox[0].email,
      itemCount: null,
    });
    expect(search().map((r) => r.body)).toEqual([
      {
        protectionUnitIds: ['mbx-0'],
        protectionTimePeriod: {
          startDateTime: from.replace('.000Z', 'Z'),
          endDateTime: listedSince.replace('.000Z', 'Z'),
        },
        restorePointPreference: 'latest',
      },
    ]);
    // Page 2: one more search, ending where the first one's oldest began; Graph has one more (day 20).
    world.scenario.fake.clearRequests();
    expect((await snapshots(`${range}&page=2`)).map((snapshot) => snapshot.takenAt)).toEqual(older([19, 20]));
    expect(
      search().map(
        (r) => (r.body as { protectionTimePeriod: { endDateTime: string } }).protectionTimePeriod.endDateTime,
      ),
    ).toEqual(older([19]).map((at) => at!.replace('.000Z', 'Z')));
    // The hourly catalog keeps what a listing fetched (its list says nothing of older points): no new search.
    await runCatalogJob();
    world.scenario.fake.clearRequests();
    expect((await snapshots(range)).map((snapshot) => snapshot.takenAt)).toEqual(older([15, 16, 17, 18]));
    expect(search()).toEqual([]);
    // Without a resource such a range is refused rather than listed short: Graph lists them per resource.
    const refused = await backupCall(world.app, 'GET', `/snapshots?from=${from}`, {
      key: world.key,
      tenantId,
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('resourceId');
  });

  it('a whole-mailbox restore runs as one restore session the job follows until Graph completes it', async () => {
    const [snapshot] = await snapshots('?workload=Mailbox&limit=1');
    const started = await startRestore(world.app, world.key, tenantId, {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Original location' },
      conflictPolicy: 'Overwrite',
    });
    expect(started.status).toBe(202);
    const job = await untilFinished(world.app, world.key, tenantId, started.body.data.id);
    expect(job).toMatchObject({ status: 'Completed', itemCount: 1, restoredCount: 1, failedCount: 0 });
    const { items } = (await getRestore(world.app, world.key, tenantId, job.id)).items;
    expect(items).toEqual([
      expect.objectContaining({
        itemId: 'rp-mbx-0-0',
        itemType: 'Mailbox',
        status: 'Restored',
        detail: expect.stringContaining('Restored in place by Microsoft 365 Backup'),
      }),
    ]);
    // One session, created once and activated once, whatever the number of looks the job took.
    const posts = graphCalls(world).filter((call) => call.startsWith('POST /v1.0/solutions'));
    const session = fake.sessions.at(-1)!;
    expect(posts).toEqual([
      'POST /v1.0/solutions/backupRestore/exchangeRestoreSessions',
      `POST /v1.0/solutions/backupRestore/restoreSessions/${session.session.id}/activate`,
    ]);
    expect(session).toMatchObject({ kind: 'mailbox', session: { status: 'completed' } });
    expect(session.reads).toBeGreaterThanOrEqual(fake.readsToComplete);
  }, 60_000);

  it('a restore session that never ends fails the job after 72 hours, saying so', async () => {
    const [snapshot] = await snapshots('?workload=Site%20collaboration&limit=1');
    fake.readsToComplete = 1_000;
    const started = await startRestore(world.app, world.key, tenantId, {
      workload: 'Site collaboration',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Original location' },
      conflictPolicy: 'Keep both',
    });
    expect(started.status).toBe(202);
    const startedAt = world.app.clock.now();
    try {
      await eventually(() => expect(fake.sessions.at(-1)?.session.status).toBe('active'), {
        what: 'the restore session to be active',
      });
      world.app.clock.advance(73 * 3_600_000);
      const job = await untilFinished(world.app, world.key, tenantId, started.body.data.id);
      expect(job).toMatchObject({
        status: 'Failed',
        failureReason: 'The backup service did not finish the restore within 72 hours',
      });
    } finally {
      fake.readsToComplete = 2;
      world.app.clock.set(startedAt);
    }
  }, 60_000);

  it('501 naming the capability for what Graph cannot restore, nothing written', async () => {
    const [snapshot] = await snapshots('?workload=Mailbox&limit=1');
    const attempts: Array<[object, string]> = [
      [
        { restoreType: 'Granular item', itemIds: ['inbox/1'], conflictPolicy: 'Overwrite' },
        'backupItemBrowsing',
      ],
      [{ restoreType: 'Point-in-time' }, 'backupSkipConflicts'],
      [
        {
          restoreType: 'Point-in-time',
          target: { type: 'Different location', location: 'adele.vance@fabrikam.com/Recovered' },
        },
        'backupRestoreElsewhere',
      ],
    ];
    const rows = await restoreRowsOf(world.app, world.org.organization.id);
    for (const [fields, capability] of attempts) {
      const res = await startRestore(world.app, world.key, tenantId, {
        workload: 'Mailbox',
        snapshotId: snapshot.id,
        target: { type: 'Original location' },
        ...fields,
      });
      expect(res.status).toBe(501);
      expect(res.body.error).toMatchObject({ code: 'NOT_SUPPORTED', details: { capability } });
    }
    expect(await restoreRowsOf(world.app, world.org.organization.id)).toBe(rows);
    const browse = await backupCall(world.app, 'GET', `/snapshots/${snapshot.id}/items`, {
      key: world.key,
      tenantId,
    });
    expect(browse.status).toBe(501);
    expect(browse.body.error?.details).toMatchObject({ capability: 'backupItemBrowsing' });
  });

  it("Graph throttling past what a request may wait answers 503 with Graph's Retry-After", async () => {
    const [snapshot] = await snapshots('?workload=Mailbox&limit=1');
    world.scenario.fake.inject({
      url: '/v1.0/solutions/backupRestore',
      status: 429,
      retryAfterSeconds: 30,
    });
    const res = await startRestore(world.app, world.key, tenantId, {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Original location' },
      conflictPolicy: 'Overwrite',
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
  });

  it('a tenant without Microsoft 365 Backup: 501 naming `backup` on restore; the catalog job skips it', async () => {
    const [snapshot] = await snapshots('?workload=Mailbox&limit=1');
    fakeBackup(world.scenario.consented).serviceStatus = {
      status: 'disabled',
      disableReason: 'userRequested',
    };
    try {
      const res = await startRestore(world.app, world.key, tenantId, {
        workload: 'Mailbox',
        restoreType: 'Point-in-time',
        snapshotId: snapshot.id,
        target: { type: 'Original location' },
        conflictPolicy: 'Overwrite',
      });
      expect(res.status).toBe(501);
      expect(res.body.error).toMatchObject({ code: 'NOT_SUPPORTED', details: { capability: 'backup' } });
      expect(res.body.error?.message).toContain('Microsoft 365 Backup is not enabled');
      expect(await runCatalogJob()).toBe(0);
      // The catalog keeps what it had: nothing was read to replace it.
      expect((await snapshots('?workload=Mailbox&limit=100')).length).toBeGreaterThanOrEqual(18);
    } finally {
      fakeBackup(world.scenario.consented).serviceStatus = { status: 'enabled', disableReason: 'none' };
    }
  });
});
