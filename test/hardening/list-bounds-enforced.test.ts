import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import {
  SUMMARY_MAX_OVER_ALLOCATED_TENANTS,
  SUMMARY_MAX_SKUS,
  SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT,
} from '../../src/http/list-bounds.js';
import { MAX_TENANTS_PER_ORGANIZATION } from '../../src/tenants/tenant-limits.js';
import { MAX_ENROLLMENT_RESTRICTIONS } from '../../src/device-management/enrollment.enums.js';
import {
  ALERT_MAX_CATEGORIES_LISTED,
  LIST_BOUNDS,
  USER_MAX_GROUPS_LISTED,
  USER_MAX_LICENSES_LISTED,
} from '../../src/http/list-bounds.js';
import { seedSecurity } from '../security/security-kit.js';
import { commitEvent, createWebhook } from '../webhooks/webhook-kit.js';
import { DEFAULT_WEBHOOK_SETTINGS, MAX_DELIVERY_ATTEMPTS } from '../../src/webhooks/webhook.settings.js';
import { api, createPolicy, RESTRICTIONS } from '../device-management/device-management-kit.js';
import type { DataOf } from '../helpers/api-types.js';
import type { Envelope } from '../helpers/envelope.js';
import {
  createGroup,
  createUser,
  giveLicense,
  createSku,
  createOrganizationWithKeys,
  type OrganizationWithKeys,
  createTenant,
  grantConsent,
} from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #32 item 3: the cost analysis sizes every unpaged list by its bound (src/http/list-bounds.ts), so no
 * data may make one longer. Tenants are capped where they are written (onboarding); the license summary's
 * lists, made of the customers' subscriptions, are cut where the summary is built, with the counts beside.
 */
let app: SharedApp;
let org: OrganizationWithKeys;

beforeAll(async () => ({ app, org } = await sharedSuite()));
afterAll(() => app.stop());

type SummaryBody = DataOf<'licenseIntelligenceSummary'>;

const ONBOARD = `mutation($externalId: String!) { onboardTenant(input: { externalId: $externalId }) { id } }`;

describe('tenants per organization', () => {
  it(`onboarding refuses the tenant past ${MAX_TENANTS_PER_ORGANIZATION} with 409 naming the limit, nothing written`, async () => {
    const full = await createOrganizationWithKeys(app);
    // One short of the limit, written directly (onboarding a thousand tenants one by one is the bench's job).
    await app.pool.query(
      `insert into tenants (id, organization_id, environment, name, domain, domains, external_id, status,
         password_min_length, password_require_complexity, created_at)
       select gen_random_uuid(), $1, $2, 'Filler ' || n, 'filler-' || n || '.' || $3 || '.example',
         array['filler-' || n || '.' || $3 || '.example'], $3 || '-filler-' || n, 'active', 8, true, now()
       from generate_series(1, $4::int) n`,
      [
        full.organization.id,
        full.scope.environment,
        randomUUID().slice(0, 8),
        MAX_TENANTS_PER_ORGANIZATION - 1,
      ],
    );
    const customer = async () => {
      const slug = `l${randomUUID().slice(0, 8)}`;
      const { tenant } = await (app.deps.clouds as SimulatedCloud).createTenant({
        externalId: randomUUID(),
        displayName: `Customer ${slug}`,
        domains: [`${slug}.example.com`],
        seed: 3,
        employees: 2,
      });
      await grantConsent(app, tenant.externalId, full.organization.id);
      return tenant.externalId;
    };
    const last = await app.graphql(full.keys.write, ONBOARD, { externalId: await customer() });
    expect(last.body.errors).toBeUndefined();
    const refused = await app.graphql(full.keys.write, ONBOARD, { externalId: await customer() });
    expect(refused.body.errors?.[0].extensions).toEqual({
      code: 'CONFLICT',
      details: {
        reason: 'TENANT_LIMIT',
        limit: 'tenantsPerOrganization',
        maximum: MAX_TENANTS_PER_ORGANIZATION,
      },
    });
    const { rows } = await app.pool.query<{ n: number }>(
      'select count(*)::int as n from tenants where organization_id = $1',
      [full.organization.id],
    );
    expect(rows).toEqual([{ n: MAX_TENANTS_PER_ORGANIZATION }]);
  }, 60_000);
});

