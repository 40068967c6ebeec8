import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import type { GraphQLSchema } from 'graphql';
import { buildAppSchema } from '../../src/schema.js';
import { buildOpenApiDocument, DEFAULT_PUBLIC_URL } from '../../rest-adapter/openapi/document.js';
import { OPENAPI_FILE, printOpenApiFile } from '../../rest-adapter/openapi/file.js';
import { FEATURE_ROUTES, ROUTE_MOUNTS, VERSIONED_ROUTES } from '../../src/features.js';
import { assertMatchesOpenApi } from '../helpers/openapi-validator.js';

type Json = { [key: string]: unknown };
type ApiDocument = Exclude<Parameters<typeof validate>[0], string>;

let schema: GraphQLSchema;
let document: Json;
beforeAll(async () => {
  schema = await buildAppSchema();
  document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
}, 60_000);

const operations = (doc: Json) =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

describe('schema/openapi.json', () => {
  it('matches the document the code builds (run `npm run schema:emit` after changing routes or types)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(printOpenApiFile(schema, ROUTE_MOUNTS));
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(document) as unknown as ApiDocument);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  it('is refused by the same validator once broken (the lint checks something)', async () => {
    // One path is enough to show it, and keeps the validator's error report fast.
    const path = '/v1/tenants/{id}/users';
    const broken = {
      ...structuredClone(document),
      paths: { [path]: structuredClone((document.paths as Json)[path]) },
    };
    const listUsers = (broken.paths as Record<string, Record<string, Json>>)[path].get;
    (listUsers.parameters as Json[])[0].in = 'body'; // OpenAPI 2 spelling, not a 3.1 location
    expect((await validate(broken as unknown as ApiDocument)).valid).toBe(false);
  });

  it('holds every route of the table, under /v1 and /api, without a hand edit', () => {
    const documented = new Set(
      operations(document).map(({ path, method }) => `${method.toUpperCase()} ${path}`),
    );
    const expected = [
      ...VERSIONED_ROUTES.map((route) => `${route.method} /v1${route.path}`),
      ...FEATURE_ROUTES.map((route) => `${route.method} /api${route.path}`),
    ].map((route) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
    expect(documented.size).toBe(expected.length);
    expect(expected.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('gives every operation a unique id, its security, the rate-limit headers and the errors it can answer', () => {
    const ids = operations(document).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations(document)) {
      const where = `${method} ${path}`;
      const security = operation.security as Array<Record<string, string[]>>;
      expect([where, security.map((s) => Object.keys(s)[0])]).toEqual([where, ['ApiKey', 'OAuth2']]);
      expect([where, security[1].OAuth2.length]).toEqual([where, 1]);
      const responses = operation.responses as Record<string, Json>;
      for (const status of ['400', '401', '403', '429', '500', '503'])
        expect([where, status in responses]).toEqual([where, true]);
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'))![1];
      expect(Object.keys(success.headers as Json)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
    const schemes = (document.components as Json).securitySchemes as Record<string, Json>;
    expect(Object.keys(schemes).sort()).toEqual(['ApiKey', 'OAuth2']);
  });

  it('describes lists with the SPEC envelope and meta, and tenant routes with X-Tenant-Id', () => {
    const listUsers = (document.paths as Record<string, Record<string, Json>>)['/v1/tenants/{id}/users'].get;
    const body = ((listUsers.responses as Record<string, Json>)['200'].content as Record<string, Json>)[
      'application/json'
    ];
    expect(body.schema).toMatchObject({
      required: ['success', 'data', 'meta'],
      properties: { data: { type: 'array' }, meta: { $ref: '#/components/schemas/PageMeta' } },
    });
    const alerts = (document.paths as Record<string, Record<string, Json>>)['/api/security/alerts'].get;
    expect((alerts.parameters as Json[]).map((p) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(['header:X-Tenant-Id', 'query:tenantId', 'query:page', 'query:severity']),
    );
  });

  it('names the OAuth endpoints of the server it is built for', () => {
    const built = buildOpenApiDocument(schema, { publicUrl: 'https://msp.example', mounts: ROUTE_MOUNTS });
    const flows = ((built.components as Json).securitySchemes as Record<string, Json>).OAuth2.flows as Record<
      string,
      Json
    >;
    expect(flows.authorizationCode.tokenUrl).toBe('https://msp.example/oauth/token');
    expect(JSON.stringify(document)).toContain(`${DEFAULT_PUBLIC_URL}/oauth/token`);
  });
});

describe('the response check of TestApp.request', () => {
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': 'r',
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': '59',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
  });
  const url = 'http://127.0.0.1:1/v1/tenants';

  it('accepts an answer the document describes', () => {
    const body = { success: true, data: [], meta: { page: 1, limit: 25, total: 0 } };
    expect(() => assertMatchesOpenApi({ method: 'GET', url, status: 200, headers, body })).not.toThrow();
  });

  it('fails with the request and the ajv error when the body lies', () => {
    const body = { success: true, data: [{ id: 1 }], meta: { page: 1, limit: 25, total: 0 } };
    expect(() => assertMatchesOpenApi({ method: 'GET', url, status: 200, headers, body })).toThrow(
      /GET \/v1\/tenants → 200 does not match the document: .*data\/data\/0/,
    );
  });

  it('fails on a status the operation does not list, and on a missing rate-limit header', () => {
    const error = { success: false, error: { code: 'CONFLICT', message: 'x', details: {} } };
    expect(() => assertMatchesOpenApi({ method: 'GET', url, status: 409, headers, body: error })).toThrow(
      /status is not among/,
    );
    const bare = new Headers({ 'content-type': 'application/json' });
    const body = { success: true, data: [], meta: { page: 1, limit: 25, total: 0 } };
    expect(() => assertMatchesOpenApi({ method: 'GET', url, status: 200, headers: bare, body })).toThrow(
      /lacks the header/,
    );
  });

  it('fails on a rate-limit reset that is not a Unix time, and on paging the server does not do as documented', () => {
    const body = { success: true, data: [], meta: { page: 1, limit: 25, total: 0 } };
    const secondsLeft = new Headers(headers);
    secondsLeft.set('x-ratelimit-reset', '60');
    expect(() =>
      assertMatchesOpenApi({ method: 'GET', url, status: 200, headers: secondsLeft, body }),
    ).toThrow(/X-RateLimit-Reset 60, which is not a Unix time/);
    expect(() =>
      assertMatchesOpenApi({ method: 'GET', url: `${url}?limit=101`, status: 200, headers, body }),
    ).toThrow(/limit=101 is outside the documented bounds/);
    expect(() =>
      assertMatchesOpenApi({ method: 'GET', url: `${url}?limit=10`, status: 200, headers, body }),
    ).toThrow(/meta.limit is 25, but the request asked for .* 10/);
    const refused = {
      success: false,
      error: {
        code: 'INVALID_REQUEST',
        message: 'x',
        details: { fields: [{ field: 'limit', problem: 'x' }] },
      },
    };
    expect(() =>
      assertMatchesOpenApi({ method: 'GET', url: `${url}?limit=100`, status: 400, headers, body: refused }),
    ).toThrow(/limit=100 is inside the documented bounds, yet refused/);
  });
});
