import type { CloudConnectorSourceProvider } from '../connector-source.provider.js';
import type { CloudContacts, CloudExchange, TenantCloud } from '../tenant-cloud.js';
import type { GraphTenantClient } from './graph-client.js';
import { graphBackup } from './graph-backup.js';
import { graphDeviceManagement } from './graph-enrollment.js';
import { graphLicenses } from './graph-licenses.js';
import { graphSecurity } from './graph-security.js';
import { graphSecurityPosture } from './graph-security-posture.js';
import { graphUserManagement } from './graph-user-management.js';
import { unsupportedCall } from './graph-unsupported.js';

/** The areas of a Microsoft 365 tenant's client besides its directory (microsoft365 provider composes them). */
export type GraphTenantAreas = Omit<TenantCloud, 'tenantExternalId' | 'directory'>;

/**
 * An area the provider has no API for: every method fails with CloudError Unsupported naming the capability
 * (501 NOT_SUPPORTED in a request; a sync step records it as not available), with the reason the capability
 * table gives (MICROSOFT365_CAPABILITIES, graph-capabilities.ts, which the connection's GET lists).
 * `byMethod` names another capability for some methods (the security area holds alerts, devices and DLP).
 */
export function unsupportedArea<T extends object>(
  capability: string,
  byMethod: Partial<Record<keyof T & string, string>> = {},
): T {
  const methods: Partial<Record<string, string>> = byMethod;
  return new Proxy({} as T, {
    get(_target, property) {
      if (typeof property !== 'string' || property === 'then') return undefined;
      const named = methods[property] ?? capability;
      return () => unsupportedCall(named);
    },
  });
}

/**
 * Every area of one customer tenant except the directory, on Microsoft Graph v1.0: licenses
 * (graph-licenses.ts), user management (graph-user-management.ts), alerts (graph-security.ts) and Secure Score
 * (graph-security-posture.ts), devices (Intune with Defender for Endpoint), Microsoft 365 Backup (graph-backup.ts)
 * and enrollment restrictions (graph-enrollment.ts), each partly; what Graph v1.0 has no API for answers
 * Unsupported naming the capability (graph-capabilities.ts), never a pretended success.
 */
export function graphTenantAreas(graph: GraphTenantClient): GraphTenantAreas {
  return {
    licenses: graphLicenses(graph),
    userManagement: graphUserManagement(graph),
    contacts: unsupportedArea<CloudContacts>('mailContacts'),
    exchange: unsupportedArea<CloudExchange>('restrictedSenders'),
    security: graphSecurity(graph),
    deviceManagement: graphDeviceManagement(graph),
    backup: graphBackup(graph),
    connectorSources: unsupportedArea<CloudConnectorSourceProvider>('complianceConnectorSources'),
    securityPosture: graphSecurityPosture(graph),
  };
}
