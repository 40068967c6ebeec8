import type { CloudPartner, CloudProvider, CloudProviders } from './cloud-provider.js';
import type { TenantCloud } from './tenant-cloud.js';

/**
 * The cloud as one request or job run sees it (`ctx.cloud`, built by src/context.ts for the context's
 * organization and environment): the one way features reach a customer tenant.
 */
export interface CloudAccess {
  /** The partner's provider (its delegated access, consent instructions). */
  provider(): Promise<CloudProvider>;
  /**
   * The client of one customer tenant (the tenant row's `externalId`); rejects with a CloudError Forbidden
   * (CONSENT_REQUIRED) when the tenant does not grant the organization access.
   */
  forTenant(tenantExternalId: string): Promise<TenantCloud>;
}

/**
 * Asks the provider once per tenant and remembers the client for its own lifetime (a request, or one job
 * run), so a revocation takes effect at the next request or job run. Only a success is remembered: after a
 * refusal or a failed lookup the next call asks again.
 */
export function cloudAccess(providers: CloudProviders, partner: CloudPartner): CloudAccess {
  let provider: Promise<CloudProvider> | null = null;
  const clients = new Map<string, Promise<TenantCloud>>();
  const access: CloudAccess = {
    provider() {
      if (!provider) {
        const asked = providers.forPartner(partner);
        asked.catch(() => provider === asked && (provider = null));
        provider = asked;
      }
      return provider;
    },
    forTenant(tenantExternalId) {
      let client = clients.get(tenantExternalId);
      if (!client) {
        const asked = access.provider().then((found) => found.forTenant(tenantExternalId));
        asked.catch(() => clients.get(tenantExternalId) === asked && clients.delete(tenantExternalId));
        clients.set(tenantExternalId, asked);
        client = asked;
      }
      return client;
    },
  };
  return access;
}