describe('enrollment restrictions per tenant', () => {
  it(`refuses a restriction past ${MAX_ENROLLMENT_RESTRICTIONS} (default included) with 409; the bound is the cost analysis’s`, async () => {
    expect(LIST_BOUNDS['Mutation.reorderEnrollmentRestrictions']).toBe(MAX_ENROLLMENT_RESTRICTIONS);
    const tenant = await createTenant(app, org.scope);
    const policy = (i: number) => ({
      name: `Policy ${i}`,
      restrictionType: 'Device Type Restrictions',
      assignedToAllUsers: true,
      platformRestrictions: [{ platform: 'Windows MDM', allowed: false }],
    });
    for (let i = 1; i < MAX_ENROLLMENT_RESTRICTIONS; i++)
      await createPolicy(app, org.keys.write, tenant, policy(i));
    const refused = await api(app, 'POST', RESTRICTIONS, {
      key: org.keys.write,
      tenantId: tenant.id,
      body: policy(MAX_ENROLLMENT_RESTRICTIONS),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error?.details).toEqual({
      reason: 'RESTRICTION_LIMIT',
      limit: MAX_ENROLLMENT_RESTRICTIONS,
    });
    const { rows } = await app.pool.query<{ n: number }>(
      'select count(*)::int as n from enrollment_restrictions where tenant_id = $1',
      [tenant.id],
    );
    expect(rows).toEqual([{ n: MAX_ENROLLMENT_RESTRICTIONS }]);
  }, 120_000);
});

describe('the license summary’s lists', () => {
  it('lists the most over-allocated tenants and SKUs up to their bounds, and how many there are in all', async () => {
    // One tenant with 7 over-allocated SKUs (excess 1..7 seats).
    const crowded = await createTenant(app, org.scope, { name: 'AAA crowded' });
    for (let excess = 1; excess <= 7; excess++)
      await createSku(app, crowded, { total: 1, consumed: 1 + excess, skuPartNumber: `CROWD_${excess}` });
    // More over-allocated tenants than listed, each one seat over on a SKU of its own (distinct part numbers).
    const extra = SUMMARY_MAX_OVER_ALLOCATED_TENANTS;
    for (let i = 0; i < extra; i++) {
      const tenant = await createTenant(app, org.scope, { name: `Over ${String(i).padStart(3, '0')}` });
      await createSku(app, tenant, { total: 10 + i, consumed: 11 + i, skuPartNumber: `OVER_${i}` });
    }

    const res = await app.request<Envelope<SummaryBody>>(
      'GET',
      '/api/msp-portal/license-intelligence/summary',
      {
        key: org.keys.read,
      },
    );
    expect(res.status).toBe(200);
    const body = res.body.data;
    expect(body.overAllocatedTenantCount).toBe(extra + 1);
    expect(body.overAllocatedTenants).toHaveLength(SUMMARY_MAX_OVER_ALLOCATED_TENANTS);
    // The crowded tenant has the most excess seats (28): listed first by name, with its 5 worst SKUs.
    const [first] = body.overAllocatedTenants;
    expect(first).toMatchObject({ tenantId: crowded.id, skuCount: 7 });
    expect(first.skus).toHaveLength(SUMMARY_MAX_SKUS_PER_OVER_ALLOCATED_TENANT);
    expect(first.skus.map((sku) => sku.excessSeats)).toEqual([3, 4, 5, 6, 7]);
    // The tenant left out has the fewest excess seats: one of the one-seat ones.
    const listed = new Set(body.overAllocatedTenants.map((tenant) => tenant.tenantName));
    expect(
      [...Array(extra).keys()].filter((i) => !listed.has(`Over ${String(i).padStart(3, '0')}`)),
    ).toHaveLength(1);

    expect(body.skuCount).toBe(extra + 7);
    expect(body.skus).toHaveLength(SUMMARY_MAX_SKUS);
    const partNumbers = body.skus.map((sku) => sku.skuPartNumber);
    expect(partNumbers).toEqual([...partNumbers].sort());
    // The SKUs with the most seats are kept: the one-seat CROWD SKUs go first.
    expect(partNumbers.filter((name) => name.startsWith('CROWD_'))).toEqual([]);
  }, 120_000);
});

describe('attempts of a webhook delivery', () => {
  it(`re-sends stop before a delivery could pass ${MAX_DELIVERY_ATTEMPTS} attempts (409 ATTEMPT_LIMIT)`, async () => {
    expect(LIST_BOUNDS['WebhookDelivery.attempts']).toBe(MAX_DELIVERY_ATTEMPTS);
    const webhook = await createWebhook(app, org.keys.admin, {
      url: 'https://93.184.215.14/hook',
      events: ['*'],
    });
    await commitEvent(app, org.scope);
    const { rows } = await app.pool.query<{ id: string }>(
      'select id from webhook_deliveries where webhook_id = $1',
      [webhook.id],
    );
    const resendable = MAX_DELIVERY_ATTEMPTS - DEFAULT_WEBHOOK_SETTINGS.retryScheduleMs.length - 1;
    const resend = async (attempts: number) => {
      await app.pool.query(
        `update webhook_deliveries set status = 'Failed', attempt_count = $2 where id = $1`,
        [rows[0].id, attempts],
      );
      return app.request<Envelope<unknown>>(
        'POST',
        `/v1/webhooks/${webhook.id}/deliveries/${rows[0].id}/resend`,
        {
          key: org.keys.write,
        },
      );
    };
    expect((await resend(resendable - 1)).status).toBe(202);
    const refused = await resend(resendable);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.details).toEqual({
      reason: 'ATTEMPT_LIMIT',
      attemptCount: resendable,
      maximum: MAX_DELIVERY_ATTEMPTS,
    });
  });
});

