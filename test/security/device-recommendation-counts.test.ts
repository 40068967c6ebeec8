import { DEFAULT_APP_DATABASE_ROLE } from '../../src/core/db-session.js';
import { BACK_FILL } from '../../src/db/migrations/Migration20261228090000_device_recommendation_counts.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { storedAndRecounted as storedCounts } from '../helpers/stored-counts.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api, seedSecurity } from './security-kit.js';
import { eventually } from '../helpers/eventually.js';

/**
 * The stored recommendation counts (device_recommendation_counts, kept by the devices table's statement triggers,
 * issue #11) must equal a recount of the devices' open_recommendations after every kind of write: sync inserts,
 * a multi-row insert, updates adding and removing codes, updates touching no code, deletes, concurrent writers
 * and a tenant's deletion; and the route must answer what counting the devices answered.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenants: Tenant[];

const KEY = 'organization_id, environment, tenant_id, code';
const CODES = [['update-os', 'enable-bitlocker'], ['update-os'], [], ['require-passcode', 'update-chrome']];

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  tenants = [await createTenant(app, org.scope), await createTenant(app, org.scope)];
  for (const [t, tenant] of tenants.entries())
    await seedSecurity(app, org.scope, tenant, {
      devices: Array.from({ length: 6 + t * 3 }, (_, i) => ({
        deviceName: `DEV-${t}-${i}`,
        openRecommendations: CODES[i % CODES.length],
      })),
    });
}, 60_000);
afterAll(() => app.stop());

/** Stored counts and a recount, as sorted `key → n` lines, for this organization. */
const storedAndRecounted = () =>
  storedCounts(app, org.organization.id, {
    stored: `select ${KEY}, devices from device_recommendation_counts where organization_id = $1`,
    recounted: `select ${KEY}, count(*)::int from devices, unnest(open_recommendations) as code
        where organization_id = $1 group by ${KEY}`,
  });

async function expectExact(): Promise<void> {
  const { stored, recounted } = await storedAndRecounted();
  expect(stored.length).toBeGreaterThan(0);
  expect(stored).toEqual(recounted);
  const { rows } = await app.pool.query(
    `select 1 from device_recommendation_counts where organization_id = $1 and devices <= 0`,
    [org.organization.id],
  );
  expect(rows).toEqual([]);
}

/** The route's items as `code impact n`, and what the per-request count over the devices gave before. */
async function routeAndDirect(tenant: Tenant): Promise<{ route: string[]; direct: string[] }> {
  const response = await api<Array<{ id: string; impact: string; affectedDeviceCount: number }>>(
    app,
    'GET',
    '/device-security/recommendations',
    { key: org.keys.read, tenantId: tenant.id },
  );
  expect(response.status).toBe(200);
  const { rows } = await app.pool.query<{ code: string; n: number }>(
    `select code, count(*)::int as n from devices, unnest(open_recommendations) as code
      where tenant_id = $1 group by code`,
    [tenant.id],
  );
  return {
    route: response.body.data.map((r) => `${r.id} ${r.affectedDeviceCount}`).sort(),
    // Unknown codes were never listed.
    direct: rows
      .filter((row) => row.code !== 'not-in-catalog')
      .map((row) => `${row.code} ${row.n}`)
      .sort(),
  };
}

