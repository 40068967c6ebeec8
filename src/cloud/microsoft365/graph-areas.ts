import type { CloudError } from '../cloud-error.js';
import type { CloudBackupProvider } from '../backup.provider.js';
import type { CloudConnectorSourceProvider } from '../connector-source.provider.js';
import type { CloudDeviceManagementProvider } from '../device-management.provider.js';
import type { CloudSecurityProvider } from '../security.provider.js';
import type { SecurityPostureProvider } from '../security-posture.provider.js';
import type { CloudContacts, CloudExchange, TenantCloud } from '../tenant-cloud.js';
import { unsupportedError } from './graph-capabilities.js';
import type { GraphTenantClient } from './graph-client.js';
import { graphLicenses } from './graph-licenses.js';
import { graphUserManagement } from './graph-user-management.js';

/** The areas of a Microsoft 365 tenant's client besides its directory (microsoft365 provider composes them). */
export type GraphTenantAreas = Omit<TenantCloud, 'tenantExternalId' | 'directory'>;

/**
 * A call that fails with `error` however it is used: awaited (a Promise-returning method) or iterated (a
 * method returning pages, CloudPages). Its rejection is marked handled, since a caller that iterates never
 * awaits it.
 */
function failingCall(error: CloudError): Promise<never> & AsyncIterable<never> {
  const rejected = Promise.reject(error);
  rejected.catch(() => undefined);
  return Object.assign(rejected, {
    [Symbol.asyncIterator]: async function* (): AsyncGenerator<never> {
      throw error;
    },
  });
}

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
      return () => failingCall(unsupportedError(named));
    },
  });
}

/**
 * Every area of one customer tenant except the directory, on Microsoft Graph v1.0: licenses
 * (graph-licenses.ts) and user management (graph-user-management.ts, partly) through Graph; the areas Graph
 * v1.0 has no API for, and those issue #30 brings (security, devices, enrollment, backup, controls), answer
 * Unsupported, never a pretended success.
 */
export function graphTenantAreas(graph: GraphTenantClient): GraphTenantAreas {
  return {
    licenses: graphLicenses(graph),
    userManagement: graphUserManagement(graph),
    contacts: unsupportedArea<CloudContacts>('mailContacts'),
    exchange: unsupportedArea<CloudExchange>('restrictedSenders'),
    security: unsupportedArea<CloudSecurityProvider>('securityAlerts', {
      listDevices: 'devices',
      startDeviceAction: 'devices',
      getDeviceAction: 'devices',
      listDlpPolicies: 'endpointDlp',
      listDlpAlerts: 'endpointDlp',
    }),
    deviceManagement: unsupportedArea<CloudDeviceManagementProvider>('deviceEnrollment'),
    backup: unsupportedArea<CloudBackupProvider>('backup'),
    connectorSources: unsupportedArea<CloudConnectorSourceProvider>('complianceConnectorSources'),
    securityPosture: unsupportedArea<SecurityPostureProvider>('securityControls', {
      applyInformationBarriers: 'informationBarriers',
    }),
  };
}
