import { createHash } from 'node:crypto';
import type { ConfidentialClientApplication } from '@azure/msal-node';
import { CloudError } from '../cloud-error.js';
import { cloudErrorFromToken, MICROSOFT365 } from './graph-errors.js';
import { GRAPH_DEFAULT_SCOPE, type Microsoft365Settings } from './microsoft365.settings.js';

/** The partner's multi-tenant app registration (client credentials). */
export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

export interface GraphToken {
  accessToken: string;
  expiresOn: Date;
  /** The application permissions the token carries (its `roles` claim), sorted. */
  roles: string[];
}

/**
 * The claims of an access token, read without checking its signature: only to tell the operator which
 * application permissions Entra ID granted (Graph checks the token, we never trust it for anything).
 */
export function rolesOfAccessToken(accessToken: string): string[] {
  const payload = accessToken.split('.')[1];
  if (!payload) return [];
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { roles?: unknown };
    return Array.isArray(claims.roles)
      ? claims.roles.filter((role): role is string => typeof role === 'string').sort()
      : [];
  } catch {
    return [];
  }
}

/**
 * MSAL's view of one authority, given up front so MSAL neither asks Microsoft's instance discovery
 * (login.microsoftonline.com/common/discovery/instance) nor reads the authority's OpenID configuration: the
 * only request it makes is the token request, to MICROSOFT_LOGIN_URL (the real one, a sovereign cloud, or
 * the test fake).
 */
function authorityMetadata(loginUrl: string, tenantId: string): string {
  const authority = `${loginUrl}/${tenantId}`;
  return JSON.stringify({
    token_endpoint: `${authority}/oauth2/v2.0/token`,
    authorization_endpoint: `${authority}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${authority}/oauth2/v2.0/logout`,
    jwks_uri: `${loginUrl}/${tenantId}/discovery/v2.0/keys`,
    issuer: `${loginUrl}/${tenantId}/v2.0`,
  });
}

interface TenantClient {
  secretHash: string;
  app: ConfidentialClientApplication;
  /** The last token MSAL gave for each scope (`token`'s fast path). */
  tokens: Map<string, GraphToken>;
}

/** MSAL's default `tokenRenewalOffsetSeconds`: a cached token is renewed five minutes before it expires. */
const RENEW_BEFORE_MS = 300_000;

/**
 * Client-credentials tokens for Graph in any tenant (the partner's own, or a customer's that consented to
 * the app), through Microsoft's MSAL. One MSAL application per app and tenant keeps that tenant's token in
 * its cache and renews it five minutes before it expires (MSAL's default), so each tenant costs one token
 * request an hour, not one per call.
 */
/**
 * MSAL, loaded on the first token request: a server whose organizations have no Microsoft 365 connection
 * never needs it, and it is the largest module of the provider (about 16 MiB of resident memory, issue #31).
 */
let msal: Promise<typeof import('@azure/msal-node')> | null = null;
const loadMsal = () => (msal ??= import('@azure/msal-node'));

export class GraphTokenSource {
  private readonly clients = new Map<string, TenantClient>();

  constructor(private readonly settings: Pick<Microsoft365Settings, 'loginUrl' | 'requestTimeoutMs'>) {}

  /**
   * `fresh`: ask Entra ID even when a valid token is cached (a consent check that must see a withdrawal).
   * `scope`: the resource's `.default` (Graph by default; Defender for Endpoint's API for machine actions):
   * MSAL caches one token per tenant and scope.
   */
  async token(
    credentials: AppCredentials,
    tenantId: string,
    options: { fresh?: boolean; scope?: string } = {},
  ): Promise<GraphToken> {
    const scope = options.scope ?? GRAPH_DEFAULT_SCOPE;
    // Every Graph call asks for its token. MSAL's cache would give the same token until five minutes before it
    // expires, but each lookup goes through MSAL's authority, cache-key and logger machinery (some 3% of a live
    // sync's CPU, more than the call's TLS): the token MSAL gave last is reused here by the same rule.
    const cached = options.fresh ? undefined : this.cachedToken(credentials, tenantId, scope);
    if (cached) return cached;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CloudError(
              'Transient',
              `Entra ID did not answer a token request for tenant ${tenantId} in time`,
              {
                provider: MICROSOFT365,
              },
            ),
          ),
        this.settings.requestTimeoutMs,
      );
    });
    try {
      const client = await this.clientFor(credentials, tenantId);
      const result = await Promise.race([
        client.app.acquireTokenByClientCredential({
          scopes: [scope],
          ...(options.fresh ? { skipCache: true } : {}),
        }),
        timeout,
      ]);
      if (!result?.accessToken) throw new CloudError('Transient', 'Entra ID answered without a token');
      const token = {
        accessToken: result.accessToken,
        expiresOn: result.expiresOn ?? new Date(Date.now() + 3_600_000),
        roles: rolesOfAccessToken(result.accessToken),
      };
      client.tokens.set(scope, token);
      return token;
    } catch (error) {
      throw cloudErrorFromToken(error, tenantId);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Forgets the cached tokens of an app (its connection was deleted or its secret changed). */
  forget(clientId: string): void {
    for (const key of [...this.clients.keys()]) if (key.startsWith(`${clientId}|`)) this.clients.delete(key);
  }

  /** The token MSAL gave last for this app, secret, tenant and scope, while MSAL would still give it from its cache. */
  private cachedToken(credentials: AppCredentials, tenantId: string, scope: string): GraphToken | undefined {
    const known = this.clients.get(clientKey(credentials, tenantId));
    if (known?.secretHash !== secretHashOf(credentials)) return undefined;
    const token = known.tokens.get(scope);
    return token && token.expiresOn.getTime() - RENEW_BEFORE_MS > Date.now() ? token : undefined;
  }

  private async clientFor(credentials: AppCredentials, tenantId: string): Promise<TenantClient> {
    const key = clientKey(credentials, tenantId);
    const secretHash = secretHashOf(credentials);
    const known = this.clients.get(key);
    if (known?.secretHash === secretHash) return known;
    const { loginUrl } = this.settings;
    const { ConfidentialClientApplication, LogLevel } = await loadMsal();
    const app = new ConfidentialClientApplication({
      auth: {
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        authority: `${loginUrl}/${tenantId}`,
        knownAuthorities: [new URL(loginUrl).host],
        authorityMetadata: authorityMetadata(loginUrl, tenantId),
      },
      system: {
        loggerOptions: {
          logLevel: LogLevel.Error,
          piiLoggingEnabled: false,
          loggerCallback: () => undefined,
        },
      },
    });
    const client = { secretHash, app, tokens: new Map<string, GraphToken>() };
    this.clients.set(key, client);
    return client;
  }
}

const clientKey = (credentials: AppCredentials, tenantId: string) =>
  `${credentials.clientId}|${tenantId.toLowerCase()}`;

const secretHashOf = (credentials: AppCredentials) =>
  createHash('sha256').update(credentials.clientSecret).digest('base64url');
