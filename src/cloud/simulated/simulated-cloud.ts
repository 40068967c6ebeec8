import type { CloudPartner, CloudProvider, CloudProviders } from '../cloud-provider.js';
import { SimulatedCloudProvider } from './simulated-cloud.provider.js';
import { SimulatedPartnerCloud } from './simulated-partner.js';

/**
 * The simulated cloud as the application uses it (`AppDeps.clouds`): every partner sees it through
 * `forPartner` (simulated-partner.ts: consent, then a tenant's client, simulated-tenant-cloud.ts), and
 * the operator's CLI, the demo seed and tests also use its own tenant-first API (simulated-cloud.provider.ts).
 */
export class SimulatedCloud extends SimulatedCloudProvider implements CloudProviders {
  forPartner(partner: CloudPartner): Promise<CloudProvider> {
    return Promise.resolve(new SimulatedPartnerCloud(this, partner));
  }
}
