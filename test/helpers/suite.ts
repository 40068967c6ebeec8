import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/organizations.js';
import { createTenant } from '../factories/tenants.js';
import { TestApp, type TestAppOptions } from './test-app.js';

/** Fields of `createTenant` (name, domain, extraDomains, ...). */
export type TenantFields = NonNullable<Parameters<typeof createTenant>[2]>;

export interface SuiteOptions<
  Other extends boolean = boolean,
  WithTenant extends boolean | TenantFields = boolean,
> extends TestAppOptions {
  /** Fields of the organization under test (plan Scale unless said). */
  organization?: Parameters<typeof createOrganizationWithKeys>[1];
  /** A second organization, for isolation checks. */
  other?: Other;
  /** A tenant of the organization under test (sandbox scope), with these fields if an object. */
  tenant?: WithTenant;
}

/** What `startSuite` made: `other` and `tenant` only when asked for. */
export type Suite<Other extends boolean = false, WithTenant extends boolean | TenantFields = false> = {
  app: TestApp;
  /** The organization under test: keys of every level, sandbox and live scopes. */
  org: OrganizationWithKeys;
} & ([Other] extends [true] ? { other: OrganizationWithKeys } : unknown) &
  ([WithTenant] extends [true | TenantFields] ? { tenant: Tenant } : unknown);

/**
 * The set-up most suites share: a server on a fresh database (`TestApp.start` with the TestAppOptions given),
 * an organization with keys of every level and, when asked, a second organization and a tenant of the first.
 * The suite stops the app:
 *
 *   beforeAll(async () => ({ app, org, other, tenant } = await startSuite({ other: true, tenant: true })));
 *   afterAll(() => app.stop());
 */
export async function startSuite<
  Other extends boolean = false,
  WithTenant extends boolean | TenantFields = false,
>(options: SuiteOptions<Other, WithTenant> = {}): Promise<Suite<Other, WithTenant>> {
  const { organization, other: withOther, tenant: withTenant, ...appOptions } = options;
  const app = await TestApp.start(appOptions);
  try {
    const [org, other] = await Promise.all([
      createOrganizationWithKeys(app, organization),
      withOther ? createOrganizationWithKeys(app) : undefined,
    ]);
    const tenant = withTenant
      ? await createTenant(app, org.scope, withTenant === true ? {} : withTenant)
      : undefined;
    return { app, org, other, tenant } as Suite<Other, WithTenant>;
  } catch (error) {
    await app.stop(); // the suite never got `app`, so its afterAll cannot stop it
    throw error;
  }
}
