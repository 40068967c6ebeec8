import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api } from './security-kit.js';

/**
 * The security lists cost a fixed number of SQL statements whatever the page size (no N+1): 120 rows of each
 * kind (written straight into the tables), read at limit=10 and limit=100.
 */
const ITEMS = 120;

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  const scope = [org.scope.organizationId, org.scope.environment, tenant.id, ITEMS];
  await app.pool.query(
    `insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
       os_version, ownership, manufacturer, model, enrolled_at, compliance_state, risk_level, risk_rank,
       exposure_score, health_state, onboarding_status, last_seen_at, open_recommendations, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, 'd' || i, 'DEVICE-' || i, 'Windows', '10', 'Corporate', 'Dell', 'X',
       now(), 'Compliant', 'Low', 1, i % 100, 'Active', 'Onboarded', now(),
       array['update-os', 'disable-smbv1', 'update-chrome'], now(), now()
     from generate_series(1, $4) as i`,
    scope,
  );
  await app.pool.query(
    `insert into security_alerts (id, organization_id, environment, tenant_id, external_id, title, description,
       severity, severity_rank, status, category, source, affected_entity, device_id, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, 'a' || i, 'Alert ' || i, '', 'High', 4, 'New', 'Malware', 'Defender',
       'DEVICE-' || i, (select id from devices where external_id = 'd' || i and tenant_id = $3),
       now() - i * interval '1 minute', now()
     from generate_series(1, $4) as i`,
    scope,
  );
  await app.pool.query(
    `insert into security_alert_comments (id, organization_id, environment, alert_id, text, author, author_name, created_at)
     select gen_random_uuid(), organization_id, environment, id, 'note', 'test', 'test', now() from security_alerts
      where tenant_id = $1`,
    [tenant.id],
  );
  await app.pool.query(
    `insert into endpoint_dlp_policies (id, organization_id, environment, tenant_id, external_id, name, action,
       device_groups, monitored_activities, enabled, created_at)
     select gen_random_uuid(), $1, $2, $3, 'p' || i, 'Policy ' || i, 'Block', array['All'], array['Print'], true, now()
     from generate_series(1, $4) as i`,
    scope,
  );
  await app.pool.query(
    `insert into endpoint_dlp_alerts (id, organization_id, environment, tenant_id, external_id, policy_id,
       policy_name, activity, user_principal_name, file_name, action_taken, occurred_at)
     select gen_random_uuid(), organization_id, environment, tenant_id, 'h' || external_id, id, name, 'Print',
       'ann@contoso.com', 'f.txt', 'Blocked', now() from endpoint_dlp_policies where tenant_id = $1`,
    [tenant.id],
  );
}, 60_000);
afterAll(() => app.stop());

it.each([
  ['alerts', '/alerts?sort=severity&severity=High&search=Alert'],
  ['devices', '/device-security?riskLevel=Low&exposureMin=0'],
  ['device recommendations', '/device-security/recommendations'],
  ['endpoint DLP policies', '/endpoint-dlp/policies?action=Block'],
  ['endpoint DLP alerts', '/endpoint-dlp/alerts?activity=Print'],
])('%s: the same statements at limit=10 and limit=100', async (_name, path) => {
  const read = async (limit: number) => {
    const res = await api<unknown[]>(app, 'GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(Math.min(limit, res.body.meta!.total));
  };
  await read(10); // warm-up: the key is verified and cached
  const small = await app.sql.during(() => read(10));
  const large = await app.sql.during(() => read(100));
  expect(small).toBeGreaterThan(0);
  expect(large).toBe(small);
});

it.each([
  [
    'securityAlerts with comments',
    'securityAlerts(tenantId: $t, limit: $limit) { items { id comments { id } } }',
  ],
  [
    'securityDevices with timelines',
    'securityDevices(tenantId: $t, limit: $limit) { items { id timeline { kind } } }',
  ],
])('GraphQL %s: the same statements at limit=10 and limit=100', async (_name, selection) => {
  const read = async (limit: number) => {
    const res = await app.graphql(org.keys.read, `query($t: UUID!, $limit: Int) { ${selection} }`, {
      t: tenant.id,
      limit,
    });
    expect(res.body.errors).toBeUndefined();
  };
  await read(10);
  const small = await app.sql.during(() => read(10));
  const large = await app.sql.during(() => read(100));
  expect(large).toBe(small);
});
