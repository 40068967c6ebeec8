import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Every REST answer a test receives through TestApp.request is checked against the checked-in OpenAPI document
 * (schema/openapi.json, itself checked against the code by test/openapi/openapi-document.test.ts): the status must
 * be one the operation lists, the body must match that status's schema, the required headers must be there. A lie
 * of the document (or of the server) fails the test that met it, naming the request and the ajv error.
 *
 * Loaded and compiled once per test file with a server of its own (jest gives each file its own module registry),
 * once per jest worker for the files on the shared server (shared-server.ts); each response schema is compiled
 * the first time an answer needs it.
 */

type Json = { [key: string]: unknown };

interface Operation {
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, Json>;
  /** Query parameters with bounds (`limit`, `page`): what the answer must agree with. */
  bounded: Map<string, { minimum?: number; maximum?: number; default?: number }>;
}

const DOCUMENT_ID = 'openapi.json';
let state: { document: Json; operations: Map<string, Operation[]>; ajv: Ajv2020 } | null = null;
const validators = new Map<string, ValidateFunction>();

function load() {
  if (state) return state;
  const document = JSON.parse(readFileSync(path.resolve('schema', 'openapi.json'), 'utf8')) as Json;
  const operations = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    for (const [method, operation] of Object.entries(item)) {
      const list = operations.get(method.toUpperCase()) ?? [];
      list.push({
        template,
        pattern: new RegExp(`^${source}$`),
        params: (template.match(/\{/g) ?? []).length,
        responses: operation.responses as Record<string, Json>,
        bounded: boundedQueryParameters(operation),
      });
      operations.set(method.toUpperCase(), list);
    }
  }
  // Static segments win over parameters (`/alerts/statistics` before `/alerts/{id}`), as in the router.
  for (const list of operations.values()) list.sort((a, b) => a.params - b.params);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Not checked against the JSON Schema meta-schema as a whole: it is an OpenAPI document, which
  // test/openapi/openapi-document.test.ts validates as such; each response schema is still checked when compiled.
  // (The meta-schema pass over the 1 MB document was half of this helper's cost in every test file.)
  ajv.addSchema(document, DOCUMENT_ID, undefined, false);
  state = { document, operations, ajv };
  return state;
}

function boundedQueryParameters(operation: Json): Operation['bounded'] {
  const bounded: Operation['bounded'] = new Map();
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const schema = parameter.schema as Json | undefined;
    if (parameter.in !== 'query' || schema?.type !== 'integer') continue;
    if (schema.minimum === undefined && schema.maximum === undefined) continue;
    bounded.set(parameter.name as string, {
      minimum: schema.minimum as number | undefined,
      maximum: schema.maximum as number | undefined,
      default: schema.default as number | undefined,
    });
  }
  return bounded;
}

/**
 * What the document says of the request's bounded query parameters must be what the server does: a value
 * outside the bounds is refused (400), an answer to one inside is not a 400 about it, and a list's `meta.limit`
 * is the `limit` asked for, or the documented default.
 */
function checkParameterBounds(
  operation: Operation,
  observed: ObservedResponse,
  fail: (problem: string) => never,
) {
  const query = new URL(observed.url).searchParams;
  for (const [name, bounds] of operation.bounded) {
    // A parameter given more than once is not one integer: its refusal says so, the bounds do not apply.
    if (query.getAll(name).length > 1) continue;
    const raw = query.get(name);
    const value = raw === null ? null : Number(raw);
    const outside =
      value !== null &&
      Number.isInteger(value) &&
      ((bounds.minimum !== undefined && value < bounds.minimum) ||
        (bounds.maximum !== undefined && value > bounds.maximum));
    if (outside && observed.status !== 400)
      fail(`: ${name}=${raw} is outside the documented bounds, yet not refused`);
    if (observed.status === 400 && value !== null && !outside && Number.isInteger(value)) {
      const fields = ((observed.body as Json).error as Json | undefined)?.details as Json | undefined;
      const named = ((fields?.fields ?? []) as Json[]).some((field) => field.field === name);
      if (named) fail(`: ${name}=${raw} is inside the documented bounds, yet refused`);
    }
    if (name === 'limit' && observed.status === 200) {
      const meta = (observed.body as Json).meta as Json | undefined;
      const expected = value ?? bounds.default;
      if (meta && typeof meta.limit === 'number' && Number.isInteger(expected) && meta.limit !== expected)
        fail(
          `: meta.limit is ${meta.limit}, but the request asked for (or the document defaults to) ${expected}`,
        );
    }
  }
}

