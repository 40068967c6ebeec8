import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { JobStatus } from '../../src/core/job-status.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { grantConsent } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';

/**
 * Issue #9 item 3: a tenant belongs to the organization it consented to. Before the fix any organization
 * onboarded any cloud tenant by external id (the demo's are public in the repository) and synced its data.
 */

const ONBOARD = /* GraphQL */ `
  mutation Onboard($externalId: String!) {
    onboardTenant(input: { externalId: $externalId }) {
      id
      status
    }
  }
`;
const TENANT_STATUS = 'query ($id: UUID!) { tenant(id: $id) { status } }';

let app: SharedApp;
let cloud: SimulatedCloud;
let owner: OrganizationWithKeys;
let intruder: OrganizationWithKeys;

beforeAll(async () => {
  ({ app, org: owner, other: intruder } = await sharedSuite({ jobs: true, other: true }));
  cloud = app.deps.clouds as SimulatedCloud;
});
afterAll(() => app.stop());

/** A customer in the simulated cloud; it granted the organizations given (none: it granted nobody). */
async function customer(...grantedTo: OrganizationWithKeys[]): Promise<string> {
  const slug = `c${randomUUID().slice(0, 8)}`;
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: `Consent ${slug}`,
    domains: [`${slug}.example.com`],
    seed: 31,
    employees: 8,
  });
  for (const org of grantedTo) await grantConsent(app, tenant.externalId, org.organization.id);
  return tenant.externalId;
}

async function onboard(key: string, externalId: string) {
  return app.graphql<{ onboardTenant: { id: string; status: string } }>(key, ONBOARD, { externalId });
}

async function tenantsOf(org: OrganizationWithKeys, externalId: string): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    'select count(*)::int as count from tenants where organization_id = $1 and external_id = $2',
    [org.organization.id, externalId],
  );
  return rows[0].count;
}

async function usersOf(tenantId: string): Promise<number> {
  const { rows } = await app.pool.query<{ count: number }>(
    'select count(*)::int as count from users where tenant_id = $1',
    [tenantId],
  );
  return rows[0].count;
}

