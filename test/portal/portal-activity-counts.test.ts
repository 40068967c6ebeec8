import type pg from 'pg';
import { DAY_MS } from '../../src/core/clock.js';
import type { TenantLicense } from '../../src/licenses/license.entity.js';
import { INACTIVE_AFTER_DAYS } from '../../src/portal/portal-recount-statement.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import { AccountStatus } from '../../src/users/user.enums.js';
import {
  createSku,
  createTenant,
  createUser,
  giveLicense,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';

/**
 * The counts the writes keep for the portal's recount (portal_activity_counts, docs/portal.md "Aggregates")
 * against a count from scratch over the raw rows, written here in SQL, after every kind of write: inserts,
 * updates of activity, status and deletion, SKU changes, held SKUs added and removed, purges, a tenant sync, a
 * tenant deleted, concurrent writers of one tenant, and the five-minute job's folding. Then the recount itself,
 * which reads those counts, against the same count from scratch at instants around every user's crossing of the
 * 30-day line (the counts are by UTC day: the line's own day is read user by user).
 */

let app: SharedApp;
let org: OrganizationWithKeys;
const tenants: Tenant[] = [];
const skus = new Map<string, TenantLicense[]>();
const users: User[] = [];

const ACTIVE_AT = `coalesce(u.last_sign_in_at, u.created_at)`;
const DAY = `((${ACTIVE_AT} at time zone 'UTC')::date - date '1970-01-01')`;

/** The kept counts summed by key (zero sums left out), and the same counted from the raw rows. */
async function counts(): Promise<{ kept: string[]; scratch: string[] }> {
  const ids = tenants.map((tenant) => tenant.id);
  const kept = await app.pool.query<{ key: string }>(
    `select concat_ws('/', tenant_id, coalesce(sku_id::text, 'users'), day, disabled, sum(n)) as key
       from portal_activity_counts where tenant_id = any($1)
      group by tenant_id, sku_id, day, disabled having sum(n) <> 0 order by 1`,
    [ids],
  );
  const scratch = await app.pool.query<{ key: string }>(
    `select key from (
       select concat_ws('/', u.tenant_id, la.sku_id, ${DAY}, u.account_status = 'Disabled', count(*)) as key
         from license_assignments la join users u on u.id = la.user_id and u.tenant_id = la.tenant_id
        where u.deleted_at is null and u.tenant_id = any($1)
        group by u.tenant_id, la.sku_id, ${DAY}, u.account_status = 'Disabled'
       union all
       select concat_ws('/', u.tenant_id, 'users', ${DAY}, u.account_status = 'Disabled', count(*))
         from users u
        where u.deleted_at is null and u.tenant_id = any($1)
          and exists (select 1 from license_assignments la
                        join tenant_licenses tl on tl.tenant_id = la.tenant_id and tl.sku_id = la.sku_id
                       where la.user_id = u.id and la.tenant_id = u.tenant_id)
        group by u.tenant_id, ${DAY}, u.account_status = 'Disabled') s order by 1`,
    [ids],
  );
  return { kept: kept.rows.map((row) => row.key), scratch: scratch.rows.map((row) => row.key) };
}

async function expectCountsExact(): Promise<void> {
  const { kept, scratch } = await counts();
  expect(kept).toEqual(scratch);
}

interface Figures {
  inactive_by_sku: Record<string, number>;
  inactive_licensed_users: number;
  next_crossing_at: string | null;
}

/** The portal's license figures of every tenant at `now`, counted from the raw rows (the recount before #31). */
async function fromScratch(now: Date): Promise<Record<string, Figures>> {
  const line = new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
  const inactive = `(u.account_status = 'Disabled' or ${ACTIVE_AT} <= $2)`;
  const licensed = `license_assignments la join users u on u.id = la.user_id and u.tenant_id = la.tenant_id
                     where la.tenant_id = t.id and u.deleted_at is null`;
  const { rows } = await app.pool.query<Figures & { tenant_id: string }>(
    `select t.id as tenant_id,
            coalesce((select jsonb_object_agg(sku_id, n) from (select la.sku_id, count(*) as n from ${licensed}
                        and ${inactive} group by la.sku_id) s), '{}') as inactive_by_sku,
            (select count(distinct u.id)::int from ${licensed} and ${inactive}
                and exists (select 1 from tenant_licenses tl where tl.tenant_id = la.tenant_id and tl.sku_id = la.sku_id))
              as inactive_licensed_users,
            to_json((select min(${ACTIVE_AT}) + interval '${INACTIVE_AFTER_DAYS * 86400} seconds'
                       from ${licensed} and not ${inactive})) #>> '{}' as next_crossing_at
       from tenants t where t.id = any($1)`,
    [tenants.map((tenant) => tenant.id), line],
  );
  return Object.fromEntries(rows.map(({ tenant_id, ...figures }) => [tenant_id, normalised(figures)]));
}

const normalised = (figures: Figures): Figures => ({
  ...figures,
  next_crossing_at:
    figures.next_crossing_at === null ? null : new Date(figures.next_crossing_at).toISOString(),
});

/** Recounts every tenant of the test at `now` (the same statement as the every-tenant recount) and reads it. */
async function recountAt(now: Date): Promise<Record<string, Figures>> {
  await onServer(
    app,
    'recountTenantsAt',
    tenants.map((tenant) => tenant.id),
    now,
  );
  const { rows } = await app.pool.query<Figures & { tenant_id: string }>(
    `select tenant_id, inactive_by_sku, inactive_licensed_users, to_json(next_crossing_at) #>> '{}' as next_crossing_at
       from portal_tenant_aggregates where tenant_id = any($1)`,
    [tenants.map((tenant) => tenant.id)],
  );
  return Object.fromEntries(rows.map(({ tenant_id, ...figures }) => [tenant_id, normalised(figures)]));
}

/** The recount equals the count from scratch now, and a millisecond before, at and after every user's crossing. */
async function expectRecountExact(): Promise<void> {
  const { rows } = await app.pool.query<{ at: Date }>(
    `select distinct ${ACTIVE_AT} + interval '${INACTIVE_AFTER_DAYS * 86400} seconds' as at
       from users u where u.tenant_id = any($1) and u.deleted_at is null order by 1`,
    [tenants.map((tenant) => tenant.id)],
  );
  const instants = [app.clock.now()];
  for (const { at } of rows) instants.push(new Date(at.getTime() - 1), at, new Date(at.getTime() + 1));
  for (const instant of instants)
    expect([instant, await recountAt(instant)]).toEqual([instant, await fromScratch(instant)]);
}

beforeAll(async () => {
  // The worker's shared server: every count and recount here is of the file's own tenants (the five-minute fold
  // folds every tenant's rows, which changes no figure).
  ({ app, org } = await sharedSuite({ jobs: true }));
  for (let t = 0; t < 2; t++) {
    const tenant = await createTenant(app, org.scope);
    tenants.push(tenant);
    const e3 = await createSku(app, tenant, { skuPartNumber: 'ENTERPRISEPACK', total: 10 });
    const visio = await createSku(app, tenant, { skuPartNumber: 'VISIOCLIENT', total: 3 });
    skus.set(tenant.id, [e3, visio]);
    for (let i = 0; i < 5; i++) {
      // 0, 11.5, 23, 34.5 and 46 days old: some on each side of the line, at different times of day.
      const user = await createUser(app, tenant, {
        accountStatus: i === 4 ? AccountStatus.DISABLED : AccountStatus.ENABLED,
        createdAt: new Date(app.clock.now().getTime() - i * 11.5 * DAY_MS),
      });
      await giveLicense(app, tenant, user, e3);
      if (i % 2 === 1) await giveLicense(app, tenant, user, visio);
      users.push(user);
    }
  }
});
afterAll(() => app.stop());

it('are kept exact by inserts, and the recount reads them right around every crossing', async () => {
  await expectCountsExact();
  await expectRecountExact();
});

it('follow sign-ins, status, soft deletion and restore, SKU changes and removals', async () => {
  const [first, second] = tenants;
  const now = app.clock.now().getTime();
  await app.pool.query(`update users set last_sign_in_at = $1 where id = any($2)`, [
    new Date(now - 29.9 * DAY_MS),
    [users[3].id, users[8].id],
  ]);
  await app.pool.query(`update users set account_status = 'Disabled' where id = $1`, [users[1].id]);
  await app.pool.query(`update users set account_status = 'Enabled' where id = $1`, [users[4].id]);
  await app.pool.query(`update users set deleted_at = $1 where id = $2`, [app.clock.now(), users[2].id]);
  await expectCountsExact();
  await app.pool.query(`update users set deleted_at = null where id = $1`, [users[2].id]);
  const [e3, visio] = skus.get(first.id)!;
  await app.pool.query(`update license_assignments set sku_id = $1 where user_id = $2 and sku_id = $3`, [
    visio.skuId,
    users[0].id,
    e3.skuId,
  ]);
  // Through the API: a Visio seat given back.
  const res = await app.request<Envelope>('POST', `/v1/tenants/${first.id}/licenses/remove`, {
    key: org.keys.write,
    body: { userId: users[3].id, skuId: visio.skuId },
  });
  expect(res.status).toBe(200);
  await app.pool.query(`delete from license_assignments where tenant_id = $1 and user_id = $2`, [
    second.id,
    users[6].id,
  ]);
  await expectCountsExact();
  await expectRecountExact();
});

it('follow held SKUs removed and added again (users then hold none of the tenant SKUs, or some)', async () => {
  const [first] = tenants;
  const [, visio] = skus.get(first.id)!;
  const { rows } = await app.pool.query<Record<string, unknown>>(
    `delete from tenant_licenses where id = $1 returning *`,
    [visio.id],
  );
  await expectCountsExact();
  await expectRecountExact();
  const row = rows[0];
  const columns = Object.keys(row);
  await app.pool.query(
    `insert into tenant_licenses (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
    columns.map((column) => row[column]),
  );
  await app.pool.query(`update tenant_licenses set consumed = consumed + 1 where tenant_id = $1`, [first.id]);
  await expectCountsExact();
  await expectRecountExact();
});

it('follow purges and hard deletes, and a deleted tenant leaves nothing behind', async () => {
  await app.pool.query(`update users set deleted_at = $1 where id = $2`, [app.clock.now(), users[5].id]);
  await app.pool.query(`delete from users where id = $1`, [users[5].id]); // a purge: soft-deleted first
  await app.pool.query(`delete from users where id = $1`, [users[7].id]); // not soft-deleted: by SQL only
  await expectCountsExact();
  await expectRecountExact();

  const doomed = await createTenant(app, org.scope);
  const sku = await createSku(app, doomed, { skuPartNumber: 'ENTERPRISEPACK', total: 1 });
  await giveLicense(app, doomed, await createUser(app, doomed), sku);
  await app.pool.query(`delete from tenants where id = $1`, [doomed.id]);
  const { rows } = await app.pool.query(`select 1 from portal_activity_counts where tenant_id = $1`, [
    doomed.id,
  ]);
  expect(rows).toEqual([]);
});

it('follow a tenant sync', async () => {
  const [first] = tenants;
  // Our rows drift from the cloud's (sign-ins the cloud does not have): the sync writes the cloud's back.
  await app.pool.query(`update users set last_sign_in_at = $1 where tenant_id = $2`, [
    new Date(app.clock.now().getTime() - 40 * DAY_MS),
    first.id,
  ]);
  const sync = await syncAndWait(app, org, first.id);
  expect(sync.status).toBe('Completed');
  await expectCountsExact();
  await expectRecountExact();
});

it('stay exact with two writers of one tenant at once: the second waits for the first to commit', async () => {
  const [, second] = tenants;
  const [e3, visio] = skus.get(second.id)!;
  const user = users[9];
  const writer: pg.PoolClient = await app.pool.connect();
  const other: pg.PoolClient = await app.pool.connect();
  try {
    // A sign-in moves the user's day while another transaction gives it a seat: whichever order they commit
    // in, the seat is counted on the user's new day.
    await writer.query('begin');
    await writer.query(`update users set last_sign_in_at = $1, account_status = 'Enabled' where id = $2`, [
      app.clock.now(),
      user.id,
    ]);
    await other.query('begin');
    const giving = other.query(
      `insert into license_assignments (id, organization_id, environment, tenant_id, user_id, sku_id, assigned_at)
       values (gen_random_uuid(), $1, $2, $3, $4, $5, now())`,
      [org.scope.organizationId, org.scope.environment, second.id, user.id, visio.skuId],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writer.query('commit');
    await giving;
    await other.query('commit');
    await expectCountsExact();

    // Two seats of one user in two transactions: the user holds a held SKU once, however they commit.
    await app.pool.query(`delete from license_assignments where user_id = $1`, [user.id]);
    await writer.query('begin');
    await writer.query(
      `insert into license_assignments (id, organization_id, environment, tenant_id, user_id, sku_id, assigned_at)
       values (gen_random_uuid(), $1, $2, $3, $4, $5, now())`,
      [org.scope.organizationId, org.scope.environment, second.id, user.id, e3.skuId],
    );
    await other.query('begin');
    const both = other.query(
      `insert into license_assignments (id, organization_id, environment, tenant_id, user_id, sku_id, assigned_at)
       values (gen_random_uuid(), $1, $2, $3, $4, $5, now())`,
      [org.scope.organizationId, org.scope.environment, second.id, user.id, visio.skuId],
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writer.query('commit');
    await both;
    await other.query('commit');
  } finally {
    await writer.query('rollback').catch(() => undefined);
    await other.query('rollback').catch(() => undefined);
    writer.release();
    other.release();
  }
  await expectCountsExact();
  await expectRecountExact();
});

it('fold into one row per key at the five-minute job, every figure kept', async () => {
  const ids = tenants.map((tenant) => tenant.id);
  const rowsOf = async () =>
    (await app.pool.query(`select 1 from portal_activity_counts where tenant_id = any($1)`, [ids])).rowCount;
  const before = await rowsOf();
  await onServer(app, 'foldActivityCounts');
  const { rows } = await app.pool.query<{ rows: number }>(
    `select count(*)::int as rows from portal_activity_counts where tenant_id = any($1)
      group by tenant_id, sku_id, day, disabled having count(*) > 1 or sum(n) = 0`,
    [ids],
  );
  expect(rows).toEqual([]);
  expect(await rowsOf()).toBeLessThan(before!);
  await expectCountsExact();
  await expectRecountExact();
});
