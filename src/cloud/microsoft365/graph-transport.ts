import type { TakeCloudCallBudget } from '../cloud-call-budget.js';
import { GraphTenantClient } from './graph-client.js';
import { GraphTokenSource, type AppCredentials, type GraphToken } from './graph-token.js';
import { microsoft365SettingsOf, type Microsoft365Settings } from './microsoft365.settings.js';

/**
 * The entry to Microsoft 365 for one app registration: a token for any tenant, and a Graph client per tenant
 * (`forTenant`). Tokens are cached per tenant by the shared GraphTokenSource, so clients are cheap to make.
 */
export class GraphTransport {
  constructor(
    readonly settings: Microsoft365Settings,
    private readonly tokens: GraphTokenSource = new GraphTokenSource(settings),
  ) {}

  token(
    credentials: AppCredentials,
    tenantId: string,
    options: { fresh?: boolean; scope?: string } = {},
  ): Promise<GraphToken> {
    return this.tokens.token(credentials, tenantId, options);
  }

  /** `takeBudget`: the customer tenant's call budget (cloud-call-budget.ts), taken before every call. */
  forTenant(
    credentials: AppCredentials,
    tenantId: string,
    takeBudget?: TakeCloudCallBudget,
  ): GraphTenantClient {
    return new GraphTenantClient(this.settings, this.tokens, credentials, tenantId, takeBudget);
  }

  /** Drops the cached tokens of an app (after its connection was removed or its secret replaced). */
  forget(clientId: string): void {
    this.tokens.forget(clientId);
  }
}

const DEFAULTS_KEY = {};
const transports = new WeakMap<object, GraphTransport>();

/**
 * The process's transport for its Microsoft 365 settings (AppDeps.microsoft365): one per settings object, so
 * every request and job of a process shares one token cache.
 */
export function graphTransportOf(deps: { microsoft365?: Partial<Microsoft365Settings> }): GraphTransport {
  const key = deps.microsoft365 ?? DEFAULTS_KEY;
  let transport = transports.get(key);
  if (!transport) {
    transport = new GraphTransport(microsoft365SettingsOf(deps));
    transports.set(key, transport);
  }
  return transport;
}