/** The rate-limit headers mean what the document says: a window end as a Unix time, no more left than allowed. */
function checkRateLimitHeaders(headers: Headers, fail: (problem: string) => never) {
  const reset = headers.get('x-ratelimit-reset');
  if (reset !== null) {
    const now = Date.now() / 1000;
    if (!(Number(reset) >= now - 5 && Number(reset) <= now + 3_600))
      fail(
        `has X-RateLimit-Reset ${reset}, which is not a Unix time within the next hour (now ${Math.round(now)})`,
      );
  }
  const limit = headers.get('x-ratelimit-limit');
  const remaining = headers.get('x-ratelimit-remaining');
  if (limit !== null && remaining !== null && Number(remaining) > Number(limit))
    fail(`has X-RateLimit-Remaining ${remaining} above X-RateLimit-Limit ${limit}`);
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** A `$ref` to components.responses → the response object, and the JSON pointer of its body schema. */
function resolveResponse(response: Json, fallback: string): { response: Json; schemaPointer: string } {
  const ref = response.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop()!;
    const components = (state!.document.components as Json).responses as Record<string, Json>;
    return {
      response: components[name],
      schemaPointer: `#/${pointer('components', 'responses', name, 'content', 'application/json', 'schema')}`,
    };
  }
  return { response, schemaPointer: fallback };
}

function validatorFor(schemaPointer: string): ValidateFunction {
  let validate = validators.get(schemaPointer);
  if (!validate) {
    validate = state!.ajv.compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
    validators.set(schemaPointer, validate);
  }
  return validate;
}

/** Any error envelope: what a path outside the document answers (an unknown route, a method it lacks). */
const ANY_ERROR = `#/${pointer('components', 'responses', 'NotFound', 'content', 'application/json', 'schema')}`;

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/** Throws (failing the test) when the answer is not one the document describes. */
export function assertMatchesOpenApi(observed: ObservedResponse): void {
  const method = observed.method.toUpperCase();
  const pathname = new URL(observed.url).pathname;
  if (method === 'HEAD' || method === 'OPTIONS') return;
  if (!/^\/(v1|api)(\/|$)/.test(pathname)) return; // GraphQL, OAuth, health, docs: not REST
  const { operations } = load();
  const documented = pathname.replace(/^\/v1\/api\//, '/api/'); // the feature routes' second mount
  const operation = (operations.get(method) ?? []).find((candidate) => candidate.pattern.test(documented));
  const where = `${method} ${pathname} → ${observed.status}`;
  const fail = (problem: string): never => {
    const body = JSON.stringify(observed.body);
    throw new Error(
      `OpenAPI: ${where} ${problem}\n  (document: ${operation ? `${method} ${operation.template}` : 'no operation'})\n  body: ${body.length > 600 ? body.slice(0, 600) + '…' : body}`,
    );
  };
  const contentType = observed.headers.get('content-type') ?? '';
  if (!operation) {
    // Not a documented operation: only an error may answer. The signed export link is a file download outside
    // the API (src/backup/restore-download.ts), whatever its content type.
    if (!contentType.startsWith('application/json')) return;
    if (/^\/api\/backup\/restore\/[^/]+\/download$/.test(pathname) && observed.status === 200) return;
    const validate = validatorFor(ANY_ERROR.replace('NotFound', errorComponent(observed.status)));
    if (!validate(observed.body))
      fail(`does not match an error envelope: ${state!.ajv.errorsText(validate.errors)}`);
    return;
  }
  checkRateLimitHeaders(observed.headers, fail);
  checkParameterBounds(operation, observed, fail);
  const declared = operation.responses[String(observed.status)];
  if (!declared)
    fail(
      `: the status is not among the operation's responses (${Object.keys(operation.responses).join(', ')})`,
    );
  const base = `#/${pointer('paths', operation.template, method.toLowerCase(), 'responses', String(observed.status))}`;
  const { response, schemaPointer } = resolveResponse(
    declared,
    `${base}/${pointer('content', 'application/json', 'schema')}`,
  );
  if (!contentType.startsWith('application/json'))
    fail(`has Content-Type ${contentType}, not application/json`);
  const validate = validatorFor(schemaPointer);
  if (!validate(observed.body))
    fail(`does not match the document: ${state!.ajv.errorsText(validate.errors)}`);
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const headerName = typeof header.$ref === 'string' ? header.$ref.split('/').pop()! : name;
    const definition =
      ((state!.document.components as Json).headers as Record<string, Json>)[headerName] ?? header;
    const value = observed.headers.get(name);
    if (definition.required === true && value === null) fail(`lacks the header ${name}`);
    const type = (definition.schema as Json | undefined)?.type;
    if (value !== null && type === 'integer' && !/^\d+$/.test(value))
      fail(`has the header ${name}: ${value}, not an integer`);
  }
}

/** The components.responses entry of an HTTP status (the generic envelope of unknown routes). */
function errorComponent(status: number): string {
  const byStatus: Record<number, string> = {
    400: 'InvalidRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    429: 'RateLimited',
    500: 'InternalError',
    503: 'ServiceUnavailable',
  };
  return byStatus[status] ?? 'InternalError';
}