describe('onboarding needs the customer tenant’s grant', () => {
  it('refuses another organization’s customer (403 CONSENT_REQUIRED, saying how to get a grant) and writes nothing', async () => {
    const externalId = await customer(owner);
    for (const key of [intruder.keys.write, intruder.keys.admin, intruder.liveAdminKey]) {
      const refused = await onboard(key, externalId);
      expect(refused.body.data).toBeNull();
      expect(refused.body.errors?.[0].extensions).toMatchObject({
        code: 'FORBIDDEN',
        details: { reason: 'CONSENT_REQUIRED', externalId },
      });
      expect(refused.body.errors?.[0].message).toContain('delegated admin relationship');
      expect(refused.body.errors?.[0].message).toContain(`tenants grant ${externalId}`);
    }
    expect(await tenantsOf(intruder, externalId)).toBe(0);
    // The organization it granted onboards it (in one environment: test/hardening/upstream-tenant-owner.test.ts).
    expect((await onboard(owner.keys.write, externalId)).body.data?.onboardTenant.status).toBe('ACTIVE');
  });

  it('answers an unknown external id exactly like one that did not grant (no existence oracle)', async () => {
    const ungranted = await onboard(owner.keys.write, await customer());
    const unknown = await onboard(owner.keys.write, randomUUID());
    expect(unknown.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(ungranted.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(unknown.body.errors?.[0].extensions.details).toMatchObject({ reason: 'CONSENT_REQUIRED' });
  });

  it('checks the key level first: a Read key gets the permission refusal, not the consent answer', async () => {
    const refused = await onboard(intruder.keys.read, await customer(owner));
    expect(refused.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(refused.body.errors?.[0].extensions.details).not.toMatchObject({ reason: 'CONSENT_REQUIRED' });
  });
});

describe('sync checks the grant on every run', () => {
  it('stops a revoked organization (Failed "consent revoked", tenant suspended, nothing read) and resumes on a new grant', async () => {
    const externalId = await customer(owner);
    const mine = (await onboard(owner.keys.write, externalId)).body.data!.onboardTenant;
    expect((await syncAndWait(app, owner, mine.id)).status).toBe(JobStatus.COMPLETED);
    const usersBefore = await usersOf(mine.id);

    await cloud.consent.revokeDelegatedAccess(externalId, owner.organization.id);
    const extra = await cloud.createUser(externalId, {
      userPrincipalName: `after.revoke@${(await cloud.getTenant(externalId)).domains[0]}`,
      displayName: 'After Revoke',
      firstName: 'After',
      lastName: 'Revoke',
      jobTitle: null,
      department: null,
      companyName: null,
      officeLocation: null,
      businessPhone: null,
      mobilePhone: null,
      employeeId: null,
      employeeType: null,
      managerExternalId: null,
      usageLocation: null,
      accountEnabled: true,
      mfaStatus: 'Disabled',
      userType: 'Member',
      isServiceAccount: false,
      password: 'Not-used-by-the-simulation-1',
    });
    const stopped = await syncAndWait(app, owner, mine.id);
    expect(stopped).toMatchObject({ status: JobStatus.FAILED, summary: null });
    expect(stopped.error).toMatch(/^Consent revoked: /);
    expect(stopped.error).toContain(`tenants grant ${externalId}`);
    expect(await usersOf(mine.id)).toBe(usersBefore);
    const rest = await app.request<Envelope<{ status: string }>>('GET', `/v1/tenants/${mine.id}`, {
      key: owner.keys.read,
    });
    expect(rest.body.data.status).toBe('suspended');
    const graph = await app.graphql<{ tenant: { status: string } }>(owner.keys.read, TENANT_STATUS, {
      id: mine.id,
    });
    expect(graph.body.data?.tenant.status).toBe('SUSPENDED');

    await grantConsent(app, externalId, owner.organization.id);
    const resumed = await syncAndWait(app, owner, mine.id);
    expect(resumed.status).toBe(JobStatus.COMPLETED);
    expect(await usersOf(mine.id)).toBe(usersBefore + 1);
    const { rows } = await app.pool.query('select 1 from users where tenant_id = $1 and external_id = $2', [
      mine.id,
      extra.externalId,
    ]);
    expect(rows).toHaveLength(1);
    const after = await app.request<Envelope<{ status: string }>>('GET', `/v1/tenants/${mine.id}`, {
      key: owner.keys.read,
    });
    expect(after.body.data.status).toBe('active');
  });
});

describe('every cloud call on behalf of the organization needs the grant', () => {
  async function cloudUsers(externalId: string): Promise<number> {
    return (await cloud.listUsers(externalId)).length;
  }
  const createUser = (org: OrganizationWithKeys, tenantId: string, upn: string) =>
    app.request<Envelope<{ id: string }>>('POST', `/v1/tenants/${tenantId}/users`, {
      key: org.keys.write,
      body: { firstName: 'Ada', lastName: 'Grant', userPrincipalName: upn, password: 'Correct-Horse-42' },
    });

  it('refuses a write after the customer revoked the grant (403 CONSENT_REQUIRED, nothing written here or upstream), and accepts it again after a new grant', async () => {
    const externalId = await customer(owner);
    const mine = (await onboard(owner.keys.write, externalId)).body.data!.onboardTenant;
    expect((await syncAndWait(app, owner, mine.id)).status).toBe(JobStatus.COMPLETED);
    const domain = (await cloud.getTenant(externalId)).domains[0];
    const [localBefore, upstreamBefore] = [await usersOf(mine.id), await cloudUsers(externalId)];

    await cloud.consent.revokeDelegatedAccess(externalId, owner.organization.id);
    const refused = await createUser(owner, mine.id, `ada.refused@${domain}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { reason: 'CONSENT_REQUIRED', externalId },
    });
    expect(refused.body.error?.message).toContain(`tenants grant ${externalId}`);
    expect(await usersOf(mine.id)).toBe(localBefore);
    expect(await cloudUsers(externalId)).toBe(upstreamBefore);
    // What was synced while the grant held stays readable (docs/security-model.md "Tenant consent").
    const listed = await app.request('GET', `/v1/tenants/${mine.id}/users?limit=1`, { key: owner.keys.read });
    expect(listed.status).toBe(200);

    await grantConsent(app, externalId, owner.organization.id);
    const accepted = await createUser(owner, mine.id, `ada.accepted@${domain}`);
    expect(accepted.status).toBe(201);
    expect(await cloudUsers(externalId)).toBe(upstreamBefore + 1);
  });
});
