import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { User } from '../../src/users/user.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/api-client.js';
import { simulatedCloud } from '../users/guest-kit.js';
import type { Envelope } from '../users/user-test-kit.js';
import { apiKeyActor } from '../actors/actor-kit.js';
import type { DataOf } from '../helpers/api-types.js';

type RestrictedUserBody = DataOf<'getRestrictedUser'>;

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => ({ app, org, other } = await sharedSuite({ other: true })));
afterAll(() => app.stop());

function exchange<T>(
  a: SharedApp,
  method: string,
  path: string,
  options: { key: string; tenantId?: string },
): Promise<ApiResponse<Envelope<T>>> {
  return a.request<Envelope<T>>(method, `/api/exchange/restricted-users${path}`, {
    key: options.key,
    headers: options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {},
  });
}

const HOUR = 3_600_000;

/** A tenant with three users restricted upstream, one, two and three hours ago. */
async function restrictedTenant(): Promise<{ tenant: Tenant; users: User[] }> {
  const tenant = await createTenant(app, org.scope);
  const users = [await createUser(app, tenant), await createUser(app, tenant), await createUser(app, tenant)];
  const cloud = simulatedCloud(app);
  const now = app.clock.now().getTime();
  await cloud.restrictSender(tenant.externalId, users[0].externalId, 'Outbound spam', new Date(now - HOUR));
  await cloud.restrictSender(
    tenant.externalId,
    users[1].externalId,
    'Sending limit exceeded',
    new Date(now - 2 * HOUR),
  );
  await cloud.restrictSender(
    tenant.externalId,
    users[2].externalId,
    'Suspicious activity',
    new Date(now - 3 * HOUR),
  );
  return { tenant, users };
}

describe('GET /api/exchange/restricted-users', () => {
  it('lists the restrictions the cloud has, newest first, with user, reason, status and action', async () => {
    const { tenant, users } = await restrictedTenant();
    const res = await exchange<RestrictedUserBody[]>(app, 'GET', '', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r) => r.userId)).toEqual(users.map((u) => u.id));
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      tenantId: tenant.id,
      userId: users[0].id,
      userPrincipalName: users[0].userPrincipalName,
      displayName: users[0].displayName,
      restrictedAt: new Date(app.clock.now().getTime() - HOUR).toISOString(),
      reason: 'Outbound spam',
      status: 'Restricted',
      actionRequired: expect.stringContaining('unblock'),
      // SPEC 8.3: the limits behind a restriction, shown with every restriction.
      sendingLimits: { recipientsPerDay: 10_000, messagesPerMinute: 30 },
      unblockedAt: null,
      unblockedBy: null,
    });
    expect(res.body.data.map((r) => r.reason)).toEqual([
      'Outbound spam',
      'Sending limit exceeded',
      'Suspicious activity',
    ]);
    // Reading twice does not duplicate rows.
    const again = await exchange<RestrictedUserBody[]>(app, 'GET', '?limit=2', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(again.body.data.map((r) => r.id)).toEqual(res.body.data.slice(0, 2).map((r) => r.id));
    const { rows } = await app.pool.query(
      'select count(*)::int as n from restricted_users where tenant_id = $1',
      [tenant.id],
    );
    expect(rows[0].n).toBe(3);
  });

  it('400 naming X-Tenant-Id when it is missing', async () => {
    const res = await exchange(app, 'GET', '', { key: org.keys.read });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('X-Tenant-Id');
  });

  it('costs the same number of SQL statements whatever the page size', async () => {
    const { tenant } = await restrictedTenant();
    const read = (limit: number) =>
      exchange(app, 'GET', `?limit=${limit}`, { key: org.keys.read, tenantId: tenant.id });
    await read(3);
    const small = await app.sql.during(() => read(1));
    const large = await app.sql.during(() => read(3));
    expect(large).toBe(small);
  });
});

