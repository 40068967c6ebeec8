import { impliedPermissions, Permission } from '../../src/core/permissions.js';
import type { TenantLicense } from '../../src/licenses/license.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import {
  createMember,
  createOAuthClient,
  issueAccessToken,
  type RegisteredClient,
} from '../factories/oauth.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { createLicenseUser, createSku, createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { createWebhook } from '../webhooks/webhook-kit.js';
import { refreshCatalog } from '../backup/backup-kit.js';
import { insertSecurityRows } from '../security/security-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let sku: TenantLicense;
let registered: RegisteredClient;
let member: { id: string };
let webhookId: string;

/** A receiver nobody listens on: webhooks are created and test sends queued, never delivered (no jobs). */
const HOOK_URL = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ webhooks: { allowPrivateTargets: true } }));
  webhookId = (await createWebhook(app, org.keys.admin, { url: HOOK_URL, events: ['user.*'] })).id;
  tenant = await createTenant(app, org.scope);
  sku = await createSku(app, tenant, { total: 100 });
  registered = await createOAuthClient(app, org.scope);
  member = await createMember(app, org.organization.id);
});
afterAll(() => app.stop());

interface Call {
  status: number;
  error?: { code: string; details: Record<string, unknown> };
}

/** One route per row: the permission it needs and how to call it (write rows act on fresh data each time). */
interface Probe {
  name: string;
  needs: Permission;
  call(token: string): Promise<Call>;
}

async function rest(method: string, path: string, token: string, body?: unknown): Promise<Call> {
  const res = await app.request<Envelope>(method, path, { key: token, body });
  return { status: res.status, error: res.body.error };
}

async function graphql(query: string, token: string): Promise<Call> {
  const res = await app.graphql(token, query);
  const error = res.body.errors?.[0];
  if (!error) return { status: 200 };
  return {
    status: error.extensions.code === 'FORBIDDEN' ? 403 : 400,
    error: { code: error.extensions.code, details: error.extensions.details ?? {} },
  };
}

