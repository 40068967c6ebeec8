import { randomUUID } from 'node:crypto';
import { Environment } from '../../src/core/environment.js';
import { JobStatus } from '../../src/core/job-status.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';
import { grantConsent } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';

/**
 * A tenant client's lists come in pages (src/cloud/pages.ts), as Graph's `@odata.nextLink` pages: the
 * simulated cloud gives pages of its `pageSize`, and a sync read through pages of 4 items brings in exactly
 * what the cloud holds.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let externalId: string;

const PAGE_SIZE = 4;

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ jobs: true }));
  simulatedCloud(app).pageSize = PAGE_SIZE;
  const slug = `p${randomUUID().slice(0, 8)}`;
  const { tenant } = await simulatedCloud(app).createTenant({
    externalId: randomUUID(),
    displayName: `Paging ${slug}`,
    domains: [`${slug}.example.com`, `${slug}.onmicrosoft.com`],
    seed: 77,
    employees: 25,
  });
  externalId = tenant.externalId;
  await grantConsent(app, externalId, org.organization.id);
});
afterAll(() => app.stop());

it('gives a list in pages of the configured size, read only when iterated', async () => {
  const provider = await simulatedCloud(app).forPartner({
    organizationId: org.organization.id,
    environment: Environment.SANDBOX,
  });
  const cloud = await provider.forTenant(externalId);
  const expected = await simulatedCloud(app).listUsers(externalId);
  const sizes: number[] = [];
  for await (const page of cloud.directory.listUsers()) sizes.push(page.length);
  expect(sizes.length).toBe(Math.ceil(expected.length / PAGE_SIZE));
  expect(sizes.slice(0, -1).every((size) => size === PAGE_SIZE)).toBe(true);
  expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(expected.length);

  // A list not iterated asks nothing: a fault due for it is still due afterwards.
  simulatedCloud(app).faults.inject(externalId, 'licenses.listSkus', { kind: 'Transient' });
  cloud.licenses.listSkus();
  await expect(cloud.licenses.listSkus()[Symbol.asyncIterator]().next()).rejects.toMatchObject({
    kind: 'Transient',
  });
});

it('a sync reading pages of 4 brings in every user, group, license and assignment', async () => {
  const onboarded = await app.graphql<{ onboardTenant: { id: string } }>(
    org.keys.write,
    `mutation($externalId: String!) { onboardTenant(input: { externalId: $externalId }) { id } }`,
    { externalId },
  );
  expect(onboarded.body.errors).toBeUndefined();
  const sync = await syncAndWait(app, org, onboarded.body.data!.onboardTenant.id);
  expect(sync.status).toBe(JobStatus.COMPLETED);
  const cloud = simulatedCloud(app);
  const [users, groups, skus, assignments] = await Promise.all([
    cloud.listUsers(externalId),
    cloud.listGroups(externalId),
    cloud.listSkus(externalId),
    cloud.listLicenseAssignments(externalId),
  ]);
  expect(users.length).toBeGreaterThan(3 * PAGE_SIZE);
  expect(sync.summary).toMatchObject({
    usersCreated: users.length,
    groupsCreated: groups.length,
    licensesCreated: skus.length,
    assignmentsCreated: assignments.length,
  });
});
