import { randomUUID } from 'node:crypto';
import type { SubscribedSku } from '@microsoft/microsoft-graph-types';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createLicenseUser, createSku, createTenant } from '../factories/shared.js';
import { fakeAreaState } from '../graph-fake/graph-fake-areas.js';
import { fakeUser, type FakeTenant } from '../graph-fake/graph-fake-state.js';
import {
  FULL_ROLES,
  startGraphScenario,
  useGraphAreasOf,
  type GraphScenario,
} from '../helpers/graph-fake.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { seatState, type Envelope } from '../licenses/license-test-kit.js';

/**
 * The licenses and password-reset services over the Microsoft 365 areas (graph-areas.ts), through REST, next to
 * the sandbox: Graph's refusals must answer the same status, code and details as the sandbox's own checks.
 * Until the Microsoft 365 provider selects Graph for a live organization, one tenant of the sandbox takes
 * its licenses and user-management areas from Graph on the fake (its directory stays simulated); the shared
 * live matrix of the provider replaces this when it lands.
 */
let app: RealmApp;
let org: OrganizationWithKeys;
let scenario: GraphScenario;
let sandbox: Tenant;
let live: Tenant;
let upstream: FakeTenant;

const E5 = 'c7df2760-2c81-4ef7-b578-5b5392b571df';

function graphSku(fields: Partial<SubscribedSku> = {}): SubscribedSku {
  return {
    skuId: E5,
    skuPartNumber: 'ENTERPRISEPREMIUM',
    appliesTo: 'User',
    consumedUnits: 0,
    prepaidUnits: { enabled: 5, suspended: 0, warning: 0, lockedOut: 0 },
    ...fields,
  };
}

/** A user of `tenant` in our database and in its cloud (the simulated twin; on Graph too for `live`). */
async function userOf(tenant: Tenant, graphUsageLocation: string | null = 'US'): Promise<User> {
  const user = await createLicenseUser(app, tenant, {
    usageLocation: tenant === live ? 'US' : graphUsageLocation,
  });
  if (tenant === live)
    scenario.fake.state.putUser(
      upstream,
      fakeUser(upstream, user.displayName, { id: user.externalId, usageLocation: graphUsageLocation }),
    );
  return user;
}

const assign = (tenant: Tenant, userId: string, skuId: string) =>
  app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
    key: org.keys.write,
    body: { userId, skuId },
  });

const answer = (res: { status: number; body: Envelope<unknown> }) => ({
  status: res.status,
  code: res.body.error?.code,
  detailKeys: Object.keys(res.body.error?.details ?? {}).sort(),
});

const graphWrites = () =>
  scenario.fake.requests
    .filter((request) => request.service === 'graph' && request.method !== 'GET')
    .map(({ method, url, body, status }) => ({ method, url, body, status }));

beforeAll(async () => {
  ({ app, org } = await realmSuite());
  scenario = await startGraphScenario();
  sandbox = await createTenant(app, org.scope);
  live = await createTenant(app, org.scope);
  upstream = scenario.fake.state.addTenant({ id: live.externalId, displayName: live.name });
  upstream.consents.set(scenario.app.clientId, { roles: FULL_ROLES });
  await useGraphAreasOf(app, scenario, live.externalId, upstream);
});
afterAll(async () => {
  await scenario.fake.stop();
  await app.stop();
});
beforeEach(() => scenario.fake.clearRequests());

