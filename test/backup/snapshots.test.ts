import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { cloudUserOf, createTenant, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import {
  backupCall,
  backupTenant,
  browse,
  DAY,
  HOUR,
  latestSnapshot,
  listSnapshots,
  refreshCatalog,
  type SnapshotBody,
} from './backup-kit.js';

let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

// A database of the file's own: the hourly catalog job's run covers every tenant and the test counts its snapshots.
beforeAll(async () => ({ app, org, other } = await realmSuite({ other: true })));
afterAll(() => app.stop());

describe('GET /api/backup/snapshots', () => {
  it('lists snapshots of every workload taken every 4 hours, newest first, each with its item count', async () => {
    const { tenant, users } = await backupTenant(app, org);
    const all = await listSnapshots(app, org.keys.read, tenant.id, '?limit=100');
    expect(new Set(all.map((s) => s.workload))).toEqual(
      new Set(['Mailbox', 'Personal file storage', 'Site collaboration', 'Team chat']),
    );
    const mailbox = await listSnapshots(
      app,
      org.keys.read,
      tenant.id,
      `?workload=Mailbox&userId=${users[0].id}&limit=100`,
    );
    // Protected for 3 days at the first look: 18 four-hour slots (12:00 is a slot boundary).
    expect(mailbox).toHaveLength(19);
    expect(mailbox[0]).toEqual({
      id: expect.any(String),
      tenantId: tenant.id,
      workload: 'Mailbox',
      resourceId: `mbx-${users[0].externalId}`,
      resourceName: users[0].userPrincipalName,
      userId: users[0].id,
      takenAt: '2026-11-01T12:00:00.000Z',
      expiresAt: '2026-12-01T12:00:00.000Z',
      itemCount: expect.any(Number),
    });
    const times = mailbox.map((s) => Date.parse(s.takenAt));
    for (let i = 1; i < times.length; i++) expect(times[i - 1] - times[i]).toBe(4 * HOUR);
  });

  it('filters by date range and resource, and 400 naming `to` when the range is reversed', async () => {
    const { tenant } = await backupTenant(app, org);
    const ranged = await listSnapshots(
      app,
      org.keys.read,
      tenant.id,
      '?workload=Team%20chat&resourceId=team-all-company&from=2026-10-31T00:00:00Z&to=2026-10-31T23:59:59Z',
    );
    expect(ranged.map((s) => s.takenAt)).toEqual(
      [20, 16, 12, 8, 4, 0].map((h) => `2026-10-31T${String(h).padStart(2, '0')}:00:00.000Z`),
    );
    const bad = await backupCall(app, 'GET', '/snapshots?from=2026-11-01T00:00:00Z&to=2026-10-01T00:00:00Z', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details.fields).toEqual([{ field: 'to', problem: expect.any(String) }]);
  });

  it('takes a new snapshot on the 4-hour schedule of the clock and drops those past the 30-day retention', async () => {
    const { tenant } = await backupTenant(app, org);
    const query = '?workload=Site%20collaboration&resourceId=site-intranet&limit=100';
    const before = await listSnapshots(app, org.keys.read, tenant.id, query);
    app.clock.advance(4 * HOUR);
    await refreshCatalog(app, tenant);
    const after = await listSnapshots(app, org.keys.read, tenant.id, query);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0].takenAt).toBe('2026-11-01T16:00:00.000Z');

    app.clock.advance(31 * DAY);
    await refreshCatalog(app, tenant);
    const later = await backupCall<SnapshotBody[]>(app, 'GET', `/snapshots${query}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    // 30 days of 4-hour slots, both ends included; nothing older is listed.
    expect(later.body.meta?.total).toBe(30 * 6 + 1);
    const cutoff = new Date(app.clock.now().getTime() - 30 * DAY - 1).toISOString();
    expect(await listSnapshots(app, org.keys.read, tenant.id, `${query}&to=${cutoff}`)).toEqual([]);
    app.clock.set(new Date('2026-11-01T12:00:00Z'));
  });

  it("leaves the catalog of a tenant that withdrew the organization's grant as it was, and refreshes the others", async () => {
    const { tenant: kept } = await backupTenant(app, org);
    const { tenant: revoked } = await backupTenant(app, org);
    const query = '?workload=Site%20collaboration&resourceId=site-intranet&limit=100';
    const [keptBefore, revokedBefore] = [
      await listSnapshots(app, org.keys.read, kept.id, query),
      await listSnapshots(app, org.keys.read, revoked.id, query),
    ];
    await (app.deps.clouds as SimulatedCloud).consent.revokeDelegatedAccess(
      revoked.externalId,
      org.organization.id,
    );
    app.clock.advance(4 * HOUR);
    expect(await onServer(app, 'refreshAllSnapshotCatalogs')).toBeGreaterThan(0);
    expect(await listSnapshots(app, org.keys.read, kept.id, query)).toHaveLength(keptBefore.length + 1);
    expect(await listSnapshots(app, org.keys.read, revoked.id, query)).toEqual(revokedBefore);
    app.clock.set(new Date('2026-11-01T12:00:00Z'));
  });

  it('keeps protecting a member once protected: users added later do not push their snapshots out', async () => {
    const { tenant, users } = await backupTenant(app, org);
    const mailboxesOf = async () => {
      const { rows } = await app.pool.query<{ resource_id: string; n: number }>(
        `select resource_id, count(*)::int as n from backup_snapshots
          where tenant_id = $1 and workload = 'Mailbox' group by resource_id`,
        [tenant.id],
      );
      return new Map(rows.map((row) => [row.resource_id, row.n]));
    };
    const before = await mailboxesOf();
    expect([...before.keys()].sort()).toEqual(users.map((user) => `mbx-${user.externalId}`).sort());
    // Twelve members whose ids sort before every existing one: a "first 10 by id" cut would drop both users.
    const template = await cloudUserOf(app, tenant, users[0].externalId);
    for (let i = 0; i < 12; i++) {
      const externalId = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await onServer(app, 'putCloudObject', tenant.externalId, 'user', externalId, {
        ...template,
        externalId,
        userPrincipalName: `early-${i}@${tenant.domain}`,
      });
    }
    await refreshCatalog(app, tenant);
    const after = await mailboxesOf();
    for (const user of users)
      expect(after.get(`mbx-${user.externalId}`)).toBe(before.get(`mbx-${user.externalId}`));
    // Room for 8 more of the 10 protected members, taken in id order.
    expect(after.size).toBe(10);
    expect(after.has('mbx-00000000-0000-4000-8000-000000000007')).toBe(true);
    expect(after.has('mbx-00000000-0000-4000-8000-000000000008')).toBe(false);
  });

  it('is the same through GraphQL', async () => {
    const { tenant } = await backupTenant(app, org);
    const rest = await listSnapshots(app, org.keys.read, tenant.id, '?workload=Team%20chat&limit=3');
    const res = await app.graphql<{
      backupSnapshots: {
        items: Array<{ id: string; workload: string; takenAt: string }>;
        pageInfo: { total: number };
      };
    }>(
      org.keys.read,
      `query($t: UUID!) { backupSnapshots(tenantId: $t, workload: TEAM_CHAT, limit: 3) {
        items { id workload takenAt } pageInfo { total } } }`,
      { t: tenant.id },
    );
    expect(res.body.data?.backupSnapshots.items.map((s) => s.id)).toEqual(rest.map((s) => s.id));
    expect(res.body.data?.backupSnapshots.items[0].workload).toBe('TEAM_CHAT');
  });

  it('400 naming X-Tenant-Id when missing; 404 for a tenant of another organization', async () => {
    const { tenant } = await backupTenant(app, org);
    const missing = await backupCall(app, 'GET', '/snapshots', { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('X-Tenant-Id');
    const foreign = await backupCall(app, 'GET', '/snapshots', { key: other.keys.read, tenantId: tenant.id });
    expect(foreign.status).toBe(404);
  });

  it('costs the same number of SQL statements at limit=2 and limit=40', async () => {
    const { tenant } = await backupTenant(app, org);
    const read = async (limit: number) =>
      expect(await listSnapshots(app, org.keys.read, tenant.id, `?limit=${limit}`)).toHaveLength(limit);
    await read(2);
    const small = await app.sql.during(() => read(2));
    const large = await app.sql.during(() => read(40));
    expect(large).toBe(small);
  });
});

describe('GET /api/backup/snapshots/:id/items (browse, extension)', () => {
  it('shows the containers of a snapshot, then the items of one container', async () => {
    const { tenant } = await backupTenant(app, org);
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const folders = await browse(app, org.keys.read, tenant.id, snapshot.id);
    expect(folders.map((f) => f.name)).toEqual(['Inbox', 'Sent Items', 'Archive', 'Projects']);
    expect(folders.every((f) => f.kind === 'Container' && f.itemType === 'Folder')).toBe(true);
    const inbox = await browse(app, org.keys.read, tenant.id, snapshot.id, 'inbox');
    expect(inbox).toHaveLength(folders[0].childCount);
    expect(inbox[0]).toMatchObject({
      itemId: 'inbox/1',
      parentId: 'inbox',
      kind: 'Item',
      itemType: 'Message',
    });
    const total = folders.reduce((sum, folder) => sum + folder.childCount, 0);
    expect(total).toBe(snapshot.itemCount);

    const channels = await browse(
      app,
      org.keys.read,
      tenant.id,
      (await latestSnapshot(app, org.keys.read, tenant.id, 'Team chat')).id,
    );
    expect(channels.map((c) => c.itemType)).toEqual(['Channel', 'Channel', 'Channel']);
  });

  it('404 for a snapshot of another tenant or organization, and for an unknown container', async () => {
    const { tenant } = await backupTenant(app, org);
    const snapshot = await latestSnapshot(app, org.keys.read, tenant.id, 'Mailbox');
    const elsewhere = await createTenant(app, org.scope);
    const wrongTenant = await backupCall(app, 'GET', `/snapshots/${snapshot.id}/items`, {
      key: org.keys.read,
      tenantId: elsewhere.id,
    });
    expect(wrongTenant.status).toBe(404);
    const foreign = await backupCall(app, 'GET', `/snapshots/${snapshot.id}/items`, {
      key: other.keys.read,
      tenantId: tenant.id,
    });
    expect(foreign.status).toBe(404);
    const unknown = await backupCall(app, 'GET', `/snapshots/${snapshot.id}/items?parentId=nope`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(unknown.status).toBe(404);
  });
});
