import { setTimeout as sleep } from 'node:timers/promises';
import { CloudError, isCloudError } from '../cloud-error.js';
import type { CloudCallBucket } from '../cloud-call-budget.js';
import type { GraphTenantClient } from './graph-client.js';
import { MICROSOFT365, retryAfterOf, TokenRefusedError } from './graph-errors.js';
import { withTokenRenewal } from './graph-token-refusal.js';
import { DEFENDER_DEFAULT_SCOPE, type Microsoft365Settings } from './microsoft365.settings.js';

/** When Defender is failing and says nothing about when to come back (as for Graph, graph-errors.ts). */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** Defender's error body (learn.microsoft.com, "Common Microsoft Defender for Endpoint API errors"). */
interface DefenderErrorBody {
  error?: { code?: string; message?: string; target?: string };
}

interface DefenderCollection<T> {
  value?: T[];
  '@odata.nextLink'?: string;
}

/**
 * The codes Defender answers a machine action with while another of the same kind runs on the machine
 * (400 "Action is already in progress"): a clear conflict, not a failure of ours.
 */
const ACTION_IN_PROGRESS = /ActiveRequestAlreadyExists|already in progress/i;

/**
 * A failed Defender call as a CloudError, the same mapping as Graph's (graph-errors.ts): 404 NotFound, 401/403
 * Forbidden (401: the token refused, which a fresh token may cure; 403: a permission such as Machine.Isolate
 * is missing), 429 Throttled and 5xx Transient with the Retry-After, other 4xx Refused with Defender's
 * message (an action already in progress says so).
 */
export function cloudErrorFromDefender(
  status: number,
  body: DefenderErrorBody | undefined,
  headers: Headers | undefined,
  what: string,
): CloudError {
  const code = body?.error?.code;
  const message = (body?.error?.message ?? '').trim().slice(0, 500);
  const options = { provider: MICROSOFT365, cloudCode: code };
  const retryAfterSeconds = retryAfterOf(headers) ?? DEFAULT_RETRY_AFTER_SECONDS;
  if (status === 404)
    return new CloudError('NotFound', `${what}: not found in Defender for Endpoint`, options);
  if (status === 401)
    return new TokenRefusedError(`Defender for Endpoint refused the app's token (${what})`, options);
  if (status === 403)
    return new CloudError('Forbidden', `Defender for Endpoint refused ${what}: ${message || code}`, {
      ...options,
      reason: 'PERMISSION_MISSING',
    });
  if (status === 429)
    return new CloudError('Throttled', `Defender for Endpoint is throttling this tenant (${what})`, {
      ...options,
      retryAfterSeconds,
    });
  if (status >= 500 || status === 408)
    return new CloudError('Transient', `Defender for Endpoint failed (${status}) for ${what}`, {
      ...options,
      retryAfterSeconds,
    });
  if (ACTION_IN_PROGRESS.test(`${code ?? ''} ${message}`))
    return new CloudError(
      'Refused',
      `Defender for Endpoint already has this action in progress on the machine (${message || code})`,
      options,
    );
  return new CloudError('Refused', message || code || `Defender for Endpoint answered ${status}`, options);
}

const RETRIED = new Set([429, 503, 504]);

/** Entra ID's "resource principal not found in the tenant" for Defender's scope. */
const DEFENDER_MISSING = 'AADSTS500011';

/** Whether an error says the tenant has no Defender for Endpoint (its API unknown to the tenant's Entra ID). */
export function isDefenderMissing(error: unknown): boolean {
  return isCloudError(error) && error.cloudCode === DEFENDER_MISSING;
}

/**
 * Microsoft Defender for Endpoint's API (`{MICROSOFT_DEFENDER_URL}/api/...`) for one tenant: the app's token
 * for Defender's scope from the same MSAL cache as Graph's (one token per tenant and scope), bounded retries of
 * 429/503/504 honouring Retry-After as Graph's client does (a longer Retry-After fails the call Throttled for a
 * request to answer 503 and a job to come back), a deadline per try, paging through `@odata.nextLink`.
 */
export class DefenderTenantClient {
  private readonly settings: Microsoft365Settings;

  constructor(private readonly graph: GraphTenantClient) {
    this.settings = graph.settings;
  }

  get tenantId(): string {
    return this.graph.tenantId;
  }

