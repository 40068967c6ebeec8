import createClient, { type Client } from 'openapi-fetch';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export {
  ApiError,
  unwrap,
  type CallResult,
  type ErrorCode,
  type ErrorEnvelope,
  type FieldProblem,
} from './errors.js';
export { paginate, type Page, type PageMeta } from './pagination.js';
export { retryAfterSeconds, type RetryOptions } from './retry.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.js';

export interface MspClientOptions extends RetryOptions {
  /** Origin of the API, e.g. http://127.0.0.1:4000 (paths in the document start with /v1 or /api). */
  baseUrl: string;
  /** An API key (svc_sk_...) or an OAuth access token. */
  token: string;
  /** The fetch to use (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

export type MspClient = Client<paths>;

/**
 * A client typed from the OpenAPI document: `client.GET('/v1/tenants/{id}/users', {params: {path: {id}}})` checks
 * paths, parameters and bodies at compile time and types `data` (the success envelope) and `error` (the error
 * envelope). A 429 is retried after Retry-After seconds (up to `maxRetries`).
 */
export function createMspClient(options: MspClientOptions): MspClient {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: retryingFetch(base, options),
  });
}
