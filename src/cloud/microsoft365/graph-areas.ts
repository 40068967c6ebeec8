import { CloudError } from '../cloud-error.js';
import type { TenantCloud } from '../tenant-cloud.js';
import type { GraphTenantClient } from './graph-client.js';
import { graphSecurity } from './graph-security.js';
import { graphSecurityPosture } from './graph-security-posture.js';

/** The areas of a Microsoft 365 tenant's client besides its directory (microsoft365 provider composes them). */
export type GraphTenantAreas = Omit<TenantCloud, 'tenantExternalId' | 'directory'>;

const PROVIDER = 'microsoft365';

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
 * (501 NOT_SUPPORTED in a request; a sync step records it as not available). The capability names are those
 * of MICROSOFT365_CAPABILITIES (graph-capabilities.ts), which the connection's GET lists with the reason.
 */
export function unsupportedArea<T extends object>(capability: string, reason: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (typeof property !== 'string' || property === 'then') return undefined;
      return () =>
        failingCall(
          new CloudError('Unsupported', `${reason} (capability "${capability}", provider ${PROVIDER})`, {
            provider: PROVIDER,
            capability,
          }),
        );
    },
  });
}

/**
 * Every area of one customer tenant except the directory, on Microsoft Graph v1.0. Areas with a Graph API
 * are implemented in their own files (graph-licenses.ts, graph-user-management.ts…); the others answer
 * Unsupported until they are (security and devices: issue #30), never a pretended success.
 */
export function graphTenantAreas(graph: GraphTenantClient): GraphTenantAreas {
  const notYet = (area: string) => `The Microsoft 365 provider does not manage ${area} yet`;
  const noApi = (area: string) => `Microsoft Graph v1.0 has no API for ${area}`;
  return {
    licenses: unsupportedArea('licenses', notYet('licenses')),
    userManagement: unsupportedArea('passwordReset', notYet('passwords, mailboxes and group removal')),
    contacts: unsupportedArea('mailContacts', noApi('Exchange Online mail contacts')),
    exchange: unsupportedArea('restrictedSenders', noApi('Exchange Online restricted senders')),
    security: graphSecurity(graph),
    deviceManagement: unsupportedArea('deviceEnrollment', notYet('device enrollment')),
    backup: unsupportedArea('backup', notYet('backup')),
    connectorSources: unsupportedArea(
      'complianceConnectorSources',
      noApi('the sources of compliance data connectors'),
    ),
    securityPosture: graphSecurityPosture(graph),
  };
}
