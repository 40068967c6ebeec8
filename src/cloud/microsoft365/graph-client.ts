import {
  AuthenticationHandler,
  Client,
  GraphError,
  RetryHandler,
  ResponseType,
  RetryHandlerOptions,
  TelemetryHandler,
  type Context,
  type Middleware,
} from '@microsoft/microsoft-graph-client';
import type { CloudCallBucket, TakeCloudCallBudget } from '../cloud-call-budget.js';
import type { CloudError } from '../cloud-error.js';
import { cloudErrorFromGraph, retryAfterOf } from './graph-errors.js';
import { isTokenRefused, renewRefusedToken, withTokenRenewal } from './graph-token-refusal.js';
import type { AppCredentials, GraphTokenSource } from './graph-token.js';
import type { Microsoft365Settings } from './microsoft365.settings.js';

/** One page of a Graph collection, with the links Graph gave (learn.microsoft.com, "Paging Microsoft Graph data"). */
export interface GraphPage<T> {
  value: T[];
  /** The next page's URL (`@odata.nextLink`), absent on the last page. */
  nextLink?: string;
  /** On the last page of a delta query (`@odata.deltaLink`): where the next sync starts. */
  deltaLink?: string;
}

interface GraphCollection<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

export type GraphQuery = Record<string, string | number>;

export interface GraphCallOptions {
  query?: GraphQuery;
  /** Extra request headers (`ConsistencyLevel: eventual` for $count and $search). */
  headers?: Record<string, string>;
}

/** One request of a JSON `$batch` (at most 20 per batch; `batch` splits longer lists). */
export interface GraphBatchRequest {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Relative to the version: `/users/{id}`. */
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A batch item's outcome: its body, or the CloudError its status stands for. */
export type GraphBatchResult =
  | { id: string; ok: true; status: number; body: unknown }
  | { id: string; ok: false; status: number; error: ReturnType<typeof cloudErrorFromGraph> };

const BATCH_LIMIT = 20;

/**
 * The last link of the middleware chain: fetch with a deadline per try (graph-client's own HTTPMessageHandler
 * has none), so a Graph that never answers fails Transient instead of holding a request or a job forever.
 */
class TimedFetchHandler implements Middleware {
  constructor(private readonly timeoutMs: number) {}

  async execute(context: Context): Promise<void> {
    context.response = await fetch(context.request, {
      ...context.options,
      signal: AbortSignal.timeout(this.timeoutMs),
    } as RequestInit);
  }
}

/**
 * Graph's RetryHandler retries 429, 503 and 504 honouring Retry-After; a Retry-After longer than
 * `maxRetryWaitSeconds` is not slept through: the call fails Throttled/Transient with it instead.
 */
function boundedRetry(settings: Microsoft365Settings): RetryHandler {
  const shouldRetry = (
    _delay: number,
    _attempt: number,
    _request: unknown,
    _options: unknown,
    response: Response,
  ) => {
    const seconds = retryAfterOf(response.headers) ?? 0;
    return seconds <= settings.maxRetryWaitSeconds;
  };
  return new RetryHandler(
    new RetryHandlerOptions(settings.retryDelaySeconds, settings.maxRetries, shouldRetry),
  );
}

/**
 * Microsoft Graph v1.0 for one tenant, through Microsoft's graph-client: the app's token for that tenant,
 * bounded retries honouring Retry-After, paging through `@odata.nextLink`, `$batch`; every failure is a
 * CloudError (graph-errors.ts).
 */
export class GraphTenantClient {
  private readonly client: Client;

  constructor(
    readonly settings: Microsoft365Settings,
    private readonly tokens: GraphTokenSource,
    private readonly credentials: AppCredentials,
    readonly tenantId: string,
    /** The tenant's call budget (cloud-call-budget.ts); absent: unbudgeted (the partner's own tenant). */
    private readonly takeBudget?: TakeCloudCallBudget,
  ) {
    const auth = new AuthenticationHandler({
      getAccessToken: async () => (await tokens.token(credentials, tenantId)).accessToken,
    });
    const chain: Middleware[] = [
      auth,
      boundedRetry(settings),
      new TelemetryHandler(),
      new TimedFetchHandler(settings.requestTimeoutMs),
    ];
    for (let index = 0; index < chain.length - 1; index++) chain[index].setNext?.(chain[index + 1]);
    this.client = Client.initWithMiddleware({
      middleware: chain[0],
      baseUrl: `${settings.graphUrl}/`,
      defaultVersion: 'v1.0',
      customHosts: new Set([new URL(settings.graphUrl).hostname]),
    });
  }

