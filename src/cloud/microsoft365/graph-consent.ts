import { CloudError } from '../cloud-error.js';
import type { GraphTransport } from './graph-transport.js';
import type { AppCredentials } from './graph-token.js';
import { GRAPH_DEFAULT_SCOPE } from './microsoft365.settings.js';

/**
 * The admin-consent URL a customer's administrator opens to consent to the app in their tenant
 * (learn.microsoft.com, "Grant tenant-wide admin consent", v2.0 `adminconsent` endpoint): `.default` grants
 * every application permission configured on the app. `redirectUri` must be registered on the app when given.
 */
export function adminConsentUrl(
  loginUrl: string,
  customerTenantId: string,
  clientId: string,
  redirectUri?: string,
): string {
  const query = new URLSearchParams({ client_id: clientId, scope: GRAPH_DEFAULT_SCOPE });
  if (redirectUri) query.set('redirect_uri', redirectUri);
  return `${loginUrl}/${encodeURIComponent(customerTenantId)}/v2.0/adminconsent?${query.toString()}`;
}

/** What onboarding a customer tenant needs to know before anything is stored. */
export type CustomerConsent =
  { consented: true; roles: string[] } | { consented: false; error: CloudError; adminConsentUrl: string };

/**
 * Whether the app can act in a customer tenant: a token for it is the proof (Entra ID refuses one with
 * AADSTS65001/700016 where no administrator consented). Other failures (throttling, outage, wrong secret)
 * are thrown as they are: they say nothing about the customer's consent.
 */
export async function checkCustomerConsent(
  transport: GraphTransport,
  credentials: AppCredentials,
  customerTenantId: string,
  options: { fresh?: boolean } = {},
): Promise<CustomerConsent> {
  try {
    const { roles } = await transport.token(credentials, customerTenantId, options);
    return { consented: true, roles };
  } catch (error) {
    if (error instanceof CloudError && error.reason === 'CONSENT_REQUIRED')
      return {
        consented: false,
        error,
        adminConsentUrl: adminConsentUrl(transport.settings.loginUrl, customerTenantId, credentials.clientId),
      };
    throw error;
  }
}
