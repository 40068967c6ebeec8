import { Permission } from '../../src/core/permissions.js';
import { DEMO_MEMBER } from '../../src/members/demo-member.js';
import { MemberRole } from '../../src/members/member.enums.js';
import { hashPassword, verifyPassword } from '../../src/members/member.password.js';
import {
  createMember,
  createOAuthClient,
  createOrganization,
  createOrganizationWithKeys,
  issueAccessToken,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import type { ItemOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

// The service calls (MemberService, the demo member's seed) and the stored rows go through the server's ORM
// (onServer: server-side-services.ts), as the CLI and the seed call the service.
let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

const CREATE =
  'mutation($input: CreateMemberInput!) { createMember(input: $input) { id email role createdAt lastSignInAt } }';

/** A member as GraphQL shows it (role in UPPER_SNAKE, e.g. OWNER); REST's member is MemberBody. */
interface GraphqlMemberBody {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  lastSignInAt: string | null;
}
type MemberBody = ItemOf<'listMembers'>;

describe('passwords', () => {
  it('check a password of the same cost whether the email is known or not (a dummy hash)', async () => {
    const organization = await createOrganization(app);
    await createMember(app, organization.id, { email: 'timing@example.com' });
    const checked: string[] = [];
    const verifyCredentials = (email: string, password: string) =>
      onServer(
        app,
        'verifyMemberCredentials',
        organization.id,
        email,
        password,
        async (given, storedHash) => {
          checked.push(storedHash);
          return verifyPassword(given, storedHash);
        },
      );
    expect(await verifyCredentials('nobody@example.com', 'not the password')).toBeNull();
    expect(await verifyCredentials('timing@example.com', 'not the password')).toBeNull();
    expect(checked).toHaveLength(2);
    // Same scheme and cost parameters: only the salt and the hash differ, so both checks take as long.
    const costOf = (hash: string) => hash.split('$').slice(0, 4).join('$');
    expect(costOf(checked[0])).toBe(costOf(checked[1]));
    // The server's dummy hash (made once per process, as the service checks it).
    const dummy = await onServer(app, 'memberDummyPasswordHash');
    expect(checked[0]).toBe(dummy);
    // Stored like a real hash (same salt and key lengths), and no password matches it.
    expect(dummy).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('', dummy)).toBe(false);
  });

  it('are hashed with scrypt, salted, with their parameters stored', async () => {
    const [first, second] = await Promise.all([
      hashPassword('a long passphrase'),
      hashPassword('a long passphrase'),
    ]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('a long passphrase', first)).toBe(true);
    expect(await verifyPassword('a long passphrasE', first)).toBe(false);
    expect(await verifyPassword('a long passphrase', 'garbage')).toBe(false);
  });
});

describe('members over GraphQL (Admin)', () => {
  it('creates a member: email in lower case, password never returned nor stored in the clear', async () => {
    const res = await app.graphql<{ createMember: GraphqlMemberBody }>(org.liveAdminKey, CREATE, {
      input: { email: '  Bea.Admin@Example.COM ', password: 'bea-secret-passphrase', role: 'ADMIN' },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.createMember).toMatchObject({
      email: 'bea.admin@example.com',
      role: 'ADMIN',
      lastSignInAt: null,
    });
    const stored = await onServer(app, 'findMember', res.body.data!.createMember.id);
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.passwordHash).not.toContain('bea-secret-passphrase');
    expect(await verifyPassword('bea-secret-passphrase', stored.passwordHash)).toBe(true);
  });

  it('defaults the role to member and refuses a taken email, whatever its case (409)', async () => {
    const first = await app.graphql<{ createMember: GraphqlMemberBody }>(org.liveAdminKey, CREATE, {
      input: { email: 'cleo@example.com', password: 'cleo-passphrase-1' },
    });
    expect(first.body.data!.createMember.role).toBe('MEMBER');
    const again = await app.graphql(org.liveAdminKey, CREATE, {
      input: { email: 'CLEO@example.com', password: 'cleo-passphrase-2' },
    });
    expect(again.body.errors?.[0].extensions.code).toBe('CONFLICT');
  });

  it('refuses a bad email and a short password with INVALID_REQUEST naming both fields', async () => {
    const res = await app.graphql(org.liveAdminKey, CREATE, {
      input: { email: 'not-an-email', password: 'short' },
    });
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'INVALID_REQUEST',
      details: {
        fields: [expect.objectContaining({ field: 'email' }), expect.objectContaining({ field: 'password' })],
      },
    });
  });

  it.each(['read', 'write'] as const)('is refused to a %s key (403)', async (level) => {
    const res = await app.graphql(org.keys[level], CREATE, {
      input: { email: 'x@example.com', password: 'x-passphrase-1' },
    });
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const list = await app.graphql(org.keys[level], '{ members { items { id } } }');
    expect(list.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it("lists this organization's members only, newest first, with the page meta", async () => {
    const other = await createOrganizationWithKeys(app);
    await createMember(app, other.organization.id, { email: 'elsewhere@example.com' });
    const res = await app.graphql<{ members: { items: GraphqlMemberBody[]; pageInfo: { total: number } } }>(
      org.liveAdminKey,
      '{ members(limit: 100) { items { id email role createdAt lastSignInAt } pageInfo { total } } }',
    );
    const emails = res.body.data!.members.items.map((m) => m.email);
    expect(emails).not.toContain('elsewhere@example.com');
    expect(emails).toEqual(expect.arrayContaining(['bea.admin@example.com', 'cleo@example.com']));
    expect(res.body.data!.members.pageInfo.total).toBe(emails.length);
  });

  it('removes a member, whose tokens stop working at once; never the last owner (409)', async () => {
    const organization = await createOrganizationWithKeys(app);
    const owner = await createMember(app, organization.organization.id, { role: MemberRole.OWNER });
    const leaving = await createMember(app, organization.organization.id, { role: MemberRole.MEMBER });
    const client = await createOAuthClient(app, organization.liveScope);
    const token = await issueAccessToken(app, client, leaving, [Permission.READ_TENANTS]);
    expect((await app.request('GET', '/v1/tenants', { key: token })).status).toBe(200);

    const REMOVE = 'mutation($id: UUID!) { removeMember(id: $id) { email } }';
    const removed = await app.graphql(organization.liveAdminKey, REMOVE, { id: leaving.id });
    expect(removed.body.errors).toBeUndefined();
    expect((await app.request('GET', '/v1/tenants', { key: token })).status).toBe(401);

    // An owner may remove owners, but not the last one.
    const ownerToken = await issueAccessToken(app, client, owner, [Permission.ADMIN]);
    const lastOwner = await app.graphql(ownerToken, REMOVE, { id: owner.id });
    expect(lastOwner.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { memberId: owner.id },
    });
    expect(lastOwner.body.errors?.[0].message).toContain('last owner');
    const someoneElses = await app.graphql(org.liveAdminKey, REMOVE, { id: owner.id });
    expect(someoneElses.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe("members' roles (owners are managed by an owner or the CLI)", () => {
  const UPDATE =
    'mutation($id: UUID!, $input: UpdateMemberInput!) { updateMember(id: $id, input: $input) { id role } }';
  const REMOVE = 'mutation($id: UUID!) { removeMember(id: $id) { id } }';

  /** An organization with an owner, an admin and a member, and admin-scope tokens of the first two. */
  async function team() {
    const organization = await createOrganizationWithKeys(app);
    const id = organization.organization.id;
    const [owner, admin, member] = await Promise.all([
      createMember(app, id, { role: MemberRole.OWNER }),
      createMember(app, id, { role: MemberRole.ADMIN }),
      createMember(app, id, { role: MemberRole.MEMBER }),
    ]);
    const client = await createOAuthClient(app, organization.liveScope);
    const [ownerToken, adminToken] = await Promise.all([
      issueAccessToken(app, client, owner, [Permission.ADMIN]),
      issueAccessToken(app, client, admin, [Permission.ADMIN]),
    ]);
    return { organization, owner, admin, member, client, ownerToken, adminToken };
  }

  const roleOf = async (id: string) => (await onServer(app, 'findMember', id)).role;

  it("changes a member's role (Admin); the member's tokens follow at once", async () => {
    const { organization, admin, member, client } = await team();
    const promoted = await app.graphql<{ updateMember: GraphqlMemberBody }>(
      organization.liveAdminKey,
      UPDATE,
      {
        id: member.id,
        input: { role: 'ADMIN' },
      },
    );
    expect(promoted.body.errors).toBeUndefined();
    expect(promoted.body.data!.updateMember).toMatchObject({ id: member.id, role: 'ADMIN' });

    // The admin's token holds admin; demoted to member, the same token loses it on the next request.
    const token = await issueAccessToken(app, client, admin, [Permission.ADMIN, Permission.READ_TENANTS]);
    expect((await app.request('GET', '/api/settings/api-keys', { key: token })).status).toBe(200);
    const demoted = await app.graphql(organization.liveAdminKey, UPDATE, {
      id: admin.id,
      input: { role: 'MEMBER' },
    });
    expect(demoted.body.errors).toBeUndefined();
    const refused = await app.request<Envelope>('GET', '/api/settings/api-keys', { key: token });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.details).toMatchObject({ required: 'admin', granted: ['read:tenants'] });
    expect((await app.request('GET', '/v1/tenants', { key: token })).status).toBe(200);
  });

  it.each([
    ['an Admin API key', 'key'],
    ["an admin member's token", 'adminToken'],
  ] as const)('refuses %s anything about owners (403 naming "owner")', async (_case, credential) => {
    const t = await team();
    const key = credential === 'key' ? t.organization.liveAdminKey : t.adminToken;
    const attempts = [
      await app.graphql(key, CREATE, {
        input: { email: 'new-owner@example.com', password: 'owner-passphrase-1', role: 'OWNER' },
      }),
      await app.graphql(key, UPDATE, { id: t.member.id, input: { role: 'OWNER' } }),
      await app.graphql(key, UPDATE, { id: t.owner.id, input: { role: 'ADMIN' } }),
      await app.graphql(key, REMOVE, { id: t.owner.id }),
    ];
    for (const attempt of attempts) {
      expect(attempt.body.errors?.[0].extensions).toMatchObject({
        code: 'FORBIDDEN',
        details: { required: 'owner' },
      });
    }
    expect(await roleOf(t.member.id)).toBe(MemberRole.MEMBER);
    expect(await roleOf(t.owner.id)).toBe(MemberRole.OWNER);
    // Everything else stays theirs: an admin member's token demotes another admin.
    const other = await createMember(app, t.organization.organization.id, { role: MemberRole.ADMIN });
    const demoted = await app.graphql(key, UPDATE, { id: other.id, input: { role: 'MEMBER' } });
    expect(demoted.body.errors).toBeUndefined();
  });

  it('lets an owner add, promote, demote and remove owners, never the last one (409)', async () => {
    const { owner, member, ownerToken } = await team();
    const created = await app.graphql<{ createMember: GraphqlMemberBody }>(ownerToken, CREATE, {
      input: { email: 'co-owner@example.com', password: 'owner-passphrase-1', role: 'OWNER' },
    });
    expect(created.body.data?.createMember.role).toBe('OWNER');
    const promoted = await app.graphql(ownerToken, UPDATE, { id: member.id, input: { role: 'OWNER' } });
    expect(promoted.body.errors).toBeUndefined();
    expect(
      (await app.graphql(ownerToken, REMOVE, { id: created.body.data!.createMember.id })).body.errors,
    ).toBeUndefined();
    expect(
      (await app.graphql(ownerToken, UPDATE, { id: member.id, input: { role: 'MEMBER' } })).body.errors,
    ).toBeUndefined();

    // The owner is the last one now: they can neither step down nor leave.
    const demoteSelf = await app.graphql(ownerToken, UPDATE, { id: owner.id, input: { role: 'ADMIN' } });
    expect(demoteSelf.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('last owner of an organization cannot be demoted'),
      extensions: { code: 'CONFLICT', details: { memberId: owner.id } },
    });
    const leave = await app.graphql(ownerToken, REMOVE, { id: owner.id });
    expect(leave.body.errors?.[0].extensions.code).toBe('CONFLICT');
    expect(await roleOf(owner.id)).toBe(MemberRole.OWNER);
  });

  it('keeps an owner when two owners are demoted at the same time (the owners are locked)', async () => {
    const organization = await createOrganization(app);
    const [first, second] = await Promise.all([
      createMember(app, organization.id, { role: MemberRole.OWNER }),
      createMember(app, organization.id, { role: MemberRole.OWNER }),
    ]);
    // Each through a service of its own (its own EntityManager), as two requests would.
    const updateRole = (id: string) =>
      onServer(app, 'updateMemberRole', organization.id, id, MemberRole.ADMIN);
    const outcomes = await Promise.allSettled([updateRole(first.id), updateRole(second.id)]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'CONFLICT',
    });
    const roles = [await roleOf(first.id), await roleOf(second.id)];
    expect(roles.filter((role) => role === MemberRole.OWNER)).toHaveLength(1);
  });

  it('answers over REST: PATCH /api/settings/members/:id {role} (400 naming a bad role, 409, 403)', async () => {
    const { organization, owner, member, ownerToken } = await team();
    const patch = (key: string, id: string, body: unknown) =>
      app.request<Envelope<MemberBody>>('PATCH', `/api/settings/members/${id}`, { key, body });
    const promoted = await patch(organization.liveAdminKey, member.id, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ id: member.id, role: 'admin' });

    const bad = await patch(organization.liveAdminKey, member.id, { role: 'emperor' });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'role' })]);

    const asKey = await patch(organization.liveAdminKey, owner.id, { role: 'member' });
    expect(asKey.status).toBe(403);
    expect(asKey.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required: 'owner' } });
    const last = await patch(ownerToken, owner.id, { role: 'member' });
    expect(last.status).toBe(409);
    expect(last.body.error?.message).toContain('last owner');
    const lastRemoved = await app.request<Envelope>('DELETE', `/api/settings/members/${owner.id}`, {
      key: ownerToken,
    });
    expect(lastRemoved.status).toBe(409);

    for (const level of ['read', 'write'] as const)
      expect((await patch(organization.keys[level], member.id, { role: 'member' })).status).toBe(403);
    expect(
      (await patch(organization.liveAdminKey, '00000000-0000-4000-8000-000000000000', { role: 'member' }))
        .status,
    ).toBe(404);
  });
});