  get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    return this.call<T>('GET', this.url(path, query));
  }

  /** One call of `bucket` from the tenant's call budget (its Graph client's, src/cloud/cloud-call-budget.ts). */
  takeCallBudget(bucket: CloudCallBucket): Promise<void> {
    return this.graph.takeCallBudget(bucket);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', `${this.settings.defenderUrl}${path}`, body);
  }

  /** A collection page by page (Defender pages with `@odata.nextLink`, up to 10,000 items a page). */
  async *pages<T>(path: string, query: Record<string, string> = {}): AsyncGenerator<T[]> {
    let next: string | undefined = this.url(path, query);
    while (next !== undefined) {
      const body: DefenderCollection<T> = await this.call<DefenderCollection<T>>('GET', next);
      next = body['@odata.nextLink'];
      yield body.value ?? [];
    }
  }

  /**
   * The app's token for Defender's scope. A tenant where Defender for Endpoint was never set up has no service
   * principal for its API, and Entra ID refuses the token with AADSTS500011: said so, in Defender's words.
   */
  private async token(): Promise<string> {
    try {
      return await this.graph.accessToken(DEFENDER_DEFAULT_SCOPE);
    } catch (error) {
      if (!isDefenderMissing(error)) throw error;
      throw new CloudError(
        'Refused',
        `Defender for Endpoint is not set up in tenant ${this.tenantId} (Entra ID knows no Defender for ` +
          'Endpoint API there: no licence, or never opened in the Microsoft Defender portal)',
        { provider: MICROSOFT365, cloudCode: DEFENDER_MISSING, cause: error },
      );
    }
  }

  /** OData's query, percent-encoded (`%20`, not form encoding's `+`, which OData does not read as a space). */
  private url(path: string, query: Record<string, string>): string {
    const search = Object.entries(query)
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&');
    return `${this.settings.defenderUrl}${path}${search ? `?${search}` : ''}`;
  }

  /**
   * A call with its bounded retries; a token Defender refuses (401: nothing was done) is renewed once and the
   * call made again, as Graph's client does (graph-token-refusal.ts): a withdrawn consent is CONSENT_REQUIRED.
   */
  private call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    return withTokenRenewal(
      () => this.graph.renewToken(DEFENDER_DEFAULT_SCOPE),
      () => this.tries<T>(method, url, body),
    );
  }

  private async tries<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const what = `${method} ${new URL(url).pathname} in tenant ${this.tenantId}`;
    const { maxRetries, maxRetryWaitSeconds, retryDelaySeconds, requestTimeoutMs } = this.settings;
    for (let attempt = 0; ; attempt++) {
      const token = await this.token();
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(attempt > 0 ? { 'retry-attempt': String(attempt) } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
        // The deadline covers the body too: a Defender that stops mid-answer fails Transient as well.
        text = await response.text();
      } catch (error) {
        throw new CloudError('Transient', `Defender for Endpoint could not be reached (${what})`, {
          provider: MICROSOFT365,
          retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
          cause: error,
        });
      }
      const parsed = jsonOf(text);
      if (response.ok) return parsed as T;
      const retryAfter = retryAfterOf(response.headers);
      const wait = retryAfter ?? retryDelaySeconds * 2 ** attempt;
      // A POST is retried here only after a 429 (Defender did not take it): after a 5xx it may have been done,
      // and only the caller's look-before-write (defender-machine-actions.ts) can tell.
      const retried = method === 'GET' ? RETRIED.has(response.status) : response.status === 429;
      if (retried && attempt < maxRetries && wait <= maxRetryWaitSeconds) {
        await sleep(wait * 1000);
        continue;
      }
      throw cloudErrorFromDefender(response.status, parsed as DefenderErrorBody, response.headers, what);
    }
  }
}

/** A body as JSON; undefined when empty or not JSON (a proxy's HTML error page). */
function jsonOf(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

const clients = new WeakMap<GraphTenantClient, DefenderTenantClient>();

/** Defender's client of the tenant a Graph client is for (one per Graph client). */
export function defenderClientOf(graph: GraphTenantClient): DefenderTenantClient {
  let client = clients.get(graph);
  if (!client) {
    client = new DefenderTenantClient(graph);
    clients.set(graph, client);
  }
  return client;
}