const PROBES: Probe[] = [
  { name: 'GET /v1/tenants', needs: Permission.READ_TENANTS, call: (t) => rest('GET', '/v1/tenants', t) },
  {
    name: 'POST /v1/tenants/:id/sync',
    needs: Permission.WRITE_TENANTS,
    call: (t) => rest('POST', `/v1/tenants/${tenant.id}/sync`, t),
  },
  {
    name: 'GET /v1/tenants/:id/users',
    needs: Permission.READ_USERS,
    call: (t) => rest('GET', `/v1/tenants/${tenant.id}/users`, t),
  },
  {
    name: 'PATCH /v1/tenants/:id/users/:userId',
    needs: Permission.WRITE_USERS,
    call: async (t) => {
      const user = await createUser(app, tenant);
      return rest('PATCH', `/v1/tenants/${tenant.id}/users/${user.id}`, t, { jobTitle: 'Scoped' });
    },
  },
  {
    // Destructive: an API key needs Admin, an access token the family's write scope (docs/oauth.md).
    name: 'DELETE /v1/tenants/:id/users/:userId',
    needs: Permission.WRITE_USERS,
    call: async (t) => {
      const user = await createUser(app, tenant);
      return rest('DELETE', `/v1/tenants/${tenant.id}/users/${user.id}`, t);
    },
  },
  {
    name: 'GET /v1/tenants/:id/licenses',
    needs: Permission.READ_LICENSES,
    call: (t) => rest('GET', `/v1/tenants/${tenant.id}/licenses`, t),
  },
  {
    name: 'POST /v1/tenants/:id/licenses/assign',
    needs: Permission.WRITE_LICENSES,
    call: async (t) => {
      const user = await createLicenseUser(app, tenant);
      return rest('POST', `/v1/tenants/${tenant.id}/licenses/assign`, t, {
        userId: user.id,
        skuId: sku.skuId,
      });
    },
  },
  {
    name: 'GET /api/settings/api-keys',
    needs: Permission.ADMIN,
    call: (t) => rest('GET', '/api/settings/api-keys', t),
  },
  {
    name: 'POST /api/settings/api-keys',
    needs: Permission.ADMIN,
    call: (t) => rest('POST', '/api/settings/api-keys', t, { name: 'Probe', level: 'Read' }),
  },
  { name: 'GET /v1/webhooks', needs: Permission.READ_TENANTS, call: (t) => rest('GET', '/v1/webhooks', t) },
  {
    name: 'POST /v1/webhooks',
    needs: Permission.ADMIN,
    call: (t) => rest('POST', '/v1/webhooks', t, { url: HOOK_URL, events: ['tenant.*'] }),
  },
  {
    name: 'POST /v1/webhooks/:id/test',
    needs: Permission.WRITE_TENANTS,
    call: (t) => rest('POST', `/v1/webhooks/${webhookId}/test`, t),
  },
  {
    name: 'GET /api/settings/integrations',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', '/api/settings/integrations', t),
  },
  {
    name: 'POST /api/settings/integrations/:type/connect',
    needs: Permission.ADMIN,
    call: async (t) => {
      const call = await rest('POST', '/api/settings/integrations/webhook/connect', t, { url: HOOK_URL });
      // Connected once per organization: disconnect again so the next scope's probe meets the same state.
      if (call.status < 300)
        expect(
          (await app.request('DELETE', '/api/settings/integrations/webhook', { key: org.keys.admin })).status,
        ).toBe(200);
      return call;
    },
  },
  {
    name: 'GET /api/msp-portal/tenants/stats',
    needs: Permission.MSP_READ,
    call: (t) => rest('GET', '/api/msp-portal/tenants/stats', t),
  },
  {
    name: 'GET /api/msp-portal/license-intelligence/summary',
    needs: Permission.MSP_READ,
    call: (t) => rest('GET', '/api/msp-portal/license-intelligence/summary', t),
  },
  {
    name: 'GraphQL { portalTenantStats }',
    needs: Permission.MSP_READ,
    call: (t) => graphql('{ portalTenantStats { totalTenants } }', t),
  },
  {
    name: 'GraphQL { tenants }',
    needs: Permission.READ_TENANTS,
    call: (t) => graphql('{ tenants { items { id } } }', t),
  },
  {
    name: 'GraphQL { users }',
    needs: Permission.READ_USERS,
    call: (t) => graphql(`{ users(tenantId: "${tenant.id}") { items { id } } }`, t),
  },
  {
    name: 'GraphQL { licenseAssignments }',
    needs: Permission.READ_LICENSES,
    call: (t) => graphql(`{ licenseAssignments(tenantId: "${tenant.id}") { items { id } } }`, t),
  },
  {
    name: 'GET /api/security/alerts',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/security/alerts?tenantId=${tenant.id}`, t),
  },
  {
    name: 'POST /api/security/alerts/:id/comments',
    needs: Permission.WRITE_TENANTS,
    call: async (t) => {
      const { alertId } = await insertSecurityRows(app, org.scope, tenant);
      return rest('POST', `/api/security/alerts/${alertId}/comments?tenantId=${tenant.id}`, t, {
        text: 'Probe',
      });
    },
  },
  {
    name: 'GET /api/security/device-security',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/security/device-security?tenantId=${tenant.id}`, t),
  },
  {
    name: 'POST /api/security/devices/:id/isolate',
    needs: Permission.WRITE_TENANTS,
    call: async (t) => {
      const { deviceId } = await insertSecurityRows(app, org.scope, tenant);
      return rest('POST', `/api/security/devices/${deviceId}/isolate?tenantId=${tenant.id}`, t, {
        type: 'Full isolation',
        reason: 'Probe',
        notes: 'Probe',
      });
    },
  },
  {
    name: 'GET /api/security/endpoint-dlp/alerts',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/security/endpoint-dlp/alerts?tenantId=${tenant.id}`, t),
  },
  {
    name: 'GraphQL { securityAlertStatistics }',
    needs: Permission.READ_TENANTS,
    call: (t) => graphql(`{ securityAlertStatistics(tenantId: "${tenant.id}") { total } }`, t),
  },
  {
    name: 'GET /api/backup/snapshots',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/backup/snapshots?tenantId=${tenant.id}`, t),
  },
  {
    name: 'GET /api/backup/restore/history',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/backup/restore/history?tenantId=${tenant.id}`, t),
  },
  {
    name: 'POST /api/backup/restore',
    needs: Permission.WRITE_TENANTS,
    call: async (t) => {
      await refreshCatalog(app, tenant);
      const { rows } = await app.pool.query<{ id: string }>(
        `select id from backup_snapshots where tenant_id = $1 and workload = 'Team chat' limit 1`,
        [tenant.id],
      );
      return rest('POST', `/api/backup/restore?tenantId=${tenant.id}`, t, {
        workload: 'Team chat',
        restoreType: 'Point-in-time',
        snapshotId: rows[0].id,
        target: { type: 'Export' },
      });
    },
  },
  {
    name: 'GET /api/compliance/connectors',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/compliance/connectors?tenantId=${tenant.id}`, t),
  },
  {
    name: 'POST /api/compliance/connectors',
    needs: Permission.WRITE_TENANTS,
    call: (t) =>
      rest('POST', `/api/compliance/connectors?tenantId=${tenant.id}`, t, {
        name: 'Probe',
        category: 'HR',
        sourceType: 'BambooHR',
        credentials: { subdomain: 'acme', apiKey: 'probe-key' },
      }),
  },
  {
    name: 'GET /api/user-management-identity/users',
    needs: Permission.READ_USERS,
    call: (t) => rest('GET', `/api/user-management-identity/users?tenantId=${tenant.id}&search=a`, t),
  },
  {
    name: 'POST /api/user-management-identity/users/:userId/reset-password',
    needs: Permission.WRITE_USERS,
    call: async (t) => {
      const user = await createUser(app, tenant);
      return rest(
        'POST',
        `/api/user-management-identity/users/${user.id}/reset-password?tenantId=${tenant.id}`,
        t,
      );
    },
  },
  {
    name: 'GraphQL { members }',
    needs: Permission.ADMIN,
    call: (t) => graphql('{ members { items { id } } }', t),
  },
  {
    name: 'GET /api/security/recommendations',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', '/api/security/recommendations', t),
  },
  {
    name: 'POST /api/security/recommendations/:id/apply (dry run)',
    needs: Permission.WRITE_TENANTS,
    call: (t) =>
      rest('POST', '/api/security/recommendations/mfa-admin-roles/apply', t, {
        tenantIds: [tenant.id],
        dryRun: true,
      }),
  },
  {
    name: 'GET /api/security-vendor/secure-score',
    needs: Permission.MSP_READ,
    call: (t) => rest('GET', '/api/security-vendor/secure-score', t),
  },
  {
    name: 'GET /api/security/info-barriers/policies',
    needs: Permission.READ_TENANTS,
    call: (t) => rest('GET', `/api/security/info-barriers/policies?tenantId=${tenant.id}`, t),
  },
  {
    name: 'POST /api/security/info-barriers/segments',
    needs: Permission.WRITE_TENANTS,
    call: (t) =>
      rest('POST', `/api/security/info-barriers/segments?tenantId=${tenant.id}`, t, {
        name: `Segment ${Math.random()}`,
        attribute: 'office',
        value: `Office ${Math.random()}`,
      }),
  },
];