  /**
   * The app's token in this tenant for another resource (Defender for Endpoint's API, defender-client.ts):
   * the same token cache, one token per tenant and scope.
   */
  async accessToken(scope: string): Promise<string> {
    return (await this.tokens.token(this.credentials, this.tenantId, { scope })).accessToken;
  }

  async get<T>(path: string, options: GraphCallOptions = {}): Promise<T> {
    return this.call(`GET ${path}`, () => this.request(path, options).get() as Promise<T>);
  }

  async post<T>(path: string, body: unknown, options: GraphCallOptions = {}): Promise<T> {
    return this.call(`POST ${path}`, () => this.request(path, options).post(body) as Promise<T>);
  }

  async patch<T>(path: string, body: unknown, options: GraphCallOptions = {}): Promise<T> {
    return this.call(`PATCH ${path}`, () => this.request(path, options).patch(body) as Promise<T>);
  }

  async put<T>(path: string, body: unknown, options: GraphCallOptions = {}): Promise<T> {
    return this.call(`PUT ${path}`, () => this.request(path, options).put(body) as Promise<T>);
  }

  /**
   * A POST Graph answers 202 Accepted with a `Location` to watch (a driveItem copy, learn.microsoft.com "Work
   * with long running actions"): that Location, undefined when Graph gave none.
   */
  async postAccepted(
    path: string,
    body: unknown,
    options: GraphCallOptions = {},
  ): Promise<string | undefined> {
    return this.call(`POST ${path}`, async () => {
      const response = (await this.request(path, options)
        .responseType(ResponseType.RAW)
        .post(body)) as Response;
      if (!response.ok) throw await graphErrorOfResponse(response);
      return response.headers.get('location') ?? undefined;
    });
  }

  async delete(path: string, options: GraphCallOptions = {}): Promise<void> {
    await this.call(`DELETE ${path}`, () => this.request(path, options).delete() as Promise<unknown>);
  }

  /**
   * A collection page by page, following `@odata.nextLink` as Graph gives it (a `path`, or a stored
   * nextLink/deltaLink URL to resume from). Stops at the last page, which carries the deltaLink of a delta
   * query. Lazy: a consumer that stops iterating costs no further request.
   */
  async *pages<T>(pathOrLink: string, options: GraphCallOptions = {}): AsyncGenerator<GraphPage<T>> {
    let next: string | undefined = pathOrLink;
    // The query goes with a path only: a nextLink or deltaLink already carries what Graph needs.
    let first = !/^https:\/\//i.test(pathOrLink);
    while (next !== undefined) {
      const link: string = next;
      const body = await this.get<GraphCollection<T>>(link, first ? options : { headers: options.headers });
      first = false;
      next = body['@odata.nextLink'];
      yield {
        value: body.value ?? [],
        ...(next !== undefined ? { nextLink: next } : {}),
        ...(body['@odata.deltaLink'] !== undefined ? { deltaLink: body['@odata.deltaLink'] } : {}),
      };
    }
  }

  /** Every item of a collection (for small ones: subscribedSkus, delegatedAdminCustomers of one partner). */
  async all<T>(path: string, options: GraphCallOptions = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const page of this.pages<T>(path, options)) items.push(...page.value);
    return items;
  }