describe('POST /v1/tenants/:id/licenses/assign on Graph', () => {
  it('assigns through POST /users/{id}/assignLicense and takes the seat', async () => {
    const sku = await createSku(app, live, { total: 5, skuId: E5, skuPartNumber: 'ENTERPRISEPREMIUM' });
    upstream.skus = [graphSku()];
    const user = await userOf(live);
    const res = await assign(live, user.id, sku.skuId);
    expect(res.status).toBe(200);
    expect(graphWrites()).toEqual([
      {
        method: 'POST',
        url: `/v1.0/users/${user.externalId}/assignLicense`,
        body: { addLicenses: [{ skuId: E5, disabledPlans: [] }], removeLicenses: [] },
        status: 200,
      },
    ]);
    expect(upstream.users.find((r) => r.user.id === user.externalId)?.user.assignedLicenses).toEqual([
      { skuId: E5, disabledPlans: [] },
    ]);
    expect(await seatState(app, live.id, E5)).toMatchObject({
      consumed: 1,
      assignments: 1,
      assignedEvents: 1,
    });
    // Removing it: Graph first, then the seat comes back.
    const removed = await app.request<Envelope<{ removed: boolean }>>(
      'POST',
      `/v1/tenants/${live.id}/licenses/remove`,
      { key: org.keys.write, body: { userId: user.id, skuId: E5 } },
    );
    expect([removed.status, removed.body.data.removed]).toEqual([200, true]);
    expect(graphWrites()[1]).toMatchObject({ body: { addLicenses: [], removeLicenses: [E5] }, status: 200 });
    expect(await seatState(app, live.id, E5)).toMatchObject({ consumed: 0, assignments: 0 });
  });

  it('answers Graph’s “invalid usage location” as the sandbox answers a user without one: 409, nothing written', async () => {
    const skuId = randomUUID();
    await createSku(app, sandbox, { total: 5, skuId });
    const inSandbox = answer(await assign(sandbox, (await userOf(sandbox, null)).id, skuId));
    const liveSku = await createSku(app, live, { total: 5, skuId: randomUUID() });
    upstream.skus = [graphSku({ skuId: liveSku.skuId })];
    // Our copy has a usage location (an older sync); Graph's user has none.
    const res = await assign(live, (await userOf(live, null)).id, liveSku.skuId);
    expect(answer(res)).toEqual(inSandbox);
    expect(inSandbox).toEqual({ status: 409, code: 'CONFLICT', detailKeys: ['field', 'reason', 'userId'] });
    expect(res.body.error?.details).toMatchObject({ field: 'usageLocation' });
    expect(await seatState(app, live.id, liveSku.skuId)).toMatchObject({ consumed: 0, assignments: 0 });
  });

  it('answers Graph’s “no available licenses” as the sandbox answers a full SKU: 409 with the seats', async () => {
    const full = await createSku(app, sandbox, { total: 1, consumed: 1 });
    const inSandbox = answer(await assign(sandbox, (await userOf(sandbox)).id, full.skuId));
    const liveSku = await createSku(app, live, { total: 3, skuId: randomUUID() });
    upstream.skus = [graphSku({ skuId: liveSku.skuId, consumedUnits: 5 })];
    const res = await assign(live, (await userOf(live)).id, liveSku.skuId);
    expect(answer(res)).toEqual(inSandbox);
    expect(inSandbox).toEqual({ status: 409, code: 'CONFLICT', detailKeys: ['consumed', 'skuId', 'total'] });
    expect(await seatState(app, live.id, liveSku.skuId)).toMatchObject({ consumed: 0, assignments: 0 });
  });

  it('answers a SKU Graph no longer has as the sandbox answers an unknown SKU: 404', async () => {
    const inSandbox = answer(await assign(sandbox, (await userOf(sandbox)).id, randomUUID()));
    const liveSku = await createSku(app, live, { total: 3, skuId: randomUUID() });
    upstream.skus = [];
    const res = await assign(live, (await userOf(live)).id, liveSku.skuId);
    expect(answer(res)).toEqual(inSandbox);
    expect(inSandbox).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('GraphQL assignLicense on Graph', () => {
  const ASSIGN = `mutation Assign($tenantId: UUID!, $input: LicenseAssignmentInput!) {
    assignLicense(tenantId: $tenantId, input: $input) { skuId }
  }`;

  it('answers Graph’s refusals with the extensions code and details the sandbox gives', async () => {
    const full = await createSku(app, sandbox, { total: 1, consumed: 1 });
    const inSandbox = await app.graphql(org.keys.write, ASSIGN, {
      tenantId: sandbox.id,
      input: { userId: (await userOf(sandbox)).id, skuId: full.skuId },
    });
    const liveSku = await createSku(app, live, { total: 3, skuId: randomUUID() });
    upstream.skus = [graphSku({ skuId: liveSku.skuId, consumedUnits: 5 })];
    const res = await app.graphql(org.keys.write, ASSIGN, {
      tenantId: live.id,
      input: { userId: (await userOf(live)).id, skuId: liveSku.skuId },
    });
    const shape = (errors: typeof res.body.errors) =>
      errors?.map((error) => [error.extensions.code, Object.keys(error.extensions.details ?? {}).sort()]);
    expect(shape(res.body.errors)).toEqual(shape(inSandbox.body.errors));
    expect(shape(res.body.errors)).toEqual([['CONFLICT', ['consumed', 'skuId', 'total']]]);
  });
});

describe('POST /api/user-management-identity/users/:id/reset-password on Graph', () => {
  const reset = (tenant: Tenant, userId: string, password: string) =>
    app.request<Envelope<{ temporaryPassword: string | null }>>(
      'POST',
      `/api/user-management-identity/users/${userId}/reset-password?tenantId=${tenant.id}`,
      { key: org.keys.write, body: { password, forceChangeAtNextSignIn: true } },
    );

  it('sets the password through passwordProfile', async () => {
    const user = await userOf(live);
    const res = await reset(live, user.id, 'Correct-Horse-42');
    expect(res.status).toBe(200);
    expect(graphWrites()).toEqual([
      {
        method: 'PATCH',
        url: `/v1.0/users/${user.externalId}`,
        body: { passwordProfile: { password: 'Correct-Horse-42', forceChangePasswordNextSignIn: true } },
        status: 204,
      },
    ]);
    expect(fakeAreaState(upstream).passwords.get(user.externalId)?.password).toBe('Correct-Horse-42');
  });

  it('answers a password Graph refuses as the sandbox answers one its policy refuses: 400 naming password', async () => {
    const inSandbox = await reset(sandbox, (await userOf(sandbox)).id, 'Correct-1');
    const res = await reset(live, (await userOf(live)).id, 'Password-Strong-2026');
    for (const answered of [inSandbox, res]) {
      expect(answered.status).toBe(400);
      expect(answered.body.error).toMatchObject({
        code: 'INVALID_REQUEST',
        details: { fields: [expect.objectContaining({ field: 'password' })] },
      });
    }
    expect(res.body.error?.message).toMatch(/password complexity/);
  });
});
