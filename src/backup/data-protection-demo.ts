import { ConnectorService } from '../compliance/connector.service.js';
import { ConnectorCategory } from '../compliance/connector.enums.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { refreshTenantSnapshots } from './backup-catalog.js';

/** Demo connectors, one per demo tenant in turn (fixed values: no random draw moves other demo data). */
const DEMO_CONNECTORS = [
  {
    name: 'Slack workspace archive',
    category: ConnectorCategory.COMMUNICATION,
    sourceType: 'Slack',
    credentials: { workspaceUrl: 'https://demo.slack.com', apiToken: 'demo-slack-token' },
  },
  {
    name: 'Workday HR feed',
    category: ConnectorCategory.HR,
    sourceType: 'Workday',
    credentials: { tenantUrl: 'https://wd.example.com/demo', clientId: 'demo', clientSecret: 'demo-secret' },
  },
  {
    name: 'Bloomberg chat',
    category: ConnectorCategory.FINANCIAL,
    sourceType: 'Bloomberg Message',
    credentials: { firmId: '4711', sftpUser: 'demo', sftpPassword: 'demo-password' },
  },
];

/** The demo sandbox's data protection: each tenant's snapshot catalog and a compliance connector. */
export async function seedDataProtectionDemo(ctx: ServiceContext, tenants: Tenant[]): Promise<void> {
  for (const [index, tenant] of tenants.entries()) {
    await refreshTenantSnapshots(ctx, tenant);
    await new ConnectorService(ctx).create(tenant.id, DEMO_CONNECTORS[index % DEMO_CONNECTORS.length]);
  }
}