describe('GET /api/exchange/restricted-users/:id and unblock', () => {
  it('gets one, unblocks it (cloud, row, event), then 409 on a second unblock; history keeps it', async () => {
    const { tenant, users } = await restrictedTenant();
    const list = await exchange<RestrictedUserBody[]>(app, 'GET', '', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    const target = list.body.data[1];

    const one = await exchange<RestrictedUserBody>(app, 'GET', `/${target.id}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(target);

    const forbidden = await exchange(app, 'POST', `/${target.id}/unblock`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(forbidden.status).toBe(403);

    app.clock.advance(60_000);
    const unblocked = await exchange<RestrictedUserBody>(app, 'POST', `/${target.id}/unblock`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(unblocked.status).toBe(200);
    const now = app.clock.now().toISOString();
    expect(unblocked.body.data).toMatchObject({
      id: target.id,
      status: 'Unblocked',
      unblockedAt: now,
      unblockedBy: apiKeyActor('Write key'),
    });
    const cloud = await simulatedCloud(app).listRestrictedSenders(tenant.externalId);
    expect(cloud.find((r) => r.userExternalId === users[1].externalId)).toMatchObject({
      status: 'Unblocked',
      unblockedAt: now,
    });

    const { rows: events } = await app.pool.query<{
      kind: string;
      payload: { details: Record<string, unknown> };
    }>(
      `select kind, payload from domain_events where kind = 'restricted_user.unblocked' and payload->'details'->>'restrictedUserId' = $1`,
      [target.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0].payload.details).toEqual({
      restrictedUserId: target.id,
      userId: users[1].id,
      userPrincipalName: users[1].userPrincipalName,
      displayName: users[1].displayName,
      reason: 'Sending limit exceeded',
      restrictedAt: target.restrictedAt,
      unblockedAt: now,
      // Webhook payloads keep the stored principal string (docs/decisions.md).
      unblockedBy: `api_key:${unblocked.body.data.unblockedBy!.id}`,
    });

    const again = await exchange(app, 'POST', `/${target.id}/unblock`, {
      key: org.keys.write,
      tenantId: tenant.id,
    });
    expect(again.status).toBe(409);
    expect((again.body as unknown as { error: { details: unknown } }).error.details).toEqual({
      from: 'Unblocked',
      to: 'Unblocked',
      allowed: [],
    });

    const current = await exchange<RestrictedUserBody[]>(app, 'GET', '', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(current.body.data.map((r) => r.id)).not.toContain(target.id);
    expect(current.body.data).toHaveLength(2);

    const history = await exchange<RestrictedUserBody[]>(app, 'GET', '/history', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(history.status).toBe(200);
    expect(history.body.data.map((r) => [r.id, r.status])).toEqual([
      [list.body.data[0].id, 'Restricted'],
      [target.id, 'Unblocked'],
      [list.body.data[2].id, 'Restricted'],
    ]);
    // The list's refresh from the cloud keeps who unblocked it.
    expect(history.body.data[1].unblockedBy).toEqual(unblocked.body.data.unblockedBy);
  });

  it('404 for another organization, another tenant, or an id that is not a UUID', async () => {
    const { tenant } = await restrictedTenant();
    const list = await exchange<RestrictedUserBody[]>(app, 'GET', '', {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    const id = list.body.data[0].id;
    const otherTenant = await createTenant(app, other.scope);
    expect((await exchange(app, 'GET', `/${id}`, { key: other.keys.read, tenantId: tenant.id })).status).toBe(
      404,
    );
    expect(
      (await exchange(app, 'GET', `/${id}`, { key: other.keys.read, tenantId: otherTenant.id })).status,
    ).toBe(404);
    expect(
      (await exchange(app, 'POST', `/${id}/unblock`, { key: other.keys.write, tenantId: otherTenant.id }))
        .status,
    ).toBe(404);
    const sibling = await createTenant(app, org.scope);
    expect((await exchange(app, 'GET', `/${id}`, { key: org.keys.read, tenantId: sibling.id })).status).toBe(
      404,
    );
    expect(
      (await exchange(app, 'GET', '/not-a-uuid', { key: org.keys.read, tenantId: tenant.id })).status,
    ).toBe(404);
    const still = await exchange<RestrictedUserBody>(app, 'GET', `/${id}`, {
      key: org.keys.read,
      tenantId: tenant.id,
    });
    expect(still.body.data.status).toBe('Restricted');
  });
});

describe('GraphQL', () => {
  it('lists, gets and unblocks with the GraphQL enum spelling; another organization gets NOT_FOUND', async () => {
    const { tenant } = await restrictedTenant();
    const list = await app.graphql<{
      restrictedUsers: {
        items: Array<{ id: string; reason: string; status: string }>;
        pageInfo: { total: number };
      };
    }>(
      org.keys.read,
      'query($t: UUID!) { restrictedUsers(tenantId: $t) { items { id reason status } pageInfo { total } } }',
      {
        t: tenant.id,
      },
    );
    expect(list.body.errors).toBeUndefined();
    const items = list.body.data!.restrictedUsers.items;
    expect(list.body.data!.restrictedUsers.pageInfo.total).toBe(3);
    expect(items.map((item) => item.reason)).toEqual([
      'OUTBOUND_SPAM',
      'SENDING_LIMIT_EXCEEDED',
      'SUSPICIOUS_ACTIVITY',
    ]);
    expect(items.every((item) => item.status === 'RESTRICTED')).toBe(true);
    // SPEC 8.3's sending limits over GraphQL too.
    const limits = await app.graphql<{
      restrictedUser: { sendingLimits: { recipientsPerDay: number; messagesPerMinute: number } };
    }>(
      org.keys.read,
      'query($t: UUID!, $id: UUID!) { restrictedUser(tenantId: $t, id: $id) { sendingLimits { recipientsPerDay messagesPerMinute } } }',
      { t: tenant.id, id: items[1].id },
    );
    expect(limits.body.data?.restrictedUser.sendingLimits).toEqual({
      recipientsPerDay: 10_000,
      messagesPerMinute: 30,
    });

    const unblock =
      'mutation($t: UUID!, $id: UUID!) { unblockRestrictedUser(tenantId: $t, id: $id) { id status unblockedAt } }';
    const foreign = await app.graphql(other.keys.write, unblock, { t: tenant.id, id: items[0].id });
    expect(foreign.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    const done = await app.graphql<{ unblockRestrictedUser: { status: string; unblockedAt: string } }>(
      org.keys.write,
      unblock,
      { t: tenant.id, id: items[0].id },
    );
    expect(done.body.data?.unblockRestrictedUser).toMatchObject({ status: 'UNBLOCKED' });
    const again = await app.graphql(org.keys.write, unblock, { t: tenant.id, id: items[0].id });
    expect(again.body.errors?.[0].extensions?.code).toBe('CONFLICT');

    const one = await app.graphql<{ restrictedUser: { status: string } }>(
      org.keys.read,
      'query($t: UUID!, $id: UUID!) { restrictedUser(tenantId: $t, id: $id) { status } }',
      { t: tenant.id, id: items[0].id },
    );
    expect(one.body.data?.restrictedUser.status).toBe('UNBLOCKED');
  });
});
