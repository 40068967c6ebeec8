import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { listDeleted } from '../users/deleted-user-kit.js';
import { memberToken, namedApiKey, userDeletedBy, DELETED_USERS_WITH_ACTORS } from './actor-kit.js';

/**
 * Actors cost a fixed number of SQL statements whatever the number of rows: a list of N rows deleted by N
 * different principals (API keys, members with their OAuth clients, legacy access tokens, jobs, cloud names)
 * runs the same statements for N=5 and N=20: one for the keys, one for the members, one for the tokens.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
const tenants: Record<number, Tenant> = {};

/** N principals, all different: a fifth each of keys, members, legacy access tokens, jobs and cloud names. */
async function principals(count: number, label: string): Promise<string[]> {
  const result: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 === 0) result.push(`api_key:${(await namedApiKey(app, org.scope, `${label} key ${i}`)).id}`);
    else if (i % 5 === 1 || i % 5 === 2) {
      const { tokenId, memberId, clientId } = await memberToken(app, org.scope, {
        email: `${label}-${i}@msp.example`,
        clientName: `${label} PSA ${i}`,
      });
      result.push(i % 5 === 1 ? `access_token:${tokenId}` : `member:${memberId}:${clientId}`);
    } else if (i % 5 === 3) result.push(`system:job-${label}-${i}`);
    else result.push(`admin-${label}-${i}@contoso.example`);
  }
  return result;
}

beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  for (const count of [5, 20]) {
    const tenant = await createTenant(app, org.scope);
    for (const principal of await principals(count, `n${count}`))
      await userDeletedBy(app, tenant, principal, app.clock.now());
    tenants[count] = tenant;
  }
}, 120_000);
afterAll(() => app.stop());

async function restList(count: number): Promise<void> {
  const res = await listDeleted(app, org.keys.read, tenants[count].id, '?limit=100');
  expect(res.status).toBe(200);
  const actors = res.body.data.map((user) => user.deletedBy!);
  expect(actors).toHaveLength(count);
  expect(new Set(actors.map((actor) => actor.name)).size).toBe(count);
  expect(actors.every((actor) => actor.type !== 'UNKNOWN')).toBe(true);
}

async function graphqlList(count: number): Promise<void> {
  const res = await app.graphql<{ deletedUsers: { items: Array<{ deletedBy: { type: string } }> } }>(
    org.keys.read,
    DELETED_USERS_WITH_ACTORS,
    { tenantId: tenants[count].id },
  );
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data!.deletedUsers.items).toHaveLength(count);
}

it.each([
  ['REST', restList],
  ['GraphQL', graphqlList],
])('%s: the same statements for 5 and for 20 different actors', async (_name, list) => {
  await list(5); // warm-up: the key is verified and cached
  const five = await app.sql.during(() => list(5));
  const fiveLog = [...app.sql.log];
  const twenty = await app.sql.during(() => list(20));
  expect(twenty).toBe(five);
  for (const log of [fiveLog, app.sql.log]) {
    expect(log.filter((statement) => statement.includes('from api_keys where'))).toHaveLength(1);
    expect(log.filter((statement) => statement.includes('from members m'))).toHaveLength(1);
    expect(log.filter((statement) => statement.includes('from oauth_tokens t'))).toHaveLength(1);
  }
});
