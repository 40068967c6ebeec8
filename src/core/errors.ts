import { CloudError } from '../cloud/cloud-error.js';
import { isDatabaseUnavailable } from './database-outage.js';

/**
 * The one family of errors the service throws for anything a client should see.
 * GraphQL puts `code` in `extensions.code`; the REST adapter maps it to the HTTP status below,
 * so the two surfaces cannot disagree.
 */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'INVALID_REQUEST'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'SERVICE_UNAVAILABLE'
  | 'NOT_SUPPORTED';

export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  INVALID_REQUEST: 400,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  SERVICE_UNAVAILABLE: 503,
  NOT_SUPPORTED: 501,
};

export interface FieldProblem {
  field: string;
  problem: string;
}

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  get httpStatus(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }

  /** graphql-js copies these onto the GraphQL error it builds around this one. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, details: this.details };
  }
}

/**
 * Error bodies stay small whatever the input: the first problems are listed (with how many there were in
 * all), and long texts are cut. A 10,000-item list of bad values answers in a few KiB, not megabytes.
 */
export const MAX_REPORTED_PROBLEMS = 20;
const MAX_MESSAGE_LENGTH = 1000;
const MAX_FIELD_LENGTH = 200;
const MAX_PROBLEM_LENGTH = 500;

/** Cuts `text` to `max` characters (never inside a surrogate pair), marking the cut. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

export class InvalidRequestError extends AppError {
  constructor(message: string, fields: FieldProblem[] = [], extra: ErrorDetails = {}) {
    // Extra keys of a problem (a CSV import's `line`) are kept; only the texts are capped.
    const reported = fields.slice(0, MAX_REPORTED_PROBLEMS).map((problem) => ({
      ...problem,
      field: shortened(problem.field, MAX_FIELD_LENGTH),
      problem: shortened(problem.problem, MAX_PROBLEM_LENGTH),
    }));
    const counted = fields.length > MAX_REPORTED_PROBLEMS ? { problemCount: fields.length } : {};
    super(
      'INVALID_REQUEST',
      shortened(message, MAX_MESSAGE_LENGTH),
      fields.length > 0 ? { fields: reported, ...counted, ...extra } : extra,
    );
  }

  static field(field: string, problem: string): InvalidRequestError {
    return new InvalidRequestError(`Invalid value for "${field}": ${problem}`, [{ field, problem }]);
  }
}

/** 400 for every problem found at once: "Invalid <what>: field problem; field problem", each field in details. */
export function invalid(problems: FieldProblem[], what = 'request'): InvalidRequestError {
  return new InvalidRequestError(
    `Invalid ${what}: ${problems.map((p) => `${p.field} ${p.problem}`).join('; ')}`,
    problems,
  );
}

export class NotFoundError extends AppError {
  constructor(resource: string, id?: string) {
    super('NOT_FOUND', id ? `${resource} ${id} was not found` : `${resource} was not found`, {
      resource,
      ...(id ? { id } : {}),
    });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('CONFLICT', message, details);
  }
}

/** An If-Match (expected version) that is no longer the record's: someone changed it meanwhile (412). */
export class PreconditionFailedError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('PRECONDITION_FAILED', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'A valid API key or access token is required (Authorization: Bearer <token>)') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('FORBIDDEN', message, details);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super('RATE_LIMITED', `Rate limit exceeded; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
  }
}

export class InternalError extends AppError {
  constructor() {
    super('INTERNAL_ERROR', 'An internal error occurred');
  }
}

/**
 * The database or an upstream service (the cloud, a connector's source) cannot be reached: an outage, not
 * the client's mistake, so 503 with Retry-After (DECISIONS; docs/reliability.md). `details` say which
 * upstream, when it is one.
 */
export class ServiceUnavailableError extends AppError {
  constructor(
    retryAfterSeconds = 5,
    message = 'The service is temporarily unavailable; retry shortly',
    details: ErrorDetails = {},
  ) {
    super('SERVICE_UNAVAILABLE', message, { ...details, retryAfterSeconds });
  }
}

/**
 * The connected cloud has no API for what was asked (live environment; DECISIONS "The upstream cloud"):
 * 501, naming the capability and the provider, so a client learns it will not work by retrying.
 */
export class NotSupportedError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('NOT_SUPPORTED', message, details);
  }
}

/** When the cloud throttles or fails without saying when to come back. */
export const CLOUD_RETRY_AFTER_SECONDS = 30;

/**
 * The one mapping of a cloud failure that reached a request, so a feature maps only what is special to it
 * (and catches nothing it would map the same way):
 * - throttled or failing → 503 SERVICE_UNAVAILABLE with the cloud's Retry-After;
 * - a tenant that did not consent → 403 FORBIDDEN (`details.reason`, `details.externalId`);
 * - NotFound (the object is not, or no longer, in the cloud) → 404 NOT_FOUND with the cloud's message;
 * - Refused (the cloud understood and said no, by a rule of its own) → 409 CONFLICT with its message, which
 *   is written to be shown (`details.reason` CLOUD_REFUSED); the cloud's own code is for logs, never sent;
 * - Unsupported (the connected cloud has no API for it) → 501 NOT_SUPPORTED naming the capability and provider.
 * The 503, 404 and 409 say `details.upstream: 'cloud'`. Null for the rest (a permission the app lacks in the cloud):
 * left unhandled it stays an internal error, logged, since the client cannot fix it.
 */
const externalIdOf = (error: CloudError) =>
  error.tenantExternalId ? { externalId: error.tenantExternalId } : {};

export function appErrorOfCloud(error: CloudError): AppError | null {
  const about = { upstream: 'cloud', ...externalIdOf(error) };
  switch (error.kind) {
    case 'Throttled':
    case 'Transient':
      return new ServiceUnavailableError(
        error.retryAfterSeconds ?? CLOUD_RETRY_AFTER_SECONDS,
        `The upstream cloud is ${error.kind === 'Throttled' ? 'throttling requests' : 'unavailable'}; nothing changed, retry later`,
        about,
      );
    case 'Forbidden':
      // Not the caller's credential: the cloud refused the app's (a permission the app registration lacks,
      // a secret no longer valid). Only an Admin of the organization can fix it, in the cloud connection.
      return error.reason === 'CONSENT_REQUIRED'
        ? new ForbiddenError(error.message, { reason: error.reason, ...externalIdOf(error) })
        : new ForbiddenError(
            `${error.message}. The cloud refused the app's credentials; an Admin of the organization can ` +
              'check the connection (GET /api/settings/cloud-connection lists missing permissions)',
            { ...about, reason: 'CLOUD_PERMISSION_MISSING' },
          );
    case 'NotFound':
      return new AppError('NOT_FOUND', error.message, about);
    case 'Refused':
      return new ConflictError(error.message, { ...about, reason: 'CLOUD_REFUSED' });
    case 'Unsupported':
      return new NotSupportedError(error.message, {
        capability: error.capability ?? null,
        provider: error.provider ?? null,
      });
  }
}

/** Anything that is not an AppError becomes a bland INTERNAL_ERROR: internals never leak. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof CloudError) {
    const mapped = appErrorOfCloud(error);
    if (mapped) return mapped;
  }
  if (error && typeof error === 'object' && 'originalError' in error) {
    const original = (error as { originalError?: unknown }).originalError;
    if (original) return toAppError(original);
  }
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError();
  return new InternalError();
}
