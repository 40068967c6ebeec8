import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  backupTenant,
  HOUR,
  latestSnapshot,
  listSnapshots,
  refreshCatalog,
  simulatedCloud,
  startRestore,
  untilFinished,
  restoreRowsOf,
} from './backup-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let users: User[];
let sibling: Tenant;
let siblingUsers: User[];

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ jobs: true }));
  ({ tenant, users } = await backupTenant(app, org));
  ({ tenant: sibling, users: siblingUsers } = await backupTenant(app, org));
});
afterAll(() => app.stop());

const writtenRows = () => restoreRowsOf(app, org.organization.id);

describe('a Different location must exist in the receiving tenant (400 naming target.location)', () => {
  const mailboxOf = (user: () => User) => () => `${user().userPrincipalName}/Recovered`;
  it.each([
    ['a mailbox on a domain of no tenant', 'Mailbox', 'Container', () => 'ceo@gmail.com/Loot'],
    [
      'a mailbox on the tenant’s domain that nobody owns',
      'Mailbox',
      'Container',
      () => `nobody@${tenant.domain}/Loot`,
    ],
    [
      'a drive of an unknown owner',
      'Personal file storage',
      'Point-in-time',
      () => `ghost@${tenant.domain}/Files`,
    ],
    [
      'a cross-tenant restore to a mailbox of the source tenant’s domain',
      'Mailbox',
      'Cross-tenant',
      mailboxOf(() => users[1]),
    ],
    [
      'a site that does not exist',
      'Site collaboration',
      'Point-in-time',
      () => '/sites/does-not-exist-anywhere',
    ],
    ['a team that does not exist', 'Team chat', 'Point-in-time', () => '/teams/nowhere/General'],
    // Issue #32 item 6: paths that leave the owner the check looked at.
    [
      'a mailbox path climbing to another address',
      'Mailbox',
      'Container',
      () => `${users[0].userPrincipalName}/../../ceo@gmail.com/Loot`,
    ],
    [
      'a site path climbing to another site',
      'Site collaboration',
      'Point-in-time',
      () => '/sites/intranet/../../../sites/hr',
    ],
    ['a "." folder', 'Personal file storage', 'Point-in-time', () => `${users[0].userPrincipalName}/./Files`],
    ['an @ in a folder', 'Mailbox', 'Container', () => `${users[0].userPrincipalName}/x@evil.example`],
    ['a control character', 'Mailbox', 'Container', () => `${users[0].userPrincipalName}/Re\u0000stored`],
    ['an empty folder', 'Team chat', 'Point-in-time', () => '/teams/general//x'],
  ])('refuses %s, writing nothing', async (_name, workload, restoreType, location) => {
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, workload);
    const before = await writtenRows();
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload,
      restoreType,
      snapshotId: snapshot.id,
      itemIds: restoreType === 'Container' ? ['inbox'] : undefined,
      target: {
        type: 'Different location',
        location: location(),
        tenantId: restoreType === 'Cross-tenant' ? sibling.id : undefined,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('INVALID_REQUEST');
    expect(res.body.error?.details.fields).toEqual([
      { field: 'target.location', problem: expect.any(String) },
    ]);
    expect(await writtenRows()).toBe(before);
  });

  it('accepts a mailbox of the receiving tenant, in any letter case, and a folder of an existing site', async () => {
    const mailbox = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const cross = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Cross-tenant',
      snapshotId: mailbox.id,
      itemIds: ['inbox/1'],
      target: {
        type: 'Different location',
        tenantId: sibling.id,
        location: `${siblingUsers[0].userPrincipalName.toUpperCase()}/Recovered`,
      },
    });
    expect(cross.status).toBe(202);
    const site = await latestSnapshot(app, org.keys.read, tenant.id, 'Site collaboration');
    const res = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Site collaboration',
      restoreType: 'Point-in-time',
      snapshotId: site.id,
      target: { type: 'Different location', location: '/sites/intranet/Recovered' },
    });
    expect(res.status).toBe(202);
    const named = await startRestore(app, org.keys.write, tenant.id, {
      workload: 'Mailbox',
      restoreType: 'Container',
      snapshotId: mailbox.id,
      itemIds: ['inbox'],
      target: {
        type: 'Different location',
        location: ` ${users[0].userPrincipalName}/Q1 2024 (v1.2) & Café `,
      },
    });
    expect(named.status).toBe(202);
  });
});

