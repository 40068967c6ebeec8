import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createLicenseUser, createSku, createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { seatState, type AssignmentBody, type Envelope, type RemovalBody } from './license-test-kit.js';

let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

function statusCounts(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('concurrent license assignment', () => {
  it('50 users racing for 10 free seats: exactly 10 win, 40 get 409, and the counter matches the rows', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 10 });
    const users = await Promise.all(Array.from({ length: 50 }, () => createLicenseUser(app, tenant)));

    const responses = await Promise.all(
      users.map((user) =>
        app.request<Envelope<AssignmentBody>>('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
          key: org.keys.write,
          body: { userId: user.id, skuId: sku.skuId },
        }),
      ),
    );

    expect(statusCounts(responses.map((r) => r.status))).toEqual({ 200: 10, 409: 40 });
    for (const refused of responses.filter((r) => r.status === 409)) {
      expect(refused.body.error).toMatchObject({
        code: 'CONFLICT',
        details: { skuId: sku.skuId, total: 10, consumed: 10 },
      });
    }
    expect(await seatState(app, tenant.id, sku.skuId)).toEqual({
      total: 10,
      consumed: 10,
      assignments: 10,
      // the losers' cloud assignments were undone
      cloudAssignments: 10,
      assignedEvents: 10,
      removedEvents: 0,
    });
  });

  it('20 identical assigns at once: all succeed with one assignment and one seat', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 5, consumed: 2 });
    const user = await createLicenseUser(app, tenant);

    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.request<Envelope<AssignmentBody>>('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
          key: org.keys.write,
          body: { userId: user.id, skuId: sku.skuId },
        }),
      ),
    );

    expect(statusCounts(responses.map((r) => r.status))).toEqual({ 200: 20 });
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 3,
      assignments: 1,
      cloudAssignments: 1,
      assignedEvents: 1,
    });
  });

  it('10 identical removes at once return one seat and emit one event', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 5 });
    const user = await createLicenseUser(app, tenant);
    const body = { userId: user.id, skuId: sku.skuId };
    const path = `/v1/tenants/${tenant.id}/licenses`;
    expect((await app.request('POST', `${path}/assign`, { key: org.keys.write, body })).status).toBe(200);

    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.request<Envelope<RemovalBody>>('POST', `${path}/remove`, { key: org.keys.write, body }),
      ),
    );

    expect(statusCounts(responses.map((r) => r.status))).toEqual({ 200: 10 });
    expect(responses.filter((r) => r.body.data.removed)).toHaveLength(1);
    expect(await seatState(app, tenant.id, sku.skuId)).toMatchObject({
      consumed: 0,
      assignments: 0,
      cloudAssignments: 0,
      removedEvents: 1,
    });
  });

  it('assign racing a user delete never leaves a deleted user holding a seat', async () => {
    const tenant = await createTenant(app, org.scope);
    const sku = await createSku(app, tenant, { total: 50 });
    const users = await Promise.all(Array.from({ length: 12 }, () => createLicenseUser(app, tenant)));

    await Promise.all(
      users.flatMap((user) => [
        app.request('POST', `/v1/tenants/${tenant.id}/licenses/assign`, {
          key: org.keys.write,
          body: { userId: user.id, skuId: sku.skuId },
        }),
        app.request('DELETE', `/v1/tenants/${tenant.id}/users/${user.id}`, { key: org.keys.admin }),
      ]),
    );

    const [held] = await app.pool
      .query<{ count: string }>(
        `select count(*) from license_assignments a join users u on u.id = a.user_id
        where a.tenant_id = $1 and u.deleted_at is not null`,
        [tenant.id],
      )
      .then((result) => result.rows);
    expect(Number(held.count)).toBe(0);
    const state = await seatState(app, tenant.id, sku.skuId);
    expect(state.consumed).toBe(state.assignments);
  });
});
