import { Permission } from '../../src/core/permissions.js';
import { MemberRole } from '../../src/members/member.enums.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/shared.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #9 item 4: members are organization-wide, so managing them needs live authority. Before the fix a
 * svc_sk_test_ Admin key created an admin member, who signed in through a live OAuth client and minted a
 * live Admin key.
 */
let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

const CREATE_MEMBER = 'mutation($input: CreateMemberInput!) { createMember(input: $input) { id role } }';
const UPDATE_MEMBER =
  'mutation($id: UUID!, $role: MemberRole!) { updateMember(id: $id, input: { role: $role }) { id role } }';
const REMOVE_MEMBER = 'mutation($id: UUID!) { removeMember(id: $id) { id } }';
const CREATE_KEY = 'mutation { createApiKey(input: { name: "minted", level: ADMIN }) { secret } }';

async function memberCount(email: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from members where organization_id = $1 and email = $2',
    [org.organization.id, email],
  );
  return rows[0].n;
}

describe('a sandbox credential cannot manage members (issue #9 item 4)', () => {
  it('refuses a svc_sk_test_ Admin key creating a member, over GraphQL and REST, writing nothing', async () => {
    const graphql = await app.graphql(org.keys.admin, CREATE_MEMBER, {
      input: { email: 'sneaky@example.com', password: 'sneaky-passphrase-1', role: 'ADMIN' },
    });
    expect(graphql.status).toBe(403);
    expect(graphql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(graphql.body.errors?.[0].message).toMatch(/live/);

    const rest = await app.request<Envelope>('POST', '/api/settings/members', {
      key: org.keys.admin,
      body: { email: 'sneaky@example.com', password: 'sneaky-passphrase-1', role: 'admin' },
    });
    expect(rest.status).toBe(403);
    expect(rest.body.error?.message).toMatch(/live Admin key/);
    expect(await memberCount('sneaky@example.com')).toBe(0);
  });

  it('refuses it before looking at the input (403, not 400)', async () => {
    const res = await app.request<Envelope>('POST', '/api/settings/members', {
      key: org.keys.admin,
      body: {},
    });
    expect(res.status).toBe(403);
  });

  it('refuses a sandbox key promoting, demoting or removing a member; nothing changes', async () => {
    const plain = await createMember(app, org.organization.id, { role: MemberRole.MEMBER });
    const promote = await app.graphql(org.keys.admin, UPDATE_MEMBER, { id: plain.id, role: 'ADMIN' });
    expect(promote.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const demote = await app.request('PATCH', `/api/settings/members/${plain.id}`, {
      key: org.keys.admin,
      body: { role: 'member' },
    });
    expect(demote.status).toBe(403);
    const remove = await app.graphql(org.keys.admin, REMOVE_MEMBER, { id: plain.id });
    expect(remove.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const {
      rows: [stored],
    } = await app.pool.query<{ role: string }>('select role from members where id = $1', [plain.id]);
    expect(stored.role).toBe(MemberRole.MEMBER);
  });

  it('refuses an owner signed in through a sandbox OAuth client (a sandbox credential, admin scope)', async () => {
    const owner = await createMember(app, org.organization.id, { role: MemberRole.OWNER });
    const sandboxClient = await createOAuthClient(app, org.scope);
    const token = await issueAccessToken(app, sandboxClient, owner, [Permission.ADMIN]);
    const res = await app.graphql(token, CREATE_MEMBER, {
      input: { email: 'via-sandbox@example.com', password: 'sandbox-passphrase-1', role: 'ADMIN' },
    });
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(await memberCount('via-sandbox@example.com')).toBe(0);
  });

  it('closes the chain: only live authority makes members, and a sandbox token mints only sandbox keys', async () => {
    // Live authority still manages members, over both APIs.
    const created = await app.graphql<{ createMember: { id: string; role: string } }>(
      org.liveAdminKey,
      CREATE_MEMBER,
      { input: { email: 'live-admin@example.com', password: 'live-passphrase-1', role: 'ADMIN' } },
    );
    expect(created.body.errors).toBeUndefined();
    const admin = { id: created.body.data!.createMember.id };
    const demoted = await app.request('PATCH', `/api/settings/members/${admin.id}`, {
      key: org.liveAdminKey,
      body: { role: 'member' },
    });
    expect(demoted.status).toBe(200);
    const promoted = await app.graphql(org.liveAdminKey, UPDATE_MEMBER, { id: admin.id, role: 'ADMIN' });
    expect(promoted.body.errors).toBeUndefined();

    // An admin member acting through a sandbox client gets sandbox keys only: the sandbox side cannot
    // climb to live through a member either.
    const sandboxClient = await createOAuthClient(app, org.scope);
    const sandboxToken = await issueAccessToken(app, sandboxClient, admin, [Permission.ADMIN]);
    const minted = await app.graphql<{ createApiKey: { secret: string } }>(sandboxToken, CREATE_KEY);
    expect(minted.body.data!.createApiKey.secret).toMatch(/^svc_sk_test_/);
    const again = await app.graphql(sandboxToken, CREATE_MEMBER, {
      input: { email: 'second@example.com', password: 'second-passphrase-1', role: 'ADMIN' },
    });
    expect(again.body.errors?.[0].extensions.code).toBe('FORBIDDEN');

    const removed = await app.request('DELETE', `/api/settings/members/${admin.id}`, {
      key: org.liveAdminKey,
    });
    expect(removed.status).toBe(200);
  });
});
