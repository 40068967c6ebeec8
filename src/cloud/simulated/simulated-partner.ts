import { CloudError } from '../cloud-error.js';
import type { CloudDelegatedAccessRecord, CloudDelegatedCustomerPage } from '../consent.provider.js';
import type { CloudPartner, CloudProvider } from '../cloud-provider.js';
import type { TenantCloud } from '../tenant-cloud.js';
import type { SimulatedCloudProvider } from './simulated-cloud.provider.js';
import { simulatedTenantCloud } from './simulated-tenant-cloud.js';

/**
 * The simulated cloud as one partner organization sees it: a customer tenant's client only with that
 * tenant's grant to the organization (consent.simulated.ts), as a real delegated-admin client.
 */
export class SimulatedPartnerCloud implements CloudProvider {
  readonly name = 'simulated';

  constructor(
    private readonly cloud: SimulatedCloudProvider,
    private readonly partner: CloudPartner,
  ) {}

  getDelegatedAccess(tenantExternalId: string): Promise<CloudDelegatedAccessRecord | null> {
    return this.cloud.consent.getDelegatedAccess(tenantExternalId, this.partner.organizationId);
  }

  listDelegatedCustomers(request: {
    limit: number;
    cursor?: string | null;
  }): Promise<CloudDelegatedCustomerPage> {
    return this.cloud.consent.listDelegatedCustomers({
      ...request,
      partnerOrganizationId: this.partner.organizationId,
    });
  }

  consentInstructions(tenantExternalId: string): string {
    return (
      "Ask the customer's administrator to accept your organization's delegated admin relationship in the " +
      `cloud's admin center; with the simulated cloud, the operator grants it: ` +
      `npm run -s cli -- tenants grant ${tenantExternalId} --org <your organization slug>`
    );
  }

  async forTenant(tenantExternalId: string): Promise<TenantCloud> {
    if (!(await this.getDelegatedAccess(tenantExternalId))) {
      throw new CloudError(
        'Forbidden',
        `The customer tenant ${tenantExternalId} does not grant your organization delegated access, so the ` +
          `cloud refused the call and nothing was changed. ${this.consentInstructions(tenantExternalId)}`,
        { provider: this.name, reason: 'CONSENT_REQUIRED', tenantExternalId },
      );
    }
    return simulatedTenantCloud(this.cloud, tenantExternalId);
  }
}
