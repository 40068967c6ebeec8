import { MAX_JOBS_IN_FLIGHT } from '../../src/core/job-limits.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createTenant } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #32 item 4: 30 aliased job-starting mutations queued 30 jobs for one rate point. Now a document
 * holds at most one job-starting field, such a field is costed by its work, and an organization-environment
 * has at most MAX_JOBS_IN_FLIGHT jobs in flight (429 naming the limit, nothing written).
 */

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
});
afterAll(() => app.stop());

async function syncs(tenantId: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from tenant_syncs where tenant_id = $1',
    [tenantId],
  );
  return rows[0].n;
}

describe('job-starting mutations', () => {
  it('refuses two job-starting fields in one document (400 jobFields), queueing nothing', async () => {
    const second = await createTenant(app, org.scope);
    const aliased = await app.graphql(
      org.keys.write,
      'mutation ($a: UUID!, $b: UUID!) { a: syncTenant(id: $a) { id } b: syncTenant(id: $b) { id } }',
      { a: tenant.id, b: second.id },
    );
    expect(aliased.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { limit: 'jobFields', maximum: 1, actual: 2 },
    });
    expect(await syncs(tenant.id)).toBe(0);
    expect(await syncs(second.id)).toBe(0);
  });

  it('costs a job by its work: a user import by its rows, an apply by its tenants', async () => {
    // queryCost on the server's schema (its fields' job extensions), onServer: the file builds no schema.
    const importCost = (rows: number) =>
      onServer(
        app,
        'queryCost',
        'mutation ($t: UUID!, $csv: String!) { importUsers(tenantId: $t, csv: $csv) { importId } }',
        {
          t: tenant.id,
          csv: [
            'UserPrincipalName,FirstName,LastName',
            ...Array.from({ length: rows }, (_, i) => `u${i}@x,A,B`),
          ].join('\n'),
        },
      );
    expect(await importCost(1)).toBeGreaterThanOrEqual(3000); // one rate point for the job
    expect((await importCost(9000)) - (await importCost(1))).toBeGreaterThanOrEqual(8999);
    const applyCost = (tenantIds: string[] | null) =>
      onServer(
        app,
        'queryCost',
        'mutation ($ids: [UUID!]) { applySecurityRecommendation(id: "mfa", tenantIds: $ids) { status } }',
        { ids: tenantIds },
      );
    expect(await applyCost(null)).toBeGreaterThan(await applyCost([tenant.id]));
  });

  it(`refuses a request past ${MAX_JOBS_IN_FLIGHT} jobs in flight with 429 naming the limit, nothing written`, async () => {
    const fill = MAX_JOBS_IN_FLIGHT;
    await app.pool.query(
      `select graphile_worker.add_job('job-limits-test', json_build_object('organizationId', $1::text,
         'environment', $2::text, 'n', i), run_at => now() + interval '1 hour')
         from generate_series(1, $3) as i`,
      [org.organization.id, org.scope.environment, fill],
    );
    try {
      const refused = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/sync`, {
        key: org.keys.write,
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(refused.body.error).toMatchObject({
        code: 'RATE_LIMITED',
        details: { limit: 'jobsInFlight', maximum: MAX_JOBS_IN_FLIGHT, inFlight: fill },
      });
      expect(await syncs(tenant.id)).toBe(0);
    } finally {
      await app.pool.query(`delete from graphile_worker._private_jobs where task_id in
        (select id from graphile_worker._private_tasks where identifier = 'job-limits-test')`);
    }
    const accepted = await app.request('POST', `/v1/tenants/${tenant.id}/sync`, { key: org.keys.write });
    expect(accepted.status).toBe(202);
  });
});
