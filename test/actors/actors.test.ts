import { randomUUID } from 'node:crypto';
import { Permission } from '../../src/core/permissions.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { api, seedSecurity } from '../security/security-kit.js';
import { listDeleted, softDelete } from '../users/deleted-user-kit.js';
import {
  memberToken,
  namedApiKey,
  UNKNOWN,
  userDeletedBy,
  type ActorBody,
  DELETED_USERS_WITH_ACTORS,
} from './actor-kit.js';

/**
 * Audit fields (here deletedBy of the deleted-users list, the same resolver serves every other one) show who
 * acted as a readable actor derived from the stored principal string, on REST and GraphQL alike.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let tenant: Tenant;
let opsKey: { id: string; secret: string };
let member: Awaited<ReturnType<typeof memberToken>>;
let formerMemberId: string;
const deletedBy = new Map<string, string>(); // user id → how it was deleted (the test's own label)

beforeAll(async () => {
  ({ app, org, other, tenant } = await sharedSuite({ other: true, tenant: true }));
  opsKey = await namedApiKey(app, org.scope, 'Ops key');
  member = await memberToken(app, org.scope, { email: 'dana@msp.example', clientName: 'Acme PSA' });
  const now = app.clock.now();

  const byKey = await createUser(app, tenant);
  await softDelete(app, opsKey.secret, tenant, byKey);
  deletedBy.set(byKey.id, 'api key');
  const byMember = await createUser(app, tenant);
  await softDelete(app, member.token, tenant, byMember);
  deletedBy.set(byMember.id, 'member');

  // A revoked key keeps its name.
  const retired = await namedApiKey(app, org.scope, 'Retired key');
  deletedBy.set(await userDeletedBy(app, tenant, `api_key:${retired.id}`, now), 'revoked key');
  await app.pool.query('update api_keys set revoked_at = $2 where id = $1', [retired.id, now]);

  deletedBy.set(await userDeletedBy(app, tenant, 'system:tenant-sync', now), 'system');
  deletedBy.set(await userDeletedBy(app, tenant, 'admin@contoso.onmicrosoft.com', now), 'upstream');

  // A member's action outlives the token it came through (housekeeping deletes expired tokens after a day).
  const former = await memberToken(app, org.scope, { email: 'lee@msp.example', clientName: 'Night PSA' });
  formerMemberId = former.memberId;
  const byFormerToken = await createUser(app, tenant);
  await softDelete(app, former.token, tenant, byFormerToken);
  deletedBy.set(byFormerToken.id, 'member whose token is gone');
  await app.pool.query('delete from oauth_tokens where member_id = $1', [former.memberId]);

  // A legacy access-token principal whose token housekeeping has purged since, and a key id that never existed.
  const purged = await memberToken(app, org.scope, { email: 'gone@msp.example', clientName: 'Old PSA' });
  deletedBy.set(await userDeletedBy(app, tenant, `access_token:${purged.tokenId}`, now), 'purged token');
  await app.pool.query('delete from oauth_tokens where id = $1', [purged.tokenId]);
  deletedBy.set(await userDeletedBy(app, tenant, `api_key:${randomUUID()}`, now), 'unknown key');

  // Principals of another organization, stored here (as a forged or copied row would be): never named.
  const foreignKey = await namedApiKey(app, other.scope, 'Other org secret key');
  const foreignMember = await memberToken(app, other.scope, {
    email: 'spy@other.example',
    clientName: 'Spy PSA',
  });
  deletedBy.set(await userDeletedBy(app, tenant, `api_key:${foreignKey.id}`, now), 'foreign key');
  deletedBy.set(
    await userDeletedBy(app, tenant, `access_token:${foreignMember.tokenId}`, now),
    'foreign member',
  );
  deletedBy.set(
    await userDeletedBy(app, tenant, `member:${foreignMember.memberId}:${foreignMember.clientId}`, now),
    'foreign member principal',
  );
}, 60_000);
afterAll(() => app.stop());

function expected(): Record<string, ActorBody> {
  return {
    'api key': { type: 'API_KEY', id: opsKey.id, name: 'Ops key', email: null, oauthClientName: null },
    member: {
      type: 'MEMBER',
      id: member.memberId,
      name: 'dana@msp.example',
      email: 'dana@msp.example',
      oauthClientName: 'Acme PSA',
    },
    'revoked key': expect.objectContaining({ type: 'API_KEY', name: 'Retired key' }),
    system: { type: 'SYSTEM', id: 'tenant-sync', name: 'Tenant sync', email: null, oauthClientName: null },
    upstream: {
      type: 'UPSTREAM',
      id: null,
      name: 'admin@contoso.onmicrosoft.com',
      email: null,
      oauthClientName: null,
    },
    'member whose token is gone': {
      type: 'MEMBER',
      id: formerMemberId,
      name: 'lee@msp.example',
      email: 'lee@msp.example',
      oauthClientName: 'Night PSA',
    },
    'purged token': UNKNOWN,
    'unknown key': UNKNOWN,
    'foreign key': UNKNOWN,
    'foreign member': UNKNOWN,
    'foreign member principal': UNKNOWN,
  };
}

function byLabel(
  items: Array<{ id: string; deletedBy: ActorBody | null }>,
): Record<string, ActorBody | null> {
  return Object.fromEntries(items.map((item) => [deletedBy.get(item.id) ?? item.id, item.deletedBy]));
}

it('REST: every kind of principal reads as an actor; purged and foreign ones as UNKNOWN without a name', async () => {
  const res = await listDeleted(app, org.keys.read, tenant.id, '?limit=100');
  expect(res.status).toBe(200);
  expect(byLabel(res.body.data)).toEqual(expected());
  const body = JSON.stringify(res.body);
  for (const secret of [
    'Other org secret key',
    'spy@other.example',
    'Spy PSA',
    'gone@msp.example',
    'api_key:',
  ])
    expect(body).not.toContain(secret);
});

it('GraphQL: the same actors', async () => {
  const res = await app.graphql<{
    deletedUsers: { items: Array<{ id: string; deletedBy: ActorBody }> };
  }>(org.keys.read, DELETED_USERS_WITH_ACTORS, { tenantId: tenant.id });
  expect(res.body.errors).toBeUndefined();
  expect(byLabel(res.body.data!.deletedUsers.items)).toEqual(expected());
});

it('the caller’s own member reads the same through its access token', async () => {
  const res = await listDeleted(app, member.token, tenant.id, '?limit=100');
  expect(res.status).toBe(200);
  expect(byLabel(res.body.data)).toMatchObject({
    member: { type: 'MEMBER', email: 'dana@msp.example' },
    'api key': { type: 'API_KEY', name: 'Ops key' },
  });
});

it('the other organization cannot read this tenant at all (404), so not its actors either', async () => {
  const res = await listDeleted(app, other.keys.admin, tenant.id);
  expect(res.status).toBe(404);
});

it('an alert comment written through an access token shows its member as author', async () => {
  // A tenant of its own: the sync that raises the alert must not touch the deleted users above.
  const alertTenant = await createTenant(app, org.scope);
  const { alertIds } = await seedSecurity(app, org.scope, alertTenant, {
    alerts: [{ title: 'Phishing mail' }],
  });
  const writer = await memberToken(app, org.scope, {
    email: 'sam@msp.example',
    clientName: 'Acme PSA',
    scopes: [Permission.READ_TENANTS, Permission.WRITE_TENANTS],
  });
  const res = await api<{ author: ActorBody; authorName: string }>(
    app,
    'POST',
    `/alerts/${alertIds[0]}/comments`,
    {
      key: writer.token,
      tenantId: alertTenant.id,
      body: { text: 'Header checked' },
    },
  );
  expect(res.status).toBe(201);
  expect(res.body.data.author).toEqual({
    type: 'MEMBER',
    id: writer.memberId,
    name: 'sam@msp.example',
    email: 'sam@msp.example',
    oauthClientName: 'Acme PSA',
  });
  expect(res.body.data.authorName).toBe('sam@msp.example');
});
