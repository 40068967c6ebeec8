import type { CloudBackupProvider, CloudRestoreRequest } from '../../src/cloud/backup.provider.js';
import { graphBackup } from '../../src/cloud/microsoft365/graph-backup.js';
import { MICROSOFT365_CAPABILITIES } from '../../src/cloud/microsoft365/graph-capabilities.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import { allPages } from '../../src/cloud/pages.js';
import type { FakeBackup } from '../graph-fake/graph-fake-backup.js';
import { seedFakeBackup } from '../graph-fake/graph-fake-backup-seed.js';
import { cloudFailure, startGraphScenario, type GraphScenario } from '../helpers/graph-fake.js';

/**
 * Microsoft 365 Backup through the real Graph client on the HTTPS fake: restore points become snapshots,
 * restores become restore sessions (created once, activated, followed), and what Graph does not offer answers
 * Unsupported naming the capability.
 */
let scenario: GraphScenario;
let backup: CloudBackupProvider;
let fake: FakeBackup;
const [adele, alex] = ['Adele Vance', 'Alex Wilber'];

const calls = () => scenario.fake.graphCalls();
const bodies = () =>
  scenario.fake.requests.filter((request) => request.body !== undefined).map((request) => request.body);

beforeAll(async () => {
  scenario = await startGraphScenario();
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365: scenario.settings }));
  const credentials = { clientId: scenario.app.clientId, clientSecret: scenario.secret };
  backup = graphBackup(transport.forTenant(credentials, scenario.consented.id));
  const users = [adele, alex].map(
    (name) => scenario.consented.users.find((record) => record.user.displayName === name)!.user,
  );
  fake = seedFakeBackup(
    scenario.consented,
    users.map((user) => ({ id: user.id!, userPrincipalName: user.userPrincipalName! })),
  );
});
afterAll(() => scenario.fake.stop());
beforeEach(() => {
  scenario.fake.clearRequests();
  fake.serviceStatus = { status: 'enabled', disableReason: 'none' };
});