describe('members over REST (/api/settings/members, Admin)', () => {
  it('creates (201), lists with meta, and removes', async () => {
    app.clock.advance(60_000); // newest first: created after everyone above
    const created = await app.request<Envelope<MemberBody>>('POST', '/api/settings/members', {
      key: org.liveAdminKey,
      body: { email: 'dev@example.com', password: 'dev-passphrase-1', role: 'member' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email: 'dev@example.com', role: 'member' });
    expect(JSON.stringify(created.body)).not.toContain('dev-passphrase-1');

    const listed = await app.request<Envelope<MemberBody[]>>('GET', '/v1/api/settings/members?limit=2', {
      key: org.liveAdminKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ page: 1, limit: 2 });
    expect(listed.body.data[0].email).toBe('dev@example.com');

    const removed = await app.request('DELETE', `/api/settings/members/${created.body.data.id}`, {
      key: org.liveAdminKey,
    });
    expect(removed.status).toBe(200);
    const forbidden = await app.request<Envelope>('GET', '/api/settings/members', { key: org.keys.write });
    expect(forbidden.status).toBe(403);
  });

  it('answers a bad role with 400 naming the field', async () => {
    const res = await app.request<Envelope>('POST', '/api/settings/members', {
      key: org.liveAdminKey,
      body: { email: 'x@example.com', password: 'x-passphrase-1', role: 'emperor' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'role' })]);
  });
});

describe('the demo member', () => {
  it('signs in with the credentials the README shows', async () => {
    const organization = await createOrganization(app);
    await onServer(app, 'seedDemoMember', organization.id);
    const member = await onServer(
      app,
      'verifyMemberCredentials',
      organization.id,
      DEMO_MEMBER.email,
      DEMO_MEMBER.password,
    );
    expect(member?.role).toBe(MemberRole.OWNER);
  });
});
