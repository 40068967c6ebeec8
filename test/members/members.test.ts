import { performance } from 'node:perf_hooks';
import { Permission } from '../../src/core/permissions.js';
import { seedDemoMember, DEMO_MEMBER } from '../../src/members/demo-member.js';
import { Member, MemberRole } from '../../src/members/member.entity.js';
import { hashPassword, verifyPassword } from '../../src/members/member.password.js';
import { MemberService } from '../../src/members/member.service.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import {
  createOrganization,
  createOrganizationWithKeys,
  type OrganizationWithKeys,
} from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { TestApp } from '../helpers/test-app.js';

let app: TestApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  app = await TestApp.start();
  org = await createOrganizationWithKeys(app);
});
afterAll(() => app.stop());

const CREATE =
  'mutation($input: CreateMemberInput!) { createMember(input: $input) { id email role createdAt lastSignInAt } }';

interface MemberBody {
  id: string;
  email: string;
  role: string;
  createdAt: string;
  lastSignInAt: string | null;
}

describe('passwords', () => {
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

  it('take about as long to refuse an unknown email as a wrong password (a dummy hash is checked)', async () => {
    const organization = await createOrganization(app);
    await createMember(app, organization.id, { email: 'timing@example.com' });
    const service = new MemberService({
      em: app.orm.em.fork(),
      scope: { organizationId: organization.id },
      clock: app.clock,
    });
    const time = async (email: string) => {
      const started = performance.now();
      expect(await service.verifyCredentials(email, 'not the password')).toBeNull();
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time('timing@example.com'));
      unknown.push(await time(`nobody-${i}@example.com`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2];
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('members over GraphQL (Admin)', () => {
  it('creates a member: email in lower case, password never returned nor stored in the clear', async () => {
    const res = await app.graphql<{ createMember: MemberBody }>(org.keys.admin, CREATE, {
      input: { email: '  Bea.Admin@Example.COM ', password: 'bea-secret-passphrase', role: 'ADMIN' },
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data!.createMember).toMatchObject({
      email: 'bea.admin@example.com',
      role: 'ADMIN',
      lastSignInAt: null,
    });
    const stored = await app.orm.em.fork().findOneOrFail(Member, { id: res.body.data!.createMember.id });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.passwordHash).not.toContain('bea-secret-passphrase');
    expect(await verifyPassword('bea-secret-passphrase', stored.passwordHash)).toBe(true);
  });

  it('defaults the role to member and refuses a taken email, whatever its case (409)', async () => {
    const first = await app.graphql<{ createMember: MemberBody }>(org.keys.admin, CREATE, {
      input: { email: 'cleo@example.com', password: 'cleo-passphrase-1' },
    });
    expect(first.body.data!.createMember.role).toBe('MEMBER');
    const again = await app.graphql(org.keys.admin, CREATE, {
      input: { email: 'CLEO@example.com', password: 'cleo-passphrase-2' },
    });
    expect(again.body.errors?.[0].extensions.code).toBe('CONFLICT');
  });

  it('refuses a bad email and a short password with INVALID_REQUEST naming both fields', async () => {
    const res = await app.graphql(org.keys.admin, CREATE, {
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
    const res = await app.graphql<{ members: { items: MemberBody[]; pageInfo: { total: number } } }>(
      org.keys.admin,
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
    const client = await createOAuthClient(app, organization.scope);
    const token = await issueAccessToken(app, client, leaving, [Permission.READ_TENANTS]);
    expect((await app.request('GET', '/v1/tenants', { key: token })).status).toBe(200);

    const REMOVE = 'mutation($id: UUID!) { removeMember(id: $id) { email } }';
    const removed = await app.graphql(organization.keys.admin, REMOVE, { id: leaving.id });
    expect(removed.body.errors).toBeUndefined();
    expect((await app.request('GET', '/v1/tenants', { key: token })).status).toBe(401);

    const lastOwner = await app.graphql(organization.keys.admin, REMOVE, { id: owner.id });
    expect(lastOwner.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const someoneElses = await app.graphql(org.keys.admin, REMOVE, { id: owner.id });
    expect(someoneElses.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('members over REST (/api/settings/members, Admin)', () => {
  it('creates (201), lists with meta, and removes', async () => {
    app.clock.advance(60_000); // newest first: created after everyone above
    const created = await app.request<Envelope<MemberBody>>('POST', '/api/settings/members', {
      key: org.keys.admin,
      body: { email: 'dev@example.com', password: 'dev-passphrase-1', role: 'member' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email: 'dev@example.com', role: 'member' });
    expect(JSON.stringify(created.body)).not.toContain('dev-passphrase-1');

    const listed = await app.request<Envelope<MemberBody[]>>('GET', '/v1/api/settings/members?limit=2', {
      key: org.keys.admin,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).toMatchObject({ page: 1, limit: 2 });
    expect(listed.body.data[0].email).toBe('dev@example.com');

    const removed = await app.request('DELETE', `/api/settings/members/${created.body.data.id}`, {
      key: org.keys.admin,
    });
    expect(removed.status).toBe(200);
    const forbidden = await app.request<Envelope>('GET', '/api/settings/members', { key: org.keys.write });
    expect(forbidden.status).toBe(403);
  });

  it('answers a bad role with 400 naming the field', async () => {
    const res = await app.request<Envelope>('POST', '/api/settings/members', {
      key: org.keys.admin,
      body: { email: 'x@example.com', password: 'x-passphrase-1', role: 'emperor' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error?.details.fields).toEqual([expect.objectContaining({ field: 'role' })]);
  });
});

describe('the demo member', () => {
  it('signs in with the credentials the README shows', async () => {
    const organization = await createOrganization(app);
    await seedDemoMember(app.orm.em.fork(), organization.id, app.clock);
    const service = new MemberService({
      em: app.orm.em.fork(),
      scope: { organizationId: organization.id },
      clock: app.clock,
    });
    const member = await service.verifyCredentials(DEMO_MEMBER.email, DEMO_MEMBER.password);
    expect(member?.role).toBe(MemberRole.OWNER);
  });
});
