declare module '../../core/service-context.js' {
  interface AppDeps {
    /**
     * Where and how Microsoft 365 is reached (MICROSOFT_LOGIN_URL, MICROSOFT_GRAPH_URL, MICROSOFT_DEFENDER_URL);
     * absent: the defaults.
     */
    microsoft365?: Partial<Microsoft365Settings>;
  }
}

/**
 * How the Microsoft 365 transport reaches Entra ID and Graph. The URLs come from the configuration
 * (src/config.ts: MICROSOFT_LOGIN_URL, MICROSOFT_GRAPH_URL, MICROSOFT_DEFENDER_URL; HTTPS only); tests point them at the HTTPS Graph
 * fake (test/graph-fake) and shorten the waits.
 */
export interface Microsoft365Settings {
  /** Entra ID's origin: tokens at `{loginUrl}/{tenantId}/oauth2/v2.0/token`. */
  loginUrl: string;
  /** Graph's origin: calls to `{graphUrl}/v1.0/...`. */
  graphUrl: string;
  /** Defender for Endpoint's API origin (MICROSOFT_DEFENDER_URL): machines and machine actions, `{defenderUrl}/api/...`. */
  defenderUrl: string;
  /** One Graph call (each try) without a complete answer after this long has failed (Transient). */
  requestTimeoutMs: number;
  /** Tries after the first for a 429/503/504 (graph-client's RetryHandler). */
  maxRetries: number;
  /**
   * The longest wait between two tries, in seconds. A Retry-After longer than this is not waited for inside
   * the call: the call fails Throttled with the cloud's Retry-After, for a request to answer 503 and a job to
   * come back later.
   */
  maxRetryWaitSeconds: number;
  /** Wait before a retry when Graph gave no Retry-After (grows exponentially), in seconds. */
  retryDelaySeconds: number;
}

export const DEFAULT_MICROSOFT_LOGIN_URL = 'https://login.microsoftonline.com';
export const DEFAULT_MICROSOFT_GRAPH_URL = 'https://graph.microsoft.com';
export const DEFAULT_MICROSOFT_DEFENDER_URL = 'https://api.security.microsoft.com';
/** Defender for Endpoint's application permissions (the WindowsDefenderATP app: Machine.Isolate, Machine.Scan…). */
export const DEFENDER_DEFAULT_SCOPE = 'https://api.securitycenter.microsoft.com/.default';
/** The app's application permissions on Graph, as granted by admin consent (client credentials). */
export const GRAPH_DEFAULT_SCOPE = 'https://graph.microsoft.com/.default';

export const DEFAULT_MICROSOFT365_SETTINGS: Microsoft365Settings = {
  loginUrl: DEFAULT_MICROSOFT_LOGIN_URL,
  graphUrl: DEFAULT_MICROSOFT_GRAPH_URL,
  defenderUrl: DEFAULT_MICROSOFT_DEFENDER_URL,
  requestTimeoutMs: 30_000,
  maxRetries: 3,
  maxRetryWaitSeconds: 30,
  retryDelaySeconds: 3,
};

export function microsoft365SettingsOf(deps: {
  microsoft365?: Partial<Microsoft365Settings>;
}): Microsoft365Settings {
  return { ...DEFAULT_MICROSOFT365_SETTINGS, ...deps.microsoft365 };
}

/**
 * An origin for Entra ID or Graph: https only (tokens and customer data never travel in clear; a private CA
 * is trusted through NODE_EXTRA_CA_CERTS), no path, query or credentials. Trailing slashes are dropped.
 */
export function parseMicrosoftOrigin(name: string, raw: string | undefined, fallback: string): string {
  const value = raw?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an https:// URL such as ${fallback}, got "${value}"`);
  }
  if (url.protocol !== 'https:')
    throw new Error(
      `${name} must use https:// (tokens and tenant data never travel unencrypted), got "${value}". ` +
        'For a server with a private certificate authority, trust it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem',
    );
  if (url.username || url.password || url.search || url.hash || url.pathname.replace(/\/+$/, '') !== '')
    throw new Error(`${name} must be an origin only (https://host[:port]), got "${value}"`);
  return url.origin;
}
