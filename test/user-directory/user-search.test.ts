import { Permission } from '../../src/core/permissions.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createMember, createOAuthClient, issueAccessToken } from '../factories/oauth.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant, createUser } from '../factories/shared.js';
import { expectSearchTouchesFewUserPages } from '../helpers/search-plan.js';
import type { SuccessOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import { multiplyRows, statementOf } from '../helpers/list-plan.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

const SEARCH = '/api/msp-portal/users/search';

/** The whole envelope as one type, since a test reads a success (data, meta) or an error off the same body. */
interface SearchBody extends Omit<SuccessOf<'searchUsersAcrossTenants'>, 'success'> {
  success: boolean;
  error?: { code: string; details: { fields?: Array<{ field: string }> } };
}

let app: RealmApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
let north: Tenant;
let south: Tenant;

beforeAll(async () => {
  ({ app, org, other } = await realmSuite({ other: true }));
  north = await createTenant(app, org.scope, { name: 'North', domain: 'north.example.com' });
  south = await createTenant(app, org.scope, { name: 'South', domain: 'south.example.com' });
  await createUser(app, north, {
    displayName: 'José Álvarez',
    userPrincipalName: 'jose.alvarez@north.example.com',
  });
  await createUser(app, south, { displayName: 'Josef Berg', userPrincipalName: 'jberg@south.example.com' });
  await createUser(app, south, {
    displayName: 'Anna Smith',
    userPrincipalName: 'MARIA.JOSEPHINE@south.example.com',
  });
  await createUser(app, south, {
    displayName: 'Gone Joseph',
    userPrincipalName: 'gone@south.example.com',
    deletedAt: app.clock.now(),
  });
  // Another organization's and the live environment's people never show.
  const theirs = await createTenant(app, other.scope, { name: 'Theirs' });
  await createUser(app, theirs, { displayName: 'José Theirs', userPrincipalName: 'jose@theirs.example.com' });
  const live = await createTenant(app, org.liveScope, { name: 'Live' });
  await createUser(app, live, { displayName: 'José Live', userPrincipalName: 'jose@live.example.com' });
});
afterAll(() => app.stop());

async function search(query: string, key = org.keys.read): Promise<SearchBody> {
  const res = await app.request<SearchBody>('GET', `${SEARCH}?${query}`, { key });
  expect(res.status).toBe(200);
  return res.body;
}
const names = (body: SearchBody) => body.data.map((user) => user.displayName);

describe('GET /api/msp-portal/users/search', () => {
  it('finds a person in any tenant by part of a name, ignoring case and accents, A to Z', async () => {
    const body = await search('q=JOSE');
    expect(names(body)).toEqual(['Anna Smith', 'José Álvarez', 'Josef Berg']); // Anna by her UPN
    expect(body.data[1]).toMatchObject({ tenantId: north.id, tenantName: 'North' });
    expect(body.meta).toEqual({ limit: 25, hasMore: false, nextCursor: null });
    expect(names(await search('q=%C3%A1lvar'))).toEqual(['José Álvarez']); // "álvar"
    expect(names(await search('q=alvar'))).toEqual(['José Álvarez']);
  });

  it('matches prefixes and inner parts of UPN and mail', async () => {
    expect(names(await search('q=jbe'))).toEqual(['Josef Berg']);
    expect(names(await search('q=%40south.exa'))).toEqual(['Anna Smith', 'Josef Berg']);
    expect(names(await search('q=josephine'))).toEqual(['Anna Smith']);
  });

  it('leaves out deleted users, other organizations and the other environment', async () => {
    expect(names(await search('q=joseph'))).toEqual(['Anna Smith']);
    expect(names(await search('q=theirs'))).toEqual([]);
    expect(names(await search('q=jose', other.keys.read))).toEqual(['José Theirs']);
    expect(names(await search('q=jose', org.liveAdminKey))).toEqual(['José Live']);
  });

  it('keyset-pages: each page continues where the last ended, none repeats', async () => {
    for (let i = 1; i <= 5; i++)
      await createUser(app, i % 2 ? north : south, { displayName: `Pager Person ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const body: SearchBody = await search(`q=pager&limit=2${cursor ? `&after=${cursor}` : ''}`);
      expect(body.data.length).toBeLessThanOrEqual(2);
      seen.push(...names(body));
      cursor = body.meta.nextCursor;
      expect(body.meta.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual([1, 2, 3, 4, 5].map((i) => `Pager Person ${i}`));
  });

  it('narrows to a tenant group', async () => {
    const group = await app.request<Envelope<{ id: string }>>('POST', '/api/msp-portal/tenant-groups', {
      key: org.keys.write,
      body: { name: 'Only north', tenantIds: [north.id] },
    });
    expect(names(await search(`q=jose&tenantGroupId=${group.body.data.id}`))).toEqual(['José Álvarez']);
    const foreign = await app.request('GET', `${SEARCH}?q=jose&tenantGroupId=${group.body.data.id}`, {
      key: other.keys.read,
    });
    expect(foreign.status).toBe(404);
  });

  it('refuses a term under 3 characters, a foreign cursor and a bad limit with 400 naming the field', async () => {
    for (const [query, field] of [
      ['q=jo', 'q'],
      ['q=', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=jose&after=not-a-cursor', 'after'],
      ['q=jose&limit=101', 'limit'],
    ]) {
      const res = await app.request<SearchBody>('GET', `${SEARCH}?${query}`, { key: org.keys.read });
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.error?.code).toBe('INVALID_REQUEST');
      expect(res.body.error?.details.fields?.map((problem) => problem.field)).toContain(field);
    }
  });

  it('needs read:users: every API key level reads, a token with msp:read alone gets 403', async () => {
    for (const key of [org.keys.read, org.keys.write, org.keys.admin])
      expect(names(await search('q=jbe', key))).toEqual(['Josef Berg']);
    const member = await createMember(app, org.organization.id);
    const client = await createOAuthClient(app, org.scope);
    const mspOnly = await issueAccessToken(app, client, member, [Permission.MSP_READ]);
    const refused = await app.request<SearchBody>('GET', `${SEARCH}?q=jbe`, { key: mspOnly });
    expect(refused.status).toBe(403);
    const users = await issueAccessToken(app, client, member, [Permission.READ_USERS]);
    expect(names(await search('q=jbe', users))).toEqual(['Josef Berg']);
  });

  it('follows a rename: PostgreSQL keeps the stored search key and sort name on every update', async () => {
    const user = await createUser(app, north, {
      displayName: 'Before Rename',
      userPrincipalName: 'renamed@north.example.com',
    });
    await app.pool.query(`update users set display_name = 'Zoë Renamed' where id = $1`, [user.id]);
    expect(names(await search('q=ZOE%20REN'))).toEqual(['Zoë Renamed']);
    expect(names(await search('q=before'))).toEqual([]);
  });

  it('is the GraphQL query searchUsersAcrossTenants', async () => {
    const res = await app.graphql<{
      searchUsersAcrossTenants: { items: Array<{ displayName: string }>; pageInfo: { hasMore: boolean } };
    }>(
      org.keys.read,
      'query ($q: String!) { searchUsersAcrossTenants(q: $q, limit: 1) { items { displayName } pageInfo { hasMore } } }',
      { q: 'josé' },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.searchUsersAcrossTenants).toEqual({
      items: [{ displayName: 'Anna Smith' }],
      pageInfo: { hasMore: true },
    });
  });
});

describe('the search plan', () => {
  it('finds matches through the folded trigram index, not by reading every user, as requests run it', async () => {
    const filler = await createUser(app, south, {
      displayName: 'Filler Row',
      userPrincipalName: 'filler@south.example.com',
    });
    await multiplyRows(app, 'users', filler.id, 20000, [
      'organization_id',
      'environment',
      'tenant_id',
      'display_name',
    ]);
    await app.pool.query('vacuum analyze users');
    await search('q=needle'); // warm-up
    app.sql.reset();
    await search('q=needle');
    const statement = app.sql.log.map(statementOf).find((sql) => /scoped_user_search/.test(sql));
    expect(statement).toBeDefined();
    await expectSearchTouchesFewUserPages(app, statement!, org.scope);
  });

  it('the function keeps the policy: an application-role caller sees its own organization only', async () => {
    const client = await app.pool.connect();
    const found = async (organizationId: string) =>
      (
        await client.query('select id from scoped_user_search($1::uuid, $2, $3)', [
          organizationId,
          org.scope.environment,
          'jos',
        ])
      ).rowCount;
    try {
      await client.query('begin');
      // The service role (jobs) names the organization it reads.
      expect(await found(other.organization.id)).toBe(1);
      await client.query(
        `select set_config('app.organization_id', $1, true), set_config('app.environment', $2, true),
                set_config('role', 'msp_app', true)`,
        [org.scope.organizationId, org.scope.environment],
      );
      expect(await found(org.scope.organizationId)).toBe(3);
      expect(await found(other.organization.id)).toBe(0);
      await client.query(`select set_config('app.organization_id', '', true)`);
      expect(await found(org.scope.organizationId)).toBe(0);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});
