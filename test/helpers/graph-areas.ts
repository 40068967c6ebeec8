import type { AppCredentials } from '../../src/cloud/microsoft365/graph-token.js';
import type { Microsoft365Settings } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { CloudProvider } from '../../src/cloud/cloud-provider.js';
import { graphTenantAreas } from '../../src/cloud/microsoft365/graph-areas.js';
import { GraphTransport } from '../../src/cloud/microsoft365/graph-transport.js';
import { microsoft365SettingsOf } from '../../src/cloud/microsoft365/microsoft365.settings.js';
import type { TestApp } from './test-app.js';

/**
 * Makes one sandbox tenant of `app` take its areas besides the directory (licenses, user management, and the
 * Unsupported ones) from Microsoft Graph on the fake, in the fake tenant `upstreamTenantId`; its directory stays
 * simulated. For tests of the services over the Microsoft 365 areas next to the sandbox, in one server:
 * requests and jobs of the app (they share `app.deps.clouds`) see it from now on.
 *
 * A server-side operation (server-side.ts): a file calls it with `onServer(app, 'useGraphAreas', …)` on a server
 * of its own (realm-suite.ts), which runs it with the app's own clouds; the file then evaluates neither the
 * app's modules nor the Graph client's.
 */
export function useGraphAreas(
  app: TestApp,
  tenantExternalId: string,
  upstreamTenantId: string,
  microsoft365: Partial<Microsoft365Settings>,
  credentials: AppCredentials,
): void {
  const transport = new GraphTransport(microsoft365SettingsOf({ microsoft365 }));
  const graph = transport.forTenant(credentials, upstreamTenantId);
  const clouds = app.deps.clouds;
  const forPartner = clouds.forPartner.bind(clouds);
  clouds.forPartner = async (partner) => {
    const provider = await forPartner(partner);
    const withGraph: CloudProvider = {
      name: provider.name,
      getDelegatedAccess: (id) => provider.getDelegatedAccess(id),
      listDelegatedCustomers: (request) => provider.listDelegatedCustomers(request),
      consentInstructions: (id) => provider.consentInstructions(id),
      forTenant: async (id) => {
        const tenantCloud = await provider.forTenant(id);
        return id === tenantExternalId ? { ...tenantCloud, ...graphTenantAreas(graph) } : tenantCloud;
      },
    };
    return withGraph;
  };
}