  /**
   * Several calls to this tenant in JSON batches of 20 (learn.microsoft.com, "Combine multiple requests in
   * one HTTP call"); each item answers on its own, so one failure does not fail the others. Items whose token
   * Graph refused (401, as a whole batch's may be) are sent once more after a fresh token, as a call is
   * (`withTokenRenewal`): a withdrawn consent fails the batch CONSENT_REQUIRED.
   */
  async batch(requests: readonly GraphBatchRequest[]): Promise<GraphBatchResult[]> {
    const results = new Map<string, GraphBatchResult>();
    for (let start = 0; start < requests.length; start += BATCH_LIMIT) {
      let pending = requests.slice(start, start + BATCH_LIMIT).map((request) => ({
        ...request,
        ...(request.body !== undefined
          ? { headers: { 'content-type': 'application/json', ...request.headers } }
          : {}),
      }));
      await withTokenRenewal(
        () => this.renewToken(),
        async (renewed) => {
          // Graph counts each request of a batch, not the POST that carries them: so does the budget.
          for (const request of pending) await this.budget(request.method);
          const answer = await this.attempt(
            'POST /$batch',
            () =>
              this.request('/$batch', {}).post({ requests: pending }) as Promise<{
                responses?: BatchResponse[];
              }>,
          );
          const refused = new Map<string, CloudError>();
          for (const response of answer.responses ?? []) {
            const result = batchResultOf(response);
            results.set(result.id, result);
            if (!result.ok && isTokenRefused(result.error)) refused.set(result.id, result.error);
          }
          if (renewed || refused.size === 0) return;
          pending = pending.filter((request) => refused.has(request.id));
          throw [...refused.values()][0];
        },
      );
    }
    return requests.flatMap((request) => results.get(request.id) ?? []);
  }

  private request(path: string, options: GraphCallOptions) {
    let request = this.client.api(path);
    if (options.query) request = request.query(options.query);
    if (options.headers) request = request.headers(options.headers);
    return request;
  }

  /**
   * Takes one call of `bucket` from this tenant's budget (cloud-call-budget.ts): a request finding none fails
   * Throttled, a job waits. Defender's client takes `defender-machine-actions` before each machine action.
   */
  async takeCallBudget(bucket: CloudCallBucket): Promise<void> {
    await this.takeBudget?.(this.tenantId, bucket);
  }

  /** One call of the tenant's budget: every call counts in `graph`, a write in `graph-writes` too. */
  private async budget(method: string): Promise<void> {
    await this.takeCallBudget('graph');
    if (method !== 'GET') await this.takeCallBudget('graph-writes');
  }

  /**
   * Entra ID asked for a fresh token of `scope` (Graph's by default) after one was refused (401), or
   * CONSENT_REQUIRED naming the tenant (graph-token-refusal.ts); Defender's client renews its own scope here.
   */
  renewToken(scope?: string): Promise<void> {
    return renewRefusedToken(this.tokens, this.credentials, this.tenantId, scope);
  }

  /** One call, its budget taken first; a refused token is renewed once and the call sent again. */
  private call<T>(what: string, run: () => Promise<T>): Promise<T> {
    return withTokenRenewal(
      () => this.renewToken(),
      async () => {
        await this.budget(what.slice(0, what.indexOf(' ')));
        return this.attempt(what, run);
      },
    );
  }

  /** One try of a call, any failure as the CloudError it stands for. */
  private async attempt<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw cloudErrorFromGraph(error, `${what.split('?')[0]} in tenant ${this.tenantId}`);
    }
  }
}

interface BatchResponse {
  id: string;
  status: number;
  headers?: Record<string, string>;
  body?: { error?: { code?: string; message?: string } } & Record<string, unknown>;
}

function batchResultOf(response: BatchResponse): GraphBatchResult {
  if (response.status < 400)
    return { id: response.id, ok: true, status: response.status, body: response.body };
  const error = new GraphError(response.status, response.body?.error?.message ?? `status ${response.status}`);
  error.code = response.body?.error?.code ?? null;
  error.headers = new Headers(response.headers ?? {});
  return {
    id: response.id,
    ok: false,
    status: response.status,
    error: cloudErrorFromGraph(error, `batch item ${response.id}`),
  };
}

/** A failed raw answer as graph-client's GraphError (what cloudErrorFromGraph reads). */
async function graphErrorOfResponse(response: Response): Promise<GraphError> {
  const body = (await response.json().catch(() => undefined)) as BatchResponse['body'] | undefined;
  const error = new GraphError(response.status, body?.error?.message ?? `status ${response.status}`);
  error.code = body?.error?.code ?? null;
  error.headers = response.headers;
  return error;
}
