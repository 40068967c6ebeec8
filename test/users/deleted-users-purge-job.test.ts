import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { PurgeLimits } from '../../src/users/deleted-user-purge.task.js';
import { cloudUserOf, createTenant, createUser, type OrganizationWithKeys } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { DAY, rowExists, softDelete } from './deleted-user-kit.js';
import { cloudObjects, eventsAbout } from './user-test-kit.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';

/**
 * The purge job's task name (DELETED_USER_PURGE_TASK, src/users/deleted-user-purge.task.ts), spelled out: the
 * module loads the app's services, and jobs already queued under the name must still find their task.
 */
const DELETED_USER_PURGE_TASK = 'deleted-user-purge';

let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;

// A database of the file's own: the purge runs over every organization, and the tests count what it purged. The
// job itself is the server's (onServer: src/tasks.ts loads every feature).
beforeAll(async () => ({ app, org, other, tenant } = await realmSuite({ other: true, tenant: true })));
afterAll(() => app.stop());

const purgeExpiredUsers = (limits?: PurgeLimits) => onServer(app, 'purgeExpiredUsers', limits);

async function inCloud(externalId: string, target = tenant): Promise<boolean> {
  const users = await cloudObjects(app, target.externalId, 'user');
  return users.some((user) => user.externalId === externalId);
}

/** Purges what earlier tests left in the recycle bin, so each test counts only its own users. */
async function drain(): Promise<void> {
  app.clock.advance(31 * DAY);
  await purgeExpiredUsers();
}

describe('the deleted-user purge job', () => {
  it('is scheduled hourly on the job queue', async () => {
    expect(await onServer(app, 'cronItems')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          task: DELETED_USER_PURGE_TASK,
          match: expect.stringMatching(/^\d+ \* \* \* \*$/),
        }),
      ]),
    );
    expect(await onServer(app, 'taskNames')).toContain(DELETED_USER_PURGE_TASK);
  });

  it('purges only users deleted 30 or more days ago, across organizations, and says it was automatic', async () => {
    const theirTenant = await createTenant(app, other.scope);
    const old = await createUser(app, tenant);
    const theirOld = await createUser(app, theirTenant);
    await softDelete(app, org.keys.admin, tenant, old);
    await softDelete(app, other.keys.admin, theirTenant, theirOld);
    app.clock.advance(DAY);
    const recent = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, recent);
    const active = await createUser(app, tenant);

    app.clock.advance(29 * DAY - 1);
    expect((await purgeExpiredUsers()).purged).toBe(0); // a millisecond short of 30 days
    expect(await rowExists(app, old.id)).toBe(true);

    app.clock.advance(1);
    const result = await purgeExpiredUsers();
    expect(result).toMatchObject({ activeUpstream: 0, failed: 0 });
    expect(await rowExists(app, old.id)).toBe(false);
    expect(await rowExists(app, theirOld.id)).toBe(false);
    expect(await inCloud(old.externalId)).toBe(false);
    expect(await inCloud(theirOld.externalId, theirTenant)).toBe(false);
    expect(await rowExists(app, recent.id)).toBe(true);
    expect(await rowExists(app, active.id)).toBe(true);
    expect((await cloudUserOf(app, tenant, recent.externalId)).deletedAt).not.toBeNull();

    const [, purged] = await eventsAbout(app, old.id);
    expect(purged.payload).toMatchObject({
      event: 'user.purged',
      tenant: { id: tenant.id },
      details: { userId: old.id, automatic: true, purgedBy: 'system:deleted-user-purge' },
    });
    // Each organization's event is its own.
    const { rows } = await app.pool.query<{ organization_id: string }>(
      `select organization_id from domain_events where kind = 'user.purged' and payload->'details'->>'userId' = $1`,
      [theirOld.id],
    );
    expect(rows).toEqual([{ organization_id: other.organization.id }]);

    // Idempotent: a second run finds nothing more.
    expect((await purgeExpiredUsers()).purged).toBe(0);
    expect((await eventsAbout(app, old.id)).filter((e) => e.kind === 'user.purged')).toHaveLength(1);
  });

  it('works in bounded batches, and purges each user once when runs overlap', async () => {
    await drain();
    const users = [];
    for (let i = 0; i < 7; i++) users.push(await createUser(app, tenant));
    for (const user of users) await softDelete(app, org.keys.admin, tenant, user);
    app.clock.advance(31 * DAY);

    const one = await purgeExpiredUsers({ batchSize: 2, maxBatches: 1 });
    expect(one.purged).toBe(2);
    const [a, b] = await Promise.all([
      purgeExpiredUsers({ batchSize: 2, maxBatches: 10 }),
      purgeExpiredUsers({ batchSize: 2, maxBatches: 10 }),
    ]);
    expect(a.purged + b.purged).toBe(5);
    for (const user of users) {
      expect(await rowExists(app, user.id)).toBe(false);
      expect((await eventsAbout(app, user.id)).filter((e) => e.kind === 'user.purged')).toHaveLength(1);
    }
  });

  it('runs as the graphile-worker task', async () => {
    await drain();
    const user = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, user);
    app.clock.advance(30 * DAY);
    const logged: string[] = [];
    await onServer(
      app,
      'runTask',
      DELETED_USER_PURGE_TASK,
      {},
      {
        logger: { info: (message: string) => logged.push(message) } as never,
      },
    );
    expect(await rowExists(app, user.id)).toBe(false);
    expect(logged.join()).toMatch(/"purged":1/);
  });

  it('leaves a user restored upstream for the next sync, and goes on with the others', async () => {
    await drain();
    const back = await createUser(app, tenant);
    const gone = await createUser(app, tenant);
    await softDelete(app, org.keys.admin, tenant, back);
    await softDelete(app, org.keys.admin, tenant, gone);
    await simulatedCloud(app).restoreUser(tenant.externalId, back.externalId, {
      userPrincipalName: back.userPrincipalName,
      accountEnabled: true,
    });
    app.clock.advance(30 * DAY);
    const result = await purgeExpiredUsers({ batchSize: 1, maxBatches: 5 });
    expect(result).toEqual({ purged: 1, activeUpstream: 1, failed: 0 });
    expect(await rowExists(app, back.id)).toBe(true);
    expect(await rowExists(app, gone.id)).toBe(false);
  });

  it("passes over a tenant that withdrew the organization's grant (the cloud refuses), and purges the others", async () => {
    await drain();
    const revoked = await createTenant(app, org.scope);
    const kept = await createUser(app, tenant);
    const refused = await createUser(app, revoked);
    await softDelete(app, org.keys.admin, tenant, kept);
    await softDelete(app, org.keys.admin, revoked, refused);
    await (app.deps.clouds as SimulatedCloud).consent.revokeDelegatedAccess(
      revoked.externalId,
      org.organization.id,
    );
    app.clock.advance(30 * DAY);
    const result = await purgeExpiredUsers();
    // (activeUpstream counts the user the test above restored upstream, still in our recycle bin.)
    expect(result).toMatchObject({ purged: 1, failed: 1 });
    expect(await rowExists(app, kept.id)).toBe(false);
    expect(await rowExists(app, refused.id)).toBe(true);
    expect(await inCloud(refused.externalId, revoked)).toBe(true);
  });
});
