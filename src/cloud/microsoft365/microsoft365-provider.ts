import { InvalidRequestError } from '../../core/errors.js';
import type { TakeCloudCallBudget } from '../cloud-call-budget.js';
import { CloudError } from '../cloud-error.js';
import type { CloudPartner, CloudProvider } from '../cloud-provider.js';
import type { CloudDelegatedAccessRecord, CloudDelegatedCustomerPage } from '../consent.provider.js';
import type { TenantCloud } from '../tenant-cloud.js';
import { graphTenantAreas } from './graph-areas.js';
import { adminConsentUrl, checkCustomerConsent } from './graph-consent.js';
import { customerConsentPermissions } from './graph-consent-permissions.js';
import { delegatedAdminCustomersPage } from './graph-directory.js';
import { MICROSOFT365 } from './graph-errors.js';
import type { AppCredentials } from './graph-token.js';
import type { GraphTransport } from './graph-transport.js';
import { graphDirectory } from './graph-users.js';

/** A partner's saved connection, its secret unsealed (src/cloud-connection). */
export interface Microsoft365Connection extends AppCredentials {
  partnerTenantId: string;
}

/**
 * Microsoft 365 as one partner sees it, through its multi-tenant app (docs/microsoft365.md): its customers
 * from `delegatedAdminCustomers` in the partner tenant, and a customer tenant's client only once the app can
 * get a token there (the customer's admin consent is the proof: Entra ID refuses the token otherwise).
 */
export class Microsoft365CloudProvider implements CloudProvider {
  readonly name = MICROSOFT365;

  constructor(
    private readonly transport: GraphTransport,
    private readonly connection: Microsoft365Connection,
    private readonly partner: CloudPartner,
    private readonly now: () => Date,
    /**
     * The per-tenant call budgets of this app, shared by every instance (cloud-call-budget.ts): the Graph
     * client takes from them before each call; Defender's client takes `defender-machine-actions`.
     */
    readonly takeCloudCallBudget?: TakeCloudCallBudget,
  ) {}

  /**
   * The app's access to the customer: granted when a token for that tenant is issued; null when Entra ID
   * says the customer never consented (or removed the app). Other failures (throttling, a bad secret) are
   * thrown: they say nothing about the customer. A fresh token, not a cached one: onboarding and every sync
   * ask this, and a consent withdrawn since the last token must show (the sync then suspends the tenant).
   * With it, what the consent grants and lacks (graph-consent-permissions.ts).
   */
  async getDelegatedAccess(tenantExternalId: string): Promise<CloudDelegatedAccessRecord | null> {
    const consent = await checkCustomerConsent(this.transport, this.connection, tenantExternalId, {
      fresh: true,
    });
    if (!consent.consented) return null;
    const permissions = await customerConsentPermissions(
      this.transport,
      this.connection,
      tenantExternalId,
      consent.roles,
    );
    return {
      tenantExternalId,
      partnerOrganizationId: this.partner.organizationId,
      // Graph does not say when the consent was given: the time it was checked.
      grantedAt: this.now().toISOString(),
      ...(permissions ? { permissions } : {}),
    };
  }

  async listDelegatedCustomers(request: {
    limit: number;
    cursor?: string | null;
  }): Promise<CloudDelegatedCustomerPage> {
    const partner = this.transport.forTenant(this.connection, this.connection.partnerTenantId);
    let page;
    try {
      page = await delegatedAdminCustomersPage(
        partner,
        this.transport.settings.graphUrl,
        request.cursor,
        request.limit,
      );
    } catch (error) {
      // The cursor came from a client: one that is not a page of these customers is its mistake.
      if (error instanceof RangeError)
        throw new InvalidRequestError('Invalid cursor', [{ field: 'after', problem: error.message }]);
      throw error;
    }
    return {
      items: page.items.map((customer) => ({
        tenantExternalId: customer.tenantId,
        displayName: customer.displayName,
      })),
      nextCursor: page.nextCursor,
    };
  }

  /** The admin-consent URL of this app for one customer tenant. */
  consentUrl(tenantExternalId: string): string {
    return adminConsentUrl(this.transport.settings.loginUrl, tenantExternalId, this.connection.clientId);
  }

  consentInstructions(tenantExternalId: string): string {
    return (
      "Send the customer's Global Administrator (or a GDAP admin allowed to consent) the admin-consent URL " +
      `of your app: ${this.consentUrl(tenantExternalId)}`
    );
  }

  async forTenant(tenantExternalId: string): Promise<TenantCloud> {
    // The cached token is proof enough here (one token request an hour per tenant, not one per request).
    const consent = await checkCustomerConsent(this.transport, this.connection, tenantExternalId);
    if (!consent.consented)
      throw new CloudError(
        'Forbidden',
        `The customer tenant ${tenantExternalId} has not consented to your app, so Microsoft 365 refused a ` +
          `token and nothing was read or changed. ${this.consentInstructions(tenantExternalId)}`,
        { provider: this.name, reason: 'CONSENT_REQUIRED', tenantExternalId },
      );
    const graph = this.transport.forTenant(this.connection, tenantExternalId, this.takeCloudCallBudget);
    return {
      tenantExternalId,
      directory: graphDirectory(graph, this.transport.settings.graphUrl, this.now),
      ...graphTenantAreas(graph),
    };
  }
}