const SCOPES = Object.values(Permission);

function allows(scope: Permission, needs: Permission): boolean {
  return scope === Permission.ADMIN || impliedPermissions([scope]).has(needs);
}

describe('scope matrix: an access token with one scope against a read and a write route of every family', () => {
  it.each(SCOPES)('%s', async (scope) => {
    const token = await issueAccessToken(app, registered, member, [scope]);
    const outcome: Record<string, string> = {};
    const expected: Record<string, string> = {};
    for (const probe of PROBES) {
      const call = await probe.call(token);
      outcome[probe.name] =
        call.status < 300
          ? 'allowed'
          : `${call.status} ${call.error?.code} ${String(call.error?.details.required)}`;
      expected[probe.name] = allows(scope, probe.needs) ? 'allowed' : `403 FORBIDDEN ${probe.needs}`;
    }
    expect(outcome).toEqual(expected);
  });

  it('grants what a write scope implies (write:users reads users) and nothing of another family', async () => {
    const token = await issueAccessToken(app, registered, member, [Permission.WRITE_USERS]);
    expect((await rest('GET', `/v1/tenants/${tenant.id}/users`, token)).status).toBe(200);
    expect((await rest('GET', `/v1/tenants/${tenant.id}/licenses`, token)).error).toMatchObject({
      code: 'FORBIDDEN',
      details: { required: 'read:licenses', granted: expect.arrayContaining(['write:users', 'read:users']) },
    });
  });

  it('combines scopes', async () => {
    const token = await issueAccessToken(app, registered, member, [
      Permission.READ_TENANTS,
      Permission.READ_LICENSES,
    ]);
    expect((await rest('GET', '/v1/tenants', token)).status).toBe(200);
    expect((await rest('GET', `/v1/tenants/${tenant.id}/licenses`, token)).status).toBe(200);
    expect((await rest('GET', `/v1/tenants/${tenant.id}/users`, token)).status).toBe(403);
  });
});
