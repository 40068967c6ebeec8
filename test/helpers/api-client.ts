import type { ObservedResponse } from './openapi-validator.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Sent as is (not JSON-encoded). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/**
 * The tests' HTTP client of a running server: TestApp (a server of the test file's own) and SharedApp (the jest
 * worker's shared server, test/helpers/shared-suite.ts) both are one. Runs in the test file's own realm, so the
 * bodies it returns are the file's own objects and arrays (`toStrictEqual`, `expect.any(Array)` hold).
 */
export class ApiClient {
  /**
   * @param checkAnswer the OpenAPI check of every answer: the shared server passes its own (compiled once per
   * worker, not per file); else this file's openapi-validator.ts, loaded on the first request.
   */
  constructor(
    readonly baseUrl: string,
    private checkAnswer?: (observed: ObservedResponse) => void,
  ) {}

  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers.authorization = `Bearer ${options.key}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (e.g. the Apollo landing page): keep the text
    }
    // Every REST answer must be one the OpenAPI document describes (test/helpers/openapi-validator.ts).
    this.checkAnswer ??= (await import('./openapi-validator.js')).assertMatchesOpenApi;
    this.checkAnswer({
      method,
      url: response.url,
      status: response.status,
      headers: response.headers,
      body: parsed,
    });
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  /** POST /graphql; returns the whole response (data and errors). */
  async graphql<T = Record<string, unknown>>(
    key: string | undefined,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<
    ApiResponse<{
      data?: T;
      errors?: Array<{ message: string; extensions: { code: string; details?: Record<string, unknown> } }>;
    }>
  > {
    return this.request('POST', '/graphql', { key, body: { query, variables } });
  }
}
