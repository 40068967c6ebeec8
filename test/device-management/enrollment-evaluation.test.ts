import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createGroup, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import {
  addCloudDevices,
  api,
  createPolicy,
  fieldsOf,
  RESTRICTIONS,
  rowCount,
  simulated,
  sync,
} from './device-management-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

const EVALUATE = `mutation($t: UUID!, $input: EvaluateEnrollmentInput!) {
  evaluateEnrollment(tenantId: $t, input: $input) {
    allowed reason detail decidedBy { id name } deviceTypePolicyId deviceLimitPolicyId } }`;

interface Decision {
  allowed: boolean;
  reason: string | null;
  detail: string;
  decidedBy: { id: string; name: string } | null;
  deviceTypePolicyId: string | null;
  deviceLimitPolicyId: string | null;
}

async function evaluate(key: string, tenantId: string, input: Record<string, unknown>) {
  return app.graphql<{ evaluateEnrollment: Decision }>(key, EVALUATE, { t: tenantId, input });
}

describe('evaluateEnrollment (GraphQL, dry)', () => {
  it('first match by priority wins, group targeting decides who a policy applies to, the default catches the rest', async () => {
    const tenant = await createTenant(app, org.scope);
    const engineer = await createUser(app, tenant);
    const clerk = await createUser(app, tenant);
    const engineers = await createGroup(app, tenant, { members: [engineer] });
    const allowMacForEngineers = await createPolicy(app, org.keys.write, tenant, {
      name: 'Engineers may use macOS 14+',
      restrictionType: 'Device Type Restrictions',
      groupIds: [engineers.id],
      platformRestrictions: [{ platform: 'macOS', allowed: true, minOsVersion: '14' }],
    });
    const blockMac = await createPolicy(app, org.keys.write, tenant, {
      name: 'No macOS',
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [{ platform: 'macOS', allowed: false }],
    });
    const mac = (userId: string, osVersion: string) => ({
      userId,
      platform: 'MACOS',
      osVersion,
      ownership: 'CORPORATE',
      manufacturer: 'Apple',
    });
    const engineerMac = await evaluate(org.keys.read, tenant.id, mac(engineer.id, '14.5'));
    expect(engineerMac.body.data?.evaluateEnrollment).toMatchObject({
      allowed: true,
      deviceTypePolicyId: allowMacForEngineers.id,
    });
    const oldMac = await evaluate(org.keys.read, tenant.id, mac(engineer.id, '13.6'));
    expect(oldMac.body.data?.evaluateEnrollment).toMatchObject({
      allowed: false,
      reason: 'OS_VERSION',
      decidedBy: { id: allowMacForEngineers.id },
    });
    const clerkMac = await evaluate(org.keys.read, tenant.id, mac(clerk.id, '14.5'));
    expect(clerkMac.body.data?.evaluateEnrollment).toMatchObject({
      allowed: false,
      reason: 'PLATFORM_BLOCKED',
      decidedBy: { id: blockMac.id, name: 'No macOS' },
    });
    // Reordered: the block now comes first for everyone.
    await api(app, 'PUT', `${RESTRICTIONS}/priority`, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: { policyIds: [blockMac.id, allowMacForEngineers.id] },
    });
    const after = await evaluate(org.keys.read, tenant.id, mac(engineer.id, '14.5'));
    expect(after.body.data?.evaluateEnrollment.decidedBy?.id).toBe(blockMac.id);
    // Windows: no device type policy covers it, the default's limits decide.
    const windows = await evaluate(org.keys.read, tenant.id, {
      userId: clerk.id,
      platform: 'WINDOWS',
      osVersion: '10.0.22631',
      ownership: 'PERSONAL',
    });
    const fallback = (
      await api<Array<{ id: string; isDefault: boolean }>>(app, 'GET', RESTRICTIONS, {
        key: org.keys.read,
        tenantId: tenant.id,
      })
    ).body.data.find((p) => p.isDefault);
    expect(windows.body.data?.evaluateEnrollment).toMatchObject({
      allowed: true,
      decidedBy: { id: fallback?.id },
      deviceLimitPolicyId: fallback?.id,
    });
    // Dry: no blocked attempt was recorded.
    expect(await rowCount(app, 'blocked_enrollment_attempts', tenant.id)).toBe(0);
  });

  it('device limits count the user’s devices (or the counts given), with the group override first', async () => {
    const tenant = await createTenant(app, org.scope);
    const user = await createUser(app, tenant);
    const vip = await createUser(app, tenant);
    const vips = await createGroup(app, tenant, { members: [vip] });
    await createPolicy(app, org.keys.write, tenant, {
      name: 'Two devices',
      restrictionType: 'Device Limit Restrictions',
      assignedToAllUsers: true,
      deviceLimit: 2,
      platformLimits: [{ platform: 'iOS', limit: 1 }],
      groupOverrides: [{ groupId: vips.id, deviceLimit: 5 }],
    });
    await addCloudDevices(app, tenant, [
      { userExternalId: user.externalId, osPlatform: 'Windows' },
      { userExternalId: user.externalId, osPlatform: 'Android' },
      { userExternalId: vip.externalId, osPlatform: 'Windows' },
      { userExternalId: vip.externalId, osPlatform: 'Android' },
    ]);
    await sync(app, org.scope, tenant.id);
    const windows = { platform: 'WINDOWS', osVersion: '10.0.22631', ownership: 'CORPORATE' };
    const full = await evaluate(org.keys.read, tenant.id, { userId: user.id, ...windows });
    expect(full.body.data?.evaluateEnrollment).toMatchObject({ allowed: false, reason: 'DEVICE_LIMIT' });
    const overridden = await evaluate(org.keys.read, tenant.id, { userId: vip.id, ...windows });
    expect(overridden.body.data?.evaluateEnrollment.allowed).toBe(true);
    const ios = await evaluate(org.keys.read, tenant.id, {
      userId: vip.id,
      platform: 'IOS',
      osVersion: '17.4',
      ownership: 'CORPORATE',
      deviceCounts: [{ platform: 'IOS', count: 1 }],
    });
    expect(ios.body.data?.evaluateEnrollment).toMatchObject({ allowed: false, reason: 'DEVICE_LIMIT' });
  });

  it('refuses a user of another tenant (404), another organization (404), a negative count (400)', async () => {
    const tenant = await createTenant(app, org.scope);
    const stranger = await createUser(app, await createTenant(app, org.scope));
    const input = { userId: stranger.id, platform: 'WINDOWS', osVersion: '10', ownership: 'CORPORATE' };
    const wrongTenant = await evaluate(org.keys.read, tenant.id, input);
    expect(wrongTenant.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const crossOrg = await evaluate(other.keys.read, tenant.id, input);
    expect(crossOrg.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const user = await createUser(app, tenant);
    // A tenant without policies yet is decided by the default it will get, and still nothing is written.
    const fresh = await evaluate(org.keys.read, tenant.id, { ...input, userId: user.id });
    expect(fresh.body.data?.evaluateEnrollment).toMatchObject({ allowed: true, reason: null });
    expect(await rowCount(app, 'enrollment_restrictions', tenant.id)).toBe(0);
    const negative = await evaluate(org.keys.read, tenant.id, {
      ...input,
      userId: user.id,
      deviceCounts: [{ platform: 'WINDOWS', count: -1 }],
    });
    expect(negative.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'input.deviceCounts[0].count' }] },
    });
  });
});

