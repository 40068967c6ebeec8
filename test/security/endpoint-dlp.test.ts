import type { CloudDlpAlertRecord, CloudDlpPolicyRecord } from '../../src/cloud/security.provider.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api, fieldsOf, securityCloud, sync } from './security-kit.js';
import type { ItemOf } from '../helpers/api-types.js';

type PolicyBody = ItemOf<'listEndpointDlpPolicies'>;
type DlpAlertBody = ItemOf<'listEndpointDlpAlerts'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let policyIds: Record<string, string>;

const HOUR = 3_600_000;

function policy(externalId: string, fields: Partial<CloudDlpPolicyRecord>): CloudDlpPolicyRecord {
  return {
    externalId,
    name: externalId,
    action: 'Block',
    deviceGroups: ['All devices'],
    monitoredActivities: ['Print'],
    enabled: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

function hit(
  externalId: string,
  policyExternalId: string,
  fields: Partial<CloudDlpAlertRecord>,
): CloudDlpAlertRecord {
  return {
    externalId,
    policyExternalId,
    activity: 'Print',
    deviceExternalId: null,
    userExternalId: null,
    userPrincipalName: 'ann@contoso.com',
    fileName: 'payroll.xlsx',
    actionTaken: 'Blocked',
    occurredAt: new Date(app.clock.now().getTime() - HOUR).toISOString(),
    ...fields,
  };
}

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  const cloud = securityCloud(app);
  const at = (hours: number) => new Date(app.clock.now().getTime() - hours * HOUR).toISOString();
  await cloud.addDlp(
    tenant.externalId,
    policy('usb', {
      name: 'Financial data - block USB',
      action: 'Block',
      monitoredActivities: ['Copy to removable media', 'Print'],
    }),
    [
      hit('h1', 'usb', { activity: 'Copy to removable media', occurredAt: at(1) }),
      hit('h2', 'usb', { activity: 'Print', occurredAt: at(30) }),
    ],
  );
  await cloud.addDlp(
    tenant.externalId,
    policy('pii', {
      name: 'PII - warn on upload',
      action: 'Block with override',
      monitoredActivities: ['Upload to cloud service'],
    }),
    [hit('h3', 'pii', { activity: 'Upload to cloud service', actionTaken: 'Overridden', occurredAt: at(2) })],
  );
  await cloud.addDlp(
    tenant.externalId,
    policy('audit', {
      name: 'Source code - audit',
      action: 'Audit only',
      monitoredActivities: ['Clipboard copy/paste'],
    }),
  );
  await sync(app, org.scope, tenant.id);
  const { rows } = await app.pool.query<{ id: string; external_id: string }>(
    'select id, external_id from endpoint_dlp_policies where tenant_id = $1',
    [tenant.id],
  );
  policyIds = Object.fromEntries(rows.map((row) => [row.external_id, row.id]));
});
afterAll(() => app.stop());

describe('GET /api/security/endpoint-dlp/policies', () => {
  it('lists the policies by name with action, device groups and activities; filters combine', async () => {
    const list = async (query = '') =>
      (
        await api<PolicyBody[]>(app, 'GET', `/endpoint-dlp/policies${query}`, {
          key: org.keys.read,
          tenantId: tenant.id,
        })
      ).body;
    const all = await list();
    expect(all.data.map((p) => [p.name, p.action])).toEqual([
      ['Financial data - block USB', 'Block'],
      ['PII - warn on upload', 'Block with override'],
      ['Source code - audit', 'Audit only'],
    ]);
    expect(all.data[0]).toMatchObject({
      deviceGroups: ['All devices'],
      monitoredActivities: ['Copy to removable media', 'Print'],
    });
    expect(all.meta).toEqual({ page: 1, limit: 25, total: 3 });
    expect((await list('?action=Block,Audit%20only')).data.map((p) => p.name)).toEqual([
      'Financial data - block USB',
      'Source code - audit',
    ]);
    expect((await list('?activity=Print&activity=Clipboard%20copy%2Fpaste')).data).toHaveLength(2);
    expect((await list('?search=pii')).data.map((p) => p.name)).toEqual(['PII - warn on upload']);
  });
});

describe('GET /api/security/endpoint-dlp/alerts', () => {
  it('lists newest first with policy, activity, user, file, action taken; filters by policy, activity, action and date', async () => {
    const list = async (query = '') =>
      (
        await api<DlpAlertBody[]>(app, 'GET', `/endpoint-dlp/alerts${query}`, {
          key: org.keys.read,
          tenantId: tenant.id,
        })
      ).body.data;
    const all = await list();
    expect(all.map((a) => a.activity)).toEqual([
      'Copy to removable media',
      'Upload to cloud service',
      'Print',
    ]);
    expect(all[1]).toMatchObject({
      policyName: 'PII - warn on upload',
      actionTaken: 'Overridden',
      fileName: 'payroll.xlsx',
      userPrincipalName: 'ann@contoso.com',
    });
    expect((await list(`?policyId=${policyIds.usb}`)).map((a) => a.activity)).toEqual([
      'Copy to removable media',
      'Print',
    ]);
    expect((await list(`?policyId=${policyIds.usb}&activity=Print`)).map((a) => a.policyName)).toEqual([
      'Financial data - block USB',
    ]);
    expect((await list('?actionTaken=Overridden')).map((a) => a.policyId)).toEqual([policyIds.pii]);
    const from = encodeURIComponent(new Date(app.clock.now().getTime() - 24 * HOUR).toISOString());
    expect(await list(`?from=${from}`)).toHaveLength(2);
    expect(await list(`?to=${from}`)).toHaveLength(1);
  });

  it('refuses an unknown activity or action and a reversed range with 400 naming the field', async () => {
    for (const [query, field] of [
      ['activity=Fax', 'activity'],
      ['actionTaken=Ignored', 'actionTaken'],
      ['from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z', 'from'],
      ['policyId=nope', 'policyId'],
    ]) {
      const res = await api(app, 'GET', `/endpoint-dlp/alerts?${query}`, {
        key: org.keys.read,
        tenantId: tenant.id,
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body).map((f) => f.field.split('.')[0])).toContain(field);
    }
  });
});

describe.each(['/endpoint-dlp/policies', '/endpoint-dlp/alerts'])('%s', (path) => {
  it('needs X-Tenant-Id (400), hides other organizations’ tenants (404), and is read-only with a Read key', async () => {
    const missing = await api(app, 'GET', path, { key: org.keys.read });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body).map((f) => f.field)).toEqual(['X-Tenant-Id']);
    expect((await api(app, 'GET', path, { key: other.keys.admin, tenantId: tenant.id })).status).toBe(404);
    expect(
      (await api(app, 'POST', path, { key: org.keys.admin, tenantId: tenant.id, body: {} })).status,
    ).toBe(404);
  });

  it('answers the same over GraphQL', async () => {
    const field = path.endsWith('policies') ? 'endpointDlpPolicies' : 'endpointDlpAlerts';
    const res = await app.graphql<Record<string, { pageInfo: { total: number } }>>(
      org.keys.read,
      `query($t: UUID!) { ${field}(tenantId: $t) { pageInfo { total } } }`,
      { t: tenant.id },
    );
    expect(res.body.data?.[field].pageInfo.total).toBe(3);
  });
});
