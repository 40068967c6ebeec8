import type { Environment } from '../core/scope.js';
import type { CloudDelegatedAccessRecord, CloudDelegatedCustomerPage } from './consent.provider.js';
import type { TenantCloud } from './tenant-cloud.js';

/**
 * The one door to the upstream productivity cloud (DECISIONS "The upstream cloud"), in three layers:
 *
 * - `CloudProviders` (process-wide, `AppDeps.clouds`) picks the provider of a partner: an organization in
 *   one environment (sandbox: the simulated cloud; live: the organization's connection);
 * - `CloudProvider` is the cloud as that partner sees it: what is not about one customer tenant (its
 *   delegated access, how a customer grants it) and `forTenant`;
 * - `TenantCloud` (tenant-cloud.ts), from `forTenant`, is bound to one customer tenant the partner may
 *   administer, with one client per area; obtaining it is the consent check, so no call can skip it.
 *
 * Features reach it through their context only: `ctx.cloud.forTenant(tenant.externalId)` (cloud-access.ts).
 * Records (provider.ts) are provider-shaped (the cloud's ids), never our entities; every failure is a
 * CloudError (cloud-error.ts).
 */

/** Who asks the cloud: a partner organization, in one of its environments. */
export interface CloudPartner {
  readonly organizationId: string;
  readonly environment: Environment;
}

/** The cloud as one partner sees it. */
export interface CloudProvider {
  /** Which implementation this is ('simulated', 'microsoft365'), for errors and logs. */
  readonly name: string;
  /**
   * The customer tenant's active relationship with this partner; null when none was granted, it was
   * revoked, or the tenant does not exist — a partner cannot tell these apart, as in the real cloud.
   */
  getDelegatedAccess(tenantExternalId: string): Promise<CloudDelegatedAccessRecord | null>;
  /**
   * The customers that grant this partner access, in a stable order, a page at a time: what it may onboard
   * (Microsoft 365: `GET /tenantRelationships/delegatedAdminCustomers`). `cursor` is the cloud's own.
   */
  listDelegatedCustomers(request: {
    limit: number;
    cursor?: string | null;
  }): Promise<CloudDelegatedCustomerPage>;
  /** What the partner does to obtain a customer's consent (a sentence, shown in a CONSENT_REQUIRED error). */
  consentInstructions(tenantExternalId: string): string;
  /**
   * The URL a customer's administrator opens to consent (Microsoft 365: the app's admin-consent URL for that
   * tenant); absent where consent is not given through a URL (the simulated cloud: the operator's CLI).
   */
  consentUrl?(tenantExternalId: string): string;
  /**
   * The client of one customer tenant. Rejects with a CloudError Forbidden (reason CONSENT_REQUIRED, the
   * tenant's id in `tenantExternalId`) when the tenant does not grant this partner access: the one place
   * consent is checked, before anything reaches the tenant.
   */
  forTenant(tenantExternalId: string): Promise<TenantCloud>;
}

/** Picks the provider of each partner (process-wide; `AppDeps.clouds`). */
export interface CloudProviders {
  forPartner(partner: CloudPartner): Promise<CloudProvider>;
}
