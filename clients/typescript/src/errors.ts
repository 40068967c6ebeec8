import type { components } from './schema.js';

export type ErrorCode = components['schemas']['ErrorCode'];

export interface FieldProblem {
  field: string;
  problem: string;
}

/** The failure envelope of SPEC 2.1. */
export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

/** An answer that is not a success: the HTTP status, the API's error code and details, and the request id. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'UNEXPECTED_RESPONSE',
    message: string,
    readonly details: Record<string, unknown>,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** INVALID_REQUEST: each field and its problem. */
  get fields(): FieldProblem[] {
    return Array.isArray(this.details.fields) ? (this.details.fields as FieldProblem[]) : [];
  }

  static from(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id');
    if (isErrorEnvelope(body)) {
      const { code, message, details } = body.error;
      return new ApiError(response.status, code, message, details ?? {}, requestId);
    }
    return new ApiError(
      response.status,
      'UNEXPECTED_RESPONSE',
      `HTTP ${response.status} without the error envelope`,
      {},
      requestId,
    );
  }
}

/** What every openapi-fetch call returns. */
export interface CallResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The success envelope of a call, or the ApiError it answered (thrown). */
export function unwrap<Data>(result: CallResult<Data>): Data {
  if (result.response.ok && result.data !== undefined) return result.data;
  throw ApiError.from(result.response, result.error ?? result.data);
}
