import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { grantConsent } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #32 item 1: an upstream tenant belongs to one environment of one organization. Before the fix a
 * sandbox key onboarded the cloud tenant a live key administered, synced it and changed its users upstream;
 * the live environment then read the sandbox's changes. Another organization the customer also granted did
 * the same.
 */

const ONBOARD = /* GraphQL */ `
  mutation Onboard($externalId: String!) {
    onboardTenant(input: { externalId: $externalId }) {
      id
    }
  }
`;

let app: SharedApp;
let cloud: SimulatedCloud;
let owner: OrganizationWithKeys;
let other: OrganizationWithKeys;

beforeAll(async () => {
  ({ app, org: owner, other } = await sharedSuite({ other: true }));
  cloud = app.deps.clouds as SimulatedCloud;
});
afterAll(() => app.stop());

/** A customer of the simulated cloud that granted both organizations. */
async function customer(): Promise<string> {
  const slug = `u${randomUUID().slice(0, 8)}`;
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: `Owner ${slug}`,
    domains: [`${slug}.example.com`],
    seed: 7,
    employees: 3,
  });
  for (const org of [owner, other]) await grantConsent(app, tenant.externalId, org.organization.id);
  return tenant.externalId;
}

const onboard = (key: string, externalId: string) =>
  app.graphql<{ onboardTenant: { id: string } }>(key, ONBOARD, { externalId });

async function holders(externalId: string): Promise<{ organization_id: string; environment: string }[]> {
  const { rows } = await app.pool.query<{ organization_id: string; environment: string }>(
    'select organization_id, environment from tenants where external_id = $1',
    [externalId],
  );
  return rows;
}

describe('an upstream tenant belongs to one environment of one organization', () => {
  it('refuses a sandbox key the tenant the live environment administers (409, nothing written)', async () => {
    const externalId = await customer();
    expect((await onboard(owner.liveAdminKey, externalId)).body.errors).toBeUndefined();
    for (const key of [owner.keys.write, owner.keys.admin]) {
      const refused = await onboard(key, externalId);
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors?.[0].extensions).toMatchObject({
        code: 'CONFLICT',
        details: { reason: 'UPSTREAM_TENANT_TAKEN', environment: 'live' },
      });
      expect(refused.body.errors?.[0].message).toContain('live environment');
    }
    expect(await holders(externalId)).toEqual([
      { organization_id: owner.organization.id, environment: 'live' },
    ]);
  });

  it('refuses the live environment a tenant the sandbox holds', async () => {
    const externalId = await customer();
    expect((await onboard(owner.keys.write, externalId)).body.errors).toBeUndefined();
    const refused = await onboard(owner.liveAdminKey, externalId);
    expect(refused.body.errors?.[0].extensions).toMatchObject({
      code: 'CONFLICT',
      details: { environment: 'sandbox' },
    });
    expect(await holders(externalId)).toEqual([
      { organization_id: owner.organization.id, environment: 'sandbox' },
    ]);
  });

  it('refuses another organization the customer also granted, telling nothing about the holder', async () => {
    const externalId = await customer();
    expect((await onboard(owner.liveAdminKey, externalId)).body.errors).toBeUndefined();
    for (const key of [other.keys.write, other.liveAdminKey]) {
      const refused = await onboard(key, externalId);
      expect(refused.body.errors?.[0].extensions).toEqual({
        code: 'CONFLICT',
        details: { reason: 'UPSTREAM_TENANT_TAKEN' },
      });
      expect(refused.body.errors?.[0].message).not.toContain(owner.organization.id);
    }
    expect(await holders(externalId)).toHaveLength(1);
  });

  it('lets exactly one of two simultaneous onboardings win (the unique constraint backs the check)', async () => {
    const externalId = await customer();
    const answers = await Promise.all([
      onboard(owner.liveAdminKey, externalId),
      onboard(owner.keys.write, externalId),
      onboard(other.keys.write, externalId),
    ]);
    const won = answers.filter((answer) => !answer.body.errors);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((answer) => answer.body.errors)) {
      expect(lost.body.errors?.[0].extensions.code).toBe('CONFLICT');
    }
    expect(await holders(externalId)).toHaveLength(1);
  });
});