/** Graph's `$filter` time one second after an instant (the restore point itself is inside `lt`). */
const justAfter = (iso: string) => new Date(Date.parse(iso) + 1_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

const mailboxSnapshot = async () =>
  (await allPages(backup.listBackupSnapshots())).find((snapshot) => snapshot.resourceExternalId === 'mbx-0')!;

function restoreOf(
  snapshotExternalId: string,
  fields: Partial<CloudRestoreRequest> = {},
): CloudRestoreRequest {
  return {
    restoreKey: 'job-1',
    requestedAt: new Date(Date.now() - 1_000).toISOString(),
    snapshotExternalId,
    target: { kind: 'Original location', tenantExternalId: scenario.consented.id, location: null },
    conflictPolicy: 'Overwrite',
    itemIds: [snapshotExternalId.split('|')[3]],
    ...fields,
  };
}

describe('snapshots from Microsoft 365 Backup restore points', () => {
  it("checks the service, reads every unit page, each unit's five newest restore points and each day's last, in $batch", async () => {
    const snapshots = await allPages(backup.listBackupSnapshots());
    const graph = calls();
    expect(graph[0]).toBe('GET /v1.0/solutions/backupRestore');
    expect(graph.filter((call) => call.includes('ProtectionUnits'))).toEqual([
      'GET /v1.0/solutions/backupRestore/mailboxProtectionUnits',
      'GET /v1.0/solutions/backupRestore/driveProtectionUnits',
      'GET /v1.0/solutions/backupRestore/siteProtectionUnits',
    ]);
    // 15 lists per unit (now, and the past 14 midnights): 2 units a page → 30 → two batches; the site one.
    expect(graph.filter((call) => call === 'POST /v1.0/$batch')).toHaveLength(5);
    const batched = bodies() as Array<{ requests: Array<{ id: string; method: string; url: string }> }>;
    expect(batched.map((batch) => batch.requests.length)).toEqual([20, 10, 20, 10, 15]);
    const query = (request: { url: string }) => decodeURIComponent(request.url);
    const filter =
      /^\/solutions\/backupRestore\/restorePoints\?\$expand=protectionUnit\(\$filter=id eq 'mbx-0'\)&\$filter=protectionDateTime lt (\S+)$/;
    const [now, today] = batched[0].requests.map((request) => filter.exec(query(request))?.[1]);
    expect(batched[0].requests[0]).toMatchObject({ id: '0.0', method: 'GET' });
    expect(now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(today).toBe(`${now!.slice(0, 10)}T00:00:00Z`);
    const ids = (unit: string) =>
      snapshots
        .filter((snapshot) => snapshot.resourceExternalId === unit)
        .map((s) => s.externalId.split('|')[3]);
    for (const unit of ['mbx-0', 'mbx-1', 'drv-0', 'drv-1', 'site-intranet']) {
      const listed = ids(unit);
      expect(new Set(listed).size).toBe(listed.length);
      // The five newest; the last of each past day (yesterday's is a recent one just after midnight).
      const expected = [0, 1, 2, 3, 4].map((k) => `rp-${unit}-${k}`);
      for (let days = 2; days <= 14; days++) expected.push(`rp-${unit}-d${days}`);
      expect(listed).toEqual(expect.arrayContaining(expected));
      expect(listed).not.toContain(`rp-${unit}-6`);
      expect(listed).not.toContain(`rp-${unit}-d15`);
    }
    const newest = fake.restorePoints.find((point) => point.id === 'rp-mbx-0-0')!;
    expect(snapshots[0]).toEqual({
      externalId: `mailbox|mbx-0|${newest.protectionDateTime}|rp-mbx-0-0`,
      workload: 'Mailbox',
      resourceExternalId: 'mbx-0',
      resourceName: fake.units.mailbox[0].email,
      userExternalId: fake.units.mailbox[0].directoryObjectId,
      takenAt: newest.protectionDateTime,
      itemCount: null,
    });
    expect(snapshots.find((s) => s.workload === 'Personal file storage')?.resourceName).toBe(
      `${String(fake.units.drive[0].email)}/OneDrive`,
    );
    expect(snapshots.find((s) => s.workload === 'Site collaboration')).toMatchObject({
      resourceName: '/sites/intranet',
      userExternalId: null,
    });
  });

  it('a tenant without Microsoft 365 Backup: Unsupported naming the capability and the service status', async () => {
    fake.serviceStatus = { status: 'disabled', disableReason: 'invalidBillingProfile' };
    const error = await cloudFailure(allPages(backup.listBackupSnapshots()));
    expect(error).toMatchObject({ kind: 'Unsupported', capability: 'backup' });
    expect(error.message).toContain('Microsoft 365 Backup is not enabled');
    expect(error.message).toContain('serviceStatus disabled, invalidBillingProfile');
    expect(calls()).toEqual(['GET /v1.0/solutions/backupRestore']);
  });

  it('finds a snapshot again by its unit and time, and null once Graph no longer has it', async () => {
    const snapshot = await mailboxSnapshot();
    scenario.fake.clearRequests();
    expect(await backup.getBackupSnapshot(snapshot.externalId)).toEqual(snapshot);
    expect(calls()).toEqual([
      'GET /v1.0/solutions/backupRestore/mailboxProtectionUnits/mbx-0',
      `GET /v1.0/solutions/backupRestore/restorePoints?$expand=protectionUnit($filter=id eq 'mbx-0')&$filter=protectionDateTime lt ${justAfter(snapshot.takenAt)}`,
    ]);
    expect(await backup.getBackupSnapshot(snapshot.externalId.replace('rp-mbx-0-0', 'rp-gone'))).toBeNull();
    expect(await backup.getBackupSnapshot(snapshot.externalId.replace('|mbx-0|', '|mbx-9|'))).toBeNull();
  });

  it('a restore point is one whole-resource item; item browsing is Unsupported', async () => {
    const snapshot = await mailboxSnapshot();
    expect(await backup.findBackupItems(snapshot.externalId, null)).toEqual({
      items: [
        expect.objectContaining({
          itemId: 'rp-mbx-0-0',
          kind: 'Item',
          itemType: 'Mailbox',
          name: snapshot.resourceName,
        }),
      ],
      missing: [],
    });
    for (const call of [
      backup.listBackupItems(snapshot.externalId, null, 0, 10),
      backup.findBackupItems(snapshot.externalId, ['inbox']),
    ])
      expect(await cloudFailure(call)).toMatchObject({
        kind: 'Unsupported',
        capability: 'backupItemBrowsing',
      });
    const browsing = MICROSOFT365_CAPABILITIES.find((row) => row.capability === 'backupItemBrowsing');
    expect(browsing).toMatchObject({ available: false });
  });
});

describe('restores as restore sessions', () => {
  const plan = (fields: object) => ({
    snapshotExternalId: 'x',
    workload: 'Mailbox' as const,
    targetKind: 'Original location' as const,
    crossTenant: false,
    conflictPolicy: 'Overwrite' as const,
    itemIds: null,
    ...fields,
  });

  it('refuses before anything is written what Graph cannot do, naming the capability', async () => {
    const cases: Array<[object, string]> = [
      [{ itemIds: ['inbox'] }, 'backupItemBrowsing'],
      [{ targetKind: 'Different location' }, 'backupRestoreElsewhere'],
      [{ targetKind: 'Export' }, 'backupRestoreElsewhere'],
      [{ crossTenant: true }, 'backupRestoreElsewhere'],
      [{ conflictPolicy: 'Skip' }, 'backupSkipConflicts'],
      [{ workload: 'Team chat' }, 'backupTeamChat'],
    ];
    for (const [fields, capability] of cases)
      expect(await cloudFailure(backup.checkRestore(plan(fields)))).toMatchObject({
        kind: 'Unsupported',
        capability,
      });
    expect(calls()).toEqual([]);
    await expect(backup.checkRestore(plan({}))).resolves.toBeUndefined();
    fake.serviceStatus = { status: 'restoreLocked' };
    expect(await cloudFailure(backup.checkRestore(plan({})))).toMatchObject({ kind: 'Refused' });
  });

  it('creates one session with its artifact, activates it, and follows it to completion when asked again', async () => {
    const snapshot = await mailboxSnapshot();
    scenario.fake.clearRequests();
    const request = restoreOf(snapshot.externalId);
    const first = await backup.restoreBackupItems(request);
    expect(first).toEqual([expect.objectContaining({ itemId: 'rp-mbx-0-0', outcome: 'InProgress' })]);
    const session = fake.sessions.at(-1)!.session;
    expect(calls()).toEqual([
      'GET /v1.0/solutions/backupRestore/exchangeRestoreSessions',
      'POST /v1.0/solutions/backupRestore/exchangeRestoreSessions',
      `POST /v1.0/solutions/backupRestore/restoreSessions/${session.id}/activate`,
      `GET /v1.0/solutions/backupRestore/exchangeRestoreSessions/${session.id}`,
      `GET /v1.0/solutions/backupRestore/exchangeRestoreSessions/${session.id}/mailboxRestoreArtifacts?$expand=restorePoint`,
    ]);
    expect(bodies()[0]).toEqual({
      mailboxRestoreArtifacts: [{ restorePoint: { id: 'rp-mbx-0-0' }, destinationType: 'inPlace' }],
    });
    scenario.fake.clearRequests();
    // Asked again (the job's next look, or a run resumed after a crash): the same session, no second one.
    const second = await backup.restoreBackupItems(request);
    expect(second[0].outcome).toBe('Restored');
    expect(second[0].detail).toContain('in place');
    expect(calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    expect(fake.sessions.filter((held) => held.session.id === session.id)).toHaveLength(1);
    expect(fake.sessions.at(-1)!.session.status).toBe('completed');
  });

  it("a later restore of the same point starts its own session: an earlier restore's is not taken for it", async () => {
    const snapshot = await mailboxSnapshot();
    // The earlier restore's session of this point was made an hour ago.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const held of fake.sessions) held.session.createdDateTime = hourAgo;
    const before = fake.sessions.length;
    const later = restoreOf(snapshot.externalId, { restoreKey: 'job-later' });
    await backup.restoreBackupItems(later);
    expect(fake.sessions).toHaveLength(before + 1);
    await backup.restoreBackupItems(later);
    expect(fake.sessions).toHaveLength(before + 1);
  });

  it('Keep both restores to a new location Graph names; a failed artifact fails with its reason', async () => {
    const snapshots = await allPages(backup.listBackupSnapshots());
    const drive = snapshots.find((snapshot) => snapshot.resourceExternalId === 'drv-1')!;
    const request = restoreOf(drive.externalId, { restoreKey: 'job-2', conflictPolicy: 'Keep both' });
    await backup.restoreBackupItems(request);
    const [done] = await backup.restoreBackupItems(request);
    expect(done).toMatchObject({
      outcome: 'Restored',
      restoredTo: 'https://contoso.sharepoint.com/sites/restored-rp-drv-1-0',
    });
    expect(fake.sessions.at(-1)!.artifacts[0].destinationType).toBe('new');

    const site = snapshots.find((snapshot) => snapshot.resourceExternalId === 'site-intranet')!;
    fake.failing.set('rp-site-intranet-0', 'The site is locked for restore');
    const siteRequest = restoreOf(site.externalId, { restoreKey: 'job-3' });
    await backup.restoreBackupItems(siteRequest);
    const [failed] = await backup.restoreBackupItems(siteRequest);
    expect(failed).toMatchObject({ outcome: 'Failed', detail: 'The site is locked for restore' });
    expect(fake.sessions.at(-1)!.session.status).toBe('completedWithError');
  });
});
