/**
 * Issue #33 item 3: the external ids an organization may onboard — the customers that grant it delegated
 * access, as the cloud lists them — over REST and GraphQL, each with the tenant it already is in the caller's
 * environment. Keyset pages; another organization's customers never show.
 */
import { randomUUID } from 'node:crypto';
import { type OrganizationWithKeys, createTenant, grantConsent } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

interface Available {
  externalId: string;
  displayName: string;
  tenantId: string | null;
  status: string;
}
interface Envelope {
  success: boolean;
  data: Available[];
  meta: { limit: number; hasMore: boolean; nextCursor: string | null };
}

let app: SharedApp;
let org: OrganizationWithKeys;
let other: OrganizationWithKeys;
const onboarded = new Map<string, string>();
let waiting: string;
let elsewhere: string;

beforeAll(async () => {
  ({ app, org, other } = await sharedSuite({ other: true }));
  for (let i = 0; i < 3; i++) {
    const tenant = await createTenant(app, org.scope, { name: `Onboarded ${i}` });
    onboarded.set(tenant.externalId, tenant.id);
  }
  const theirs = await createTenant(app, other.scope, { name: 'Someone else’s' });
  // A customer of the other organization that also granted this one access (it changed MSPs, say).
  elsewhere = theirs.externalId;
  // A customer that granted access and is not onboarded yet.
  waiting = randomUUID();
  // The simulated cloud's tenant row alone (no directory): all the list reads of it.
  await app.pool.query(
    `insert into sim_cloud_tenants (external_id, display_name, domains, seed) values ($1, 'Waiting Co', $2, 1)`,
    [waiting, ['waiting.example']],
  );
  await grantConsent(app, waiting, org.scope.organizationId);
  await grantConsent(app, elsewhere, org.scope.organizationId);
});
afterAll(() => app.stop());

async function everyPage(key: string): Promise<Available[]> {
  const seen: Available[] = [];
  let after: string | null = null;
  do {
    const query: string = `/v1/available-tenants?limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const res = await app.request<Envelope>('GET', query, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(2);
    seen.push(...res.body.data);
    after = res.body.meta.nextCursor;
    expect(res.body.meta.hasMore).toBe(after !== null);
  } while (after);
  return seen;
}

describe('GET /v1/available-tenants and availableTenants', () => {
  it('lists every customer granting the organization, in pages, with the tenant each already is', async () => {
    const seen = await everyPage(org.keys.read);
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((item) => item.externalId)).size).toBe(5);
    for (const item of seen) expect(item.tenantId).toBe(onboarded.get(item.externalId) ?? null);
    expect(seen.find((item) => item.externalId === waiting)?.displayName).toBe('Waiting Co');
    const statusOf = new Map(seen.map((item) => [item.externalId, item.status]));
    expect(statusOf.get(waiting)).toBe('Available');
    for (const externalId of onboarded.keys()) expect(statusOf.get(externalId)).toBe('Onboarded');
    expect(statusOf.get(elsewhere)).toBe('Administered elsewhere');
  });

  it('marks a customer another organization administers without saying which (onboarding it is 409)', async () => {
    const res = await app.request<Envelope>('GET', '/v1/available-tenants?limit=100', { key: org.keys.read });
    const item = res.body.data.find((entry) => entry.externalId === elsewhere);
    expect(item).toEqual({
      externalId: elsewhere,
      displayName: expect.any(String),
      tenantId: null,
      status: 'Administered elsewhere',
    });
    expect(JSON.stringify(res.body)).not.toContain(other.organization.id);
    const onboard = await app.graphql<unknown>(
      org.keys.admin,
      `mutation { onboardTenant(input: { externalId: "${elsewhere}" }) { id } }`,
    );
    expect(onboard.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
  });

  it('in the live environment the sandbox tenants are marked onboarded in the other environment', async () => {
    const res = await app.request<Envelope>('GET', '/v1/available-tenants?limit=100', {
      key: org.liveAdminKey,
    });
    expect(res.body.data).toHaveLength(5);
    expect(res.body.data.every((item) => item.tenantId === null)).toBe(true);
    const statusOf = new Map(res.body.data.map((item) => [item.externalId, item.status]));
    expect(statusOf.get(waiting)).toBe('Available');
    expect(statusOf.get(elsewhere)).toBe('Administered elsewhere');
    for (const externalId of onboarded.keys())
      expect(statusOf.get(externalId)).toBe('Onboarded in other environment');
  });

  it('GraphQL gives the same, and refuses a limit out of 1..100', async () => {
    const res = await app.graphql<{
      availableTenants: { items: Available[]; pageInfo: { hasMore: boolean } };
    }>(
      org.keys.read,
      '{ availableTenants(limit: 100) { items { externalId displayName tenantId } pageInfo { hasMore nextCursor } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.availableTenants.items.map((item) => item.externalId).sort()).toEqual(
      [...onboarded.keys(), waiting, elsewhere].sort(),
    );
    expect(res.body.data?.availableTenants.pageInfo.hasMore).toBe(false);
    const refused = await app.request<{ error: { code: string } }>('GET', '/v1/available-tenants?limit=101', {
      key: org.keys.read,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_REQUEST');
  });
});