describe('backups of a soft-deleted user (SPEC 3.4: the mailbox is preserved)', () => {
  it('Export and Different location work, Original location is 409 until the user is restored', async () => {
    const { tenant: own, users: people } = await backupTenant(app, org);
    const [gone, colleague] = people;
    const resourceId = `mbx-${gone.externalId}`;
    const snapshot = await latestSnapshot(app, org.keys.read, own.id, 'Mailbox', resourceId);
    app.clock.advance(3 * HOUR);
    try {
      const deleted = await app.request('DELETE', `/v1/tenants/${own.id}/users/${gone.id}`, {
        key: org.keys.admin,
      });
      expect(deleted.status).toBeLessThan(300);
      // The hourly catalog job keeps the snapshot: the backup service still holds it.
      await refreshCatalog(app, own);
      const listed = await listSnapshots(app, org.keys.read, own.id, `?userId=${gone.id}&limit=100`);
      expect(listed.map((row) => row.id)).toContain(snapshot.id);

      const body = (target: unknown) => ({
        workload: 'Mailbox',
        restoreType: 'Point-in-time',
        snapshotId: snapshot.id,
        target,
      });
      const before = await writtenRows();
      const original = await startRestore(app, org.keys.write, own.id, body({ type: 'Original location' }));
      expect(original.status).toBe(409);
      expect(original.body.error?.code).toBe('CONFLICT');
      expect(original.body.error?.message).toContain('restore the user first');
      expect(original.body.error?.message).not.toContain('retention');
      expect(await writtenRows()).toBe(before);

      for (const target of [
        { type: 'Export' },
        { type: 'Different location', location: `${colleague.userPrincipalName}/From ${gone.displayName}` },
      ]) {
        const res = await startRestore(app, org.keys.write, own.id, body(target));
        expect(res.status).toBe(202);
        const job = await untilFinished(app, org.keys.read, own.id, res.body.data.id);
        expect(job.status).toBe('Completed');
        expect(job.restoredCount).toBe(snapshot.itemCount);
      }

      // Into the deleted user's own mailbox: nobody can open it, so it is not a place to restore to.
      const intoDeleted = await startRestore(
        app,
        org.keys.write,
        own.id,
        body({ type: 'Different location', location: `${gone.userPrincipalName}/Back` }),
      );
      expect(intoDeleted.status).toBe(400);
      expect(intoDeleted.body.error?.details.fields).toEqual([
        { field: 'target.location', problem: expect.stringContaining('no active user') },
      ]);

      const restored = await app.request('POST', `/api/identity/users/${gone.id}/restore`, {
        key: org.keys.admin,
        body: {},
        headers: { 'X-Tenant-Id': own.id },
      });
      expect(restored.status).toBe(200);
      const again = await startRestore(app, org.keys.write, own.id, body({ type: 'Original location' }));
      expect(again.status).toBe(202);
    } finally {
      app.clock.advance(-3 * HOUR);
    }
  });

  it('a snapshot the backup service no longer holds says so, not "outside the retention window"', async () => {
    const { tenant: own, users: people } = await backupTenant(app, org);
    const snapshot = await latestSnapshot(
      app,
      org.keys.read,
      own.id,
      'Mailbox',
      `mbx-${people[0].externalId}`,
    );
    const cloud = simulatedCloud(app);
    await cloud.deleteUser(own.externalId, people[0].externalId);
    expect(await cloud.purgeUser(own.externalId, people[0].externalId)).toBe(true);
    const res = await startRestore(app, org.keys.write, own.id, {
      workload: 'Mailbox',
      restoreType: 'Point-in-time',
      snapshotId: snapshot.id,
      target: { type: 'Export' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([
      { field: 'snapshotId', problem: expect.stringContaining('no longer held by the backup service') },
    ]);
    expect(JSON.stringify(res.body.error)).not.toContain('retention');
  });
});