describe('device recommendation counts', () => {
  it('equal a recount after sync inserted the devices, and the route lists them', async () => {
    await expectExact();
    const { route, direct } = await routeAndDirect(tenants[0]);
    expect(route).toEqual(['enable-bitlocker 2', 'require-passcode 1', 'update-chrome 1', 'update-os 4']);
    expect(route).toEqual(direct);
  });

  it('follow a multi-row insert', async () => {
    const { rows } = await app.pool.query<{ id: string }>(
      `select id from devices where tenant_id = $1 order by device_name limit 1`,
      [tenants[0].id],
    );
    await app.pool.query(
      `insert into devices select (d).* from (
         select jsonb_populate_record(t, jsonb_build_object('id', gen_random_uuid(),
           'external_id', gen_random_uuid()::text,
           'open_recommendations', array['update-os', 'disable-smbv1', 'not-in-catalog'])) as d
           from devices t, generate_series(1, 5) where t.id = $1) copies`,
      [rows[0].id],
    );
    await expectExact();
    const { route, direct } = await routeAndDirect(tenants[0]);
    expect(route).toContain('disable-smbv1 5');
    expect(route).toEqual(direct);
  });

  it('follow one statement that adds codes to some devices, removes codes from others and empties some', async () => {
    await app.pool.query(
      `update devices set open_recommendations = case
           when 'update-chrome' = any(open_recommendations) then array['block-sideloading']
           when cardinality(open_recommendations) = 0 then array['update-openssl', 'update-os']
           when 'enable-bitlocker' = any(open_recommendations) then '{}'
           else open_recommendations || array['turn-on-tamper-protection'] end,
         last_seen_at = now()
       where organization_id = $1`,
      [org.organization.id],
    );
    await expectExact();
    for (const tenant of tenants) {
      const { route, direct } = await routeAndDirect(tenant);
      expect(route).toEqual(direct);
    }
  });

  it('do not change (nor rewrite a count) when an update touches no code', async () => {
    const versions = `select ${KEY}, devices, xmin::text from device_recommendation_counts
      where organization_id = $1 order by ${KEY}`;
    const before = (await app.pool.query(versions, [org.organization.id])).rows;
    await app.pool.query(
      `update devices set last_seen_at = now(), device_name = device_name || '-x' where organization_id = $1`,
      [org.organization.id],
    );
    expect((await app.pool.query(versions, [org.organization.id])).rows).toEqual(before);
  });

  it('stay exact when two transactions change the same codes of one tenant at once', async () => {
    const { rows } = await app.pool.query<{ id: string }>(
      `select id from devices where tenant_id = $1 order by device_name limit 2`,
      [tenants[1].id],
    );
    const [first, second] = [await app.pool.connect(), await app.pool.connect()];
    try {
      const change = `update devices set open_recommendations = array['update-os', 'update-chrome'] where id = $1`;
      await first.query('begin');
      await second.query('begin');
      await first.query(change, [rows[0].id]);
      // Waits on the count rows the first transaction holds, then adds to what it committed.
      const { rows: backend } = await second.query<{ pid: number }>('select pg_backend_pid() as pid');
      let waited = true;
      const waiting = second.query(change, [rows[1].id]).then(() => (waited = false));
      // PostgreSQL itself says the second update is waiting for a lock (no sleep that merely hopes so).
      await eventually(
        async () => {
          const { rows: activity } = await app.pool.query<{ wait: string | null }>(
            'select wait_event_type as wait from pg_stat_activity where pid = $1',
            [backend[0].pid],
          );
          expect(activity[0]?.wait).toBe('Lock');
        },
        { what: "the second update to wait for the first one's lock" },
      );
      expect(waited).toBe(true);
      await first.query('commit');
      await waiting;
      await second.query('commit');
    } catch (error) {
      await Promise.all([first.query('rollback'), second.query('rollback')]);
      throw error;
    } finally {
      first.release();
      second.release();
    }
    await expectExact();
  });

  it('back-filled by the migration from the devices there, equal the counts the triggers kept', async () => {
    const before = await storedAndRecounted();
    const client = await app.pool.connect();
    try {
      await client.query('begin');
      await client.query('delete from device_recommendation_counts');
      await client.query(BACK_FILL);
      const { rows } = await client.query<Record<string, string | number>>(
        `select ${KEY}, devices from device_recommendation_counts where organization_id = $1`,
        [org.organization.id],
      );
      expect(rows.map((row) => Object.values(row).join(' ')).sort()).toEqual(before.stored);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('follow a write of the application role under row-level security (the request path)', async () => {
    const client = await app.pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `select set_config('app.organization_id', $1, true), set_config('app.environment', $2, true),
                set_config('role', $3, true)`,
        [org.scope.organizationId, org.scope.environment, DEFAULT_APP_DATABASE_ROLE],
      );
      await client.query(
        `update devices set open_recommendations = open_recommendations || array['update-openssl']
          where tenant_id = $1`,
        [tenants[0].id],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    await expectExact();
  });

  it('follow deletes, and leave no zero rows behind', async () => {
    await app.pool.query(
      `delete from devices where tenant_id = $1 and 'update-os' = any(open_recommendations)`,
      [tenants[1].id],
    );
    await expectExact();
    const { rows } = await app.pool.query(
      `select 1 from device_recommendation_counts where tenant_id = $1 and code = 'update-os'`,
      [tenants[1].id],
    );
    expect(rows).toEqual([]);
  });

  it("lose a deleted tenant's devices entirely (the cascade deletes run the trigger too)", async () => {
    await app.pool.query(`delete from tenants where id = $1`, [tenants[1].id]);
    await expectExact();
    const { rows } = await app.pool.query(`select 1 from device_recommendation_counts where tenant_id = $1`, [
      tenants[1].id,
    ]);
    expect(rows).toEqual([]);
  });
});