describe('lists from the customer’s directory and alerts', () => {
  it('a user’s groups and licenses: the first ones up to their bounds, and how many in all', async () => {
    const tenant = await createTenant(app, org.scope);
    const user = await createUser(app, tenant);
    for (let i = 0; i <= USER_MAX_GROUPS_LISTED; i++)
      await createGroup(app, tenant, { displayName: `Group ${String(i).padStart(3, '0')}`, members: [user] });
    for (let i = 0; i <= USER_MAX_LICENSES_LISTED; i++)
      await giveLicense(app, tenant, user, await createSku(app, tenant, { total: 5 }));
    const res = await app.request<Envelope<DataOf<'getManagedUser'>>>(
      'GET',
      `/api/user-management-identity/users/${user.id}`,
      { key: org.keys.read, headers: { 'X-Tenant-Id': tenant.id } },
    );
    expect(res.status).toBe(200);
    const body = res.body.data;
    expect(body).toMatchObject({
      groupCount: USER_MAX_GROUPS_LISTED + 1,
      licenseCount: USER_MAX_LICENSES_LISTED + 1,
    });
    expect(body.groups).toHaveLength(USER_MAX_GROUPS_LISTED);
    expect(body.groups.at(-1)?.displayName).toBe(
      `Group ${String(USER_MAX_GROUPS_LISTED - 1).padStart(3, '0')}`,
    );
    expect(body.licenseDetails).toHaveLength(USER_MAX_LICENSES_LISTED);
  }, 120_000);

  it('a tenant’s alert categories: the most frequent up to the bound, and how many in all', async () => {
    const tenant = await createTenant(app, org.scope);
    const alerts = Array.from({ length: ALERT_MAX_CATEGORIES_LISTED + 1 }, (_, i) => ({
      severity: 'Low' as const,
      category: `Category ${String(i).padStart(2, '0')}`,
    }));
    alerts.push({ severity: 'Low', category: 'Category 25' }); // the last one, twice: the most frequent
    await seedSecurity(app, org.scope, tenant, { alerts });
    const res = await app.request<Envelope<DataOf<'securityAlertStatistics'>>>(
      'GET',
      '/api/security/alerts/statistics',
      { key: org.keys.read, headers: { 'X-Tenant-Id': tenant.id } },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.categoryCount).toBe(ALERT_MAX_CATEGORIES_LISTED + 1);
    expect(res.body.data.byCategory).toHaveLength(ALERT_MAX_CATEGORIES_LISTED);
    expect(res.body.data.byCategory[0]).toEqual({ category: 'Category 25', count: 2 });
    // The one left out: the last by name among those seen once.
    expect(res.body.data.byCategory.map((c) => c.category)).not.toContain('Category 24');
  }, 120_000);
});