describe('blocked attempts: recorded by sync, listed by GET .../blocked', () => {
  /** A tenant never synced (so the cloud lists every attempt), five attempts of the last hours, four blocked. */
  async function tenantWithAttempts() {
    const tenant = await createTenant(app, org.scope, { lastSyncedAt: null });
    const user = await createUser(app, tenant);
    const policy = await createPolicy(app, org.keys.write, tenant, {
      name: 'Corporate, recent, no Huawei',
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [
        { platform: 'iOS/iPadOS', allowed: true, personalAllowed: false },
        { platform: 'Windows MDM', allowed: true, minOsVersion: '10.0.22631' },
        { platform: 'Android Enterprise', allowed: true, blockedManufacturers: ['Huawei'] },
        { platform: 'Android Device Admin', allowed: false },
      ],
    });
    const cloud = simulated(app).deviceManagement;
    const base = { userExternalId: user.externalId, userPrincipalName: user.userPrincipalName };
    const HOUR = 3_600_000;
    const at = (hoursAgo: number) => new Date(app.clock.now().getTime() - hoursAgo * HOUR).toISOString();
    await cloud.addEnrollmentAttempt(tenant.externalId, {
      ...base,
      platform: 'iOS/iPadOS',
      osVersion: '17.4',
      ownership: 'Personal',
      manufacturer: 'Apple',
      attemptedAt: at(4),
    });
    await cloud.addEnrollmentAttempt(tenant.externalId, {
      ...base,
      platform: 'Windows MDM',
      osVersion: '10.0.19045',
      ownership: 'Corporate',
      manufacturer: 'Dell',
      attemptedAt: at(3),
    });
    await cloud.addEnrollmentAttempt(tenant.externalId, {
      ...base,
      platform: 'Android Enterprise',
      osVersion: '14',
      ownership: 'Corporate',
      manufacturer: 'Huawei',
      attemptedAt: at(2),
    });
    await cloud.addEnrollmentAttempt(tenant.externalId, {
      ...base,
      platform: 'Android Device Admin',
      osVersion: '11',
      ownership: 'Corporate',
      manufacturer: 'Samsung',
      attemptedAt: at(1.5),
    });
    // Allowed: not recorded.
    await cloud.addEnrollmentAttempt(tenant.externalId, {
      ...base,
      platform: 'Windows MDM',
      osVersion: '10.0.22631',
      ownership: 'Corporate',
      manufacturer: 'Dell',
      attemptedAt: at(1),
    });
    return { tenant, user, policy };
  }

  it('records every blocked attempt once with the SPEC reason and the policy; a re-sync records nothing twice', async () => {
    const { tenant, user, policy } = await tenantWithAttempts();
    const summary = await sync(app, org.scope, tenant.id);
    expect(summary.enrollmentsBlocked).toBe(4);
    const res = await api<Array<Record<string, unknown>>>(app, 'GET', `${RESTRICTIONS}/blocked`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, limit: 25, total: 4 });
    expect(res.body.data.map((row) => [row.platform, row.reason])).toEqual([
      ['Android Device Admin', 'Platform Blocked'],
      ['Android Enterprise', 'Platform Blocked'],
      ['Windows MDM', 'OS Version'],
      ['iOS/iPadOS', 'Personal Device'],
    ]);
    expect(res.body.data[2]).toMatchObject({
      userId: user.id,
      userPrincipalName: user.userPrincipalName,
      osVersion: '10.0.19045',
      policyId: policy.id,
      policyName: policy.name,
    });
    // The cloud lists everything again (a first sync window), and the clock has not moved.
    await app.pool.query('update tenants set last_synced_at = null where id = $1', [tenant.id]);
    expect((await sync(app, org.scope, tenant.id)).enrollmentsBlocked).toBe(0);
    expect(await rowCount(app, 'blocked_enrollment_attempts', tenant.id)).toBe(4);
  });

  it('filters by reason, platform and date (REST and GraphQL); bad filters are 400 naming the field', async () => {
    const { tenant } = await tenantWithAttempts();
    await sync(app, org.scope, tenant.id);
    const list = async (query: string) =>
      (
        await api<Array<{ platform: string; reason: string }>>(
          app,
          'GET',
          `${RESTRICTIONS}/blocked?${query}`,
          {
            key: org.keys.read,
            tenantId: tenant.id,
          },
        )
      ).body;
    expect((await list('reason=Platform%20Blocked')).data.map((r) => r.platform)).toEqual([
      'Android Device Admin',
      'Android Enterprise',
    ]);
    expect((await list('platform=Windows%20MDM')).data.map((r) => r.reason)).toEqual(['OS Version']);
    const from = new Date(app.clock.now().getTime() - 3.5 * 3_600_000).toISOString();
    const to = new Date(app.clock.now().getTime() - 1.75 * 3_600_000).toISOString();
    expect((await list(`from=${from}&to=${to}`)).data.map((r) => r.platform)).toEqual([
      'Android Enterprise',
      'Windows MDM',
    ]);
    expect((await list('limit=1&page=2')).data.map((r) => r.platform)).toEqual(['Android Enterprise']);
    const gql = await app.graphql<{ blockedEnrollmentAttempts: { items: Array<{ reason: string }> } }>(
      org.keys.read,
      `query($t: UUID!) { blockedEnrollmentAttempts(tenantId: $t, reason: PERSONAL_DEVICE) { items { reason } pageInfo { total } } }`,
      { t: tenant.id },
    );
    expect(gql.body.data?.blockedEnrollmentAttempts.items).toEqual([{ reason: 'PERSONAL_DEVICE' }]);
    const badReason = await list('reason=Stolen');
    expect(fieldsOf(badReason as never).map((f) => f.field)).toEqual(['reason']);
    const backwards = await list(`from=${to}&to=${from}`);
    expect(fieldsOf(backwards as never).map((f) => f.field)).toEqual(['from']);
  });

  it('X-Tenant-Id missing is 400, another organization’s tenant is 404; the same statements at limit 2 and 4', async () => {
    const { tenant } = await tenantWithAttempts();
    await sync(app, org.scope, tenant.id);
    expect((await api(app, 'GET', `${RESTRICTIONS}/blocked`, { key: org.keys.read })).status).toBe(400);
    const foreign = await api(app, 'GET', `${RESTRICTIONS}/blocked`, {
      key: other.keys.read,
      tenantId: tenant.id,
    });
    expect(foreign.status).toBe(404);
    const read = (limit: number) =>
      api(app, 'GET', `${RESTRICTIONS}/blocked?limit=${limit}`, { key: org.keys.read, tenantId: tenant.id });
    await read(2);
    const small = await app.sql.during(() => read(2));
    const large = await app.sql.during(() => read(4));
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
  });
});
