import { HTTP_STATUS_BY_CODE, type ErrorCode } from '../../src/core/errors.js';
import { Permission } from '../../src/core/permissions.js';
import { SCOPE_DESCRIPTIONS } from '../../src/core/scope-descriptions.js';
import type { JsonSchema } from './json-schema.js';

/** The parts every operation shares: envelopes, error responses, headers and security schemes (SPEC 2.1, 5, 7, 8). */

export const API_KEY_SCHEME = 'ApiKey';
export const OAUTH_SCHEME = 'OAuth2';

const ERROR_TEXT: Record<ErrorCode, string> = {
  INVALID_REQUEST:
    'The request is invalid: `error.details.fields` lists each problem as {field, problem} (nothing was written)',
  UNAUTHORIZED: 'No valid API key or access token (Authorization: Bearer <token>)',
  FORBIDDEN: 'The credential lacks the permission (API key level or OAuth scope) this operation needs',
  NOT_FOUND: 'No such record in your organization (records of other organizations are not found either)',
  CONFLICT:
    'The record is not in a state that allows this; state machines answer `details {from, to, allowed}`',
  RATE_LIMITED: 'Too many requests: wait `Retry-After` seconds',
  PRECONDITION_FAILED: 'The If-Match version is not the current one: read the record again, then retry',
  INTERNAL_ERROR: 'An internal error occurred (the request id in X-Request-Id finds it in the logs)',
  NOT_SUPPORTED:
    'The connected cloud has no API for this capability (live environment): `details.capability` and `details.provider` name it',
  SERVICE_UNAVAILABLE:
    'The database or an upstream service (the cloud, a connector’s source) cannot be reached: retry after `Retry-After` seconds',
};

/** SPEC 2.1 list metadata (PageMeta); a route's page metaFields add to it (success-schema.ts). */
export const PAGE_META_REQUIRED = ['page', 'limit', 'total'];
export const PAGE_META_PROPERTIES: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 100 },
  total: { type: 'integer', minimum: 0 },
  totalEstimated: { const: true },
};

/** The response of a request Node's HTTP parser refused (src/http/input/client-error.ts), listed as 408 and 431. */
export const PARSER_REFUSAL = 'RequestNotRead';
export const PARSER_REFUSAL_STATUSES = ['408', '431'];

/** The component name of each code's response (components.responses). */
export const errorResponseName = (code: ErrorCode): string =>
  code
    .toLowerCase()
    .split('_')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': 'Requests allowed in the current window (SPEC 8.1; the plan of the organization)',
  'X-RateLimit-Remaining': 'Requests left in the current window',
  'X-RateLimit-Reset':
    'When the current window resets, as a Unix time in seconds (e.g. 1795761720); not a number of seconds to wait',
};

/** Headers of every API answer (success or error), as references into components.headers. */
export function responseHeaders(withRetryAfter: boolean, rateLimited: boolean): Record<string, JsonSchema> {
  const headers: Record<string, JsonSchema> = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
  };
  if (rateLimited)
    for (const name of Object.keys(RATE_LIMIT_HEADERS))
      headers[name] = { $ref: `#/components/headers/${name}` };
  if (withRetryAfter) headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
  return headers;
}

/**
 * Codes answered before the route's own work, so without rate-limit headers: a database outage (503) and an
 * internal error can happen before the rate limiter has counted the request.
 */
const WITHOUT_RATE_LIMIT_HEADERS: ReadonlySet<ErrorCode> = new Set(['INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']);

function errorResponse(code: ErrorCode): JsonSchema {
  const details: JsonSchema =
    code === 'INVALID_REQUEST' ? { $ref: '#/components/schemas/InvalidRequestDetails' } : { type: 'object' };
  return {
    description: `${HTTP_STATUS_BY_CODE[code]} ${code}: ${ERROR_TEXT[code]}`,
    headers: responseHeaders(
      code === 'RATE_LIMITED' || code === 'SERVICE_UNAVAILABLE',
      !WITHOUT_RATE_LIMIT_HEADERS.has(code),
    ),
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['success', 'error'],
          additionalProperties: false,
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message', 'details'],
              additionalProperties: false,
              properties: { code: { const: code }, message: { type: 'string' }, details },
            },
          },
        },
      },
    },
  };
}

export function sharedComponents(publicUrl: string) {
  const codes = Object.keys(HTTP_STATUS_BY_CODE) as ErrorCode[];
  const headers: Record<string, JsonSchema> = {
    'X-Request-Id': {
      description:
        'The request id (yours from X-Request-Id, or a new one): quote it when asking about a request',
      schema: { type: 'string' },
      required: true,
    },
    'Retry-After': {
      description: 'Seconds to wait before retrying',
      schema: { type: 'integer' },
      required: true,
    },
  };
  for (const [name, description] of Object.entries(RATE_LIMIT_HEADERS))
    headers[name] = { description, schema: { type: 'integer', minimum: 0 }, required: true };
  return {
    schemas: {
      PageMeta: {
        type: 'object',
        description: 'SPEC 2.1 list metadata; `totalEstimated: true` only when `total` is an estimate',
        required: PAGE_META_REQUIRED,
        additionalProperties: false,
        properties: PAGE_META_PROPERTIES,
      },
      InvalidRequestDetails: {
        type: 'object',
        properties: {
          fields: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'problem'],
              properties: { field: { type: 'string' }, problem: { type: 'string' } },
            },
          },
          problemCount: {
            type: 'integer',
            description: 'How many problems there were when more were found than listed',
          },
        },
      },
      ErrorCode: { type: 'string', enum: codes },
    },
    responses: {
      ...Object.fromEntries(codes.map((code) => [errorResponseName(code), errorResponse(code)])),
      [PARSER_REFUSAL]: {
        ...errorResponse('INVALID_REQUEST'),
        description:
          'The HTTP parser refused the request before any route saw it (431: headers over 16 KiB; 408: sent too slowly), so without the rate-limit and request id headers',
        headers: undefined,
      },
    },
    headers,
    securitySchemes: {
      [API_KEY_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'svc_sk_live_… or svc_sk_test_…',
        description:
          'An API key of your organization (SPEC 5.1): Read views, Write creates and updates, Admin may do everything, deletions included. Each operation names the level it needs.',
      },
      [OAUTH_SCHEME]: {
        type: 'oauth2',
        description:
          'An access token from the authorization code flow (SPEC 5.2); each operation names its scope.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${publicUrl}/oauth/authorize`,
            tokenUrl: `${publicUrl}/oauth/token`,
            refreshUrl: `${publicUrl}/oauth/token`,
            scopes: SCOPE_DESCRIPTIONS as Record<Permission, string>,
          },
        },
      },
    },
  };
}
