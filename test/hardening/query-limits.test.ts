import {
  getIntrospectionQuery,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  parse,
  typeFromAST,
  visit,
  type GraphQLInputType,
} from 'graphql';
import type { QUERY_LIMITS } from '../../src/http/query-limits.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { committedSchema } from '../helpers/committed-schema.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * The limits, the costs and the route list are the server's (onServer: src/http/query-limits.ts on the schema it
 * serves), the variables' types the committed schema's, so that the file does not evaluate the app's modules.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let limits: typeof QUERY_LIMITS;

beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  limits = await onServer(app, 'queryLimits');
});
afterAll(() => app.stop());

type GraphQLBody = {
  data?: unknown;
  errors?: Array<{ message: string; extensions: { code: string; details?: Record<string, unknown> } }>;
};

async function post(query: string, variables: Record<string, unknown> = {}) {
  return app.request<GraphQLBody>('POST', '/graphql', { key: org.keys.read, body: { query, variables } });
}

function expectLimit(res: { status: number; body: GraphQLBody }, limit: string): void {
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors?.[0].extensions).toMatchObject({
    code: 'INVALID_REQUEST',
    details: { reason: 'GRAPHQL_VALIDATION_FAILED', limit, maximum: expect.any(Number) },
  });
  expect(res.body.errors?.[0].message).toContain(`${limit} limit`);
}

describe('query limits (issue #9 item 2)', () => {
  it('answers a 5,000-deep nested query with a clean 400 naming the token limit', async () => {
    const query = '{' + 'tenants { items { '.repeat(2500) + 'id' + ' } }'.repeat(2500) + '}';
    const res = await post(query);
    expect(res.status).toBe(400);
    expect(res.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(res.body.errors?.[0].message).toContain(`${limits.maxTokens} tokens`);
  });

  it('lets the standard introspection query (the IDE’s) through', async () => {
    const res = await post(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(res.body.errors).toBeUndefined();
    expect(res.status).toBe(200);
  });

  it('refuses a document nested deeper than the depth limit', async () => {
    const depth = limits.maxDepth + 1;
    const query =
      '{ ' +
      '__schema { types { fields { type { '.repeat(1) +
      'ofType { '.repeat(depth) +
      'name' +
      ' }'.repeat(depth + 4) +
      ' }';
    expectLimit(await post(query), 'depth');
  });

  it('refuses more aliases than the limit', async () => {
    const fields = Array.from(
      { length: limits.maxAliases + 1 },
      (_, i) => `a${i}: tenants { total: pageInfo { total } }`,
    );
    expectLimit(await post(`{ ${fields.join(' ')} }`), 'aliases');
  });

  it('refuses more directives than the limit', async () => {
    const fragments = Array.from(
      { length: limits.maxDirectives + 1 },
      () => '... @include(if: true) { __typename }',
    );
    expectLimit(await post(`{ ${fragments.join(' ')} }`), 'directives');
  });

  it('refuses a query whose field cost with list multipliers is over the limit, executing nothing', async () => {
    const fields =
      'id displayName firstName lastName jobTitle department companyName officeLocation createdAt businessPhone mobilePhone employeeId usageLocation';
    const page = `users(tenantId: $t, limit: 100) { items { ${fields} } }`;
    const aliases = Array.from({ length: 25 }, (_, i) => `u${i}: ${page}`).join(' ');
    const before = app.sql.count;
    const res = await post(`query($t: UUID!) { ${aliases} }`, { t: tenant.id });
    expectLimit(res, 'cost');
    expect(res.body.errors?.[0].extensions.details?.actual).toBeGreaterThan(limits.maxCost);
    expect(app.sql.count - before).toBeLessThan(5);
  });

  it('costs one document by its variables each time (the cost cache keys on them)', async () => {
    const fields =
      'id displayName firstName lastName jobTitle department companyName officeLocation createdAt businessPhone mobilePhone employeeId usageLocation';
    const page = `users(tenantId: $t, limit: $limit) { items { ${fields} } }`;
    const query = `query($t: UUID!, $limit: Int) { ${Array.from({ length: 25 }, (_, i) => `u${i}: ${page}`).join(' ')} }`;
    const small = await post(query, { t: tenant.id, limit: 1 });
    expect(small.body.errors).toBeUndefined();
    expectLimit(await post(query, { t: tenant.id, limit: 100 }), 'cost');
    expect((await post(query, { t: tenant.id, limit: 1 })).body.errors).toBeUndefined();
  });

  it('charges a query its cost in rate-limit points', async () => {
    const charged = await createOrganizationWithKeys(app);
    const call = (query: string, variables: Record<string, unknown> = {}) =>
      app.request<GraphQLBody>('POST', '/graphql', { key: charged.keys.read, body: { query, variables } });
    const first = await call('{ tenants { pageInfo { total } } }');
    const remainingAfterCheap = Number(first.headers.get('x-ratelimit-remaining'));
    const page = 'tenants(limit: 100) { items { id name domains status createdAt } }';
    const query = `{ ${Array.from({ length: 5 }, (_, i) => `t${i}: ${page}`).join(' ')} }`;
    const points = await onServer(app, 'queryRatePoints', query);
    expect(points).toBeGreaterThan(1);
    const dear = await call(query);
    expect(dear.body.errors).toBeUndefined();
    expect(Number(dear.headers.get('x-ratelimit-remaining'))).toBe(remainingAfterCheap - points);
  });

  it('keeps every REST route’s document well within the limits (cost at limit=100 under a quarter)', async () => {
    const schema = committedSchema();
    const routes = await onServer(app, 'restRoutes');
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      const document = parse(route.operation, { maxTokens: limits.maxTokens / 2 });
      const operation = getOperationAST(document)!;
      let aliases = 0;
      let directives = 0;
      visit(document, {
        Field: (node) => void (node.alias && aliases++),
        Directive: () => void directives++,
      });
      const withinAliases = aliases <= limits.maxAliases / 4;
      const withinDirectives = directives <= limits.maxDirectives / 4;
      expect({ where, withinAliases, withinDirectives }).toEqual({
        where,
        withinAliases: true,
        withinDirectives: true,
      });
      const variables: Record<string, unknown> = {};
      for (const definition of operation.variableDefinitions ?? []) {
        const name = definition.variable.name.value;
        const type = typeFromAST(schema, definition.type) as GraphQLInputType;
        if (name === 'limit') variables[name] = 100;
        else if (isNonNullType(type)) variables[name] = sampleValue(type);
      }
      const cost = await onServer(app, 'queryCost', route.operation, variables);
      const ceiling = WITHIN_THE_LIMIT_ONLY.has(where) ? limits.maxCost : limits.maxCost / 4;
      expect({ where, cost: cost > 0 && cost <= ceiling }).toEqual({ where, cost: true });
    }
  });
});

/**
 * Routes whose documents are costed by the real size of what they return (issue #32 item 3), which fits under
 * the limit but not under a quarter of it: 100 tenants of 30 days of secure score history, a recommendation's
 * tenants and an apply to all of them.
 */
const WITHIN_THE_LIMIT_ONLY = new Set([
  'GET /security-vendor/secure-score',
  // A recommendation's tenants: up to the 1,000 an organization may hold (src/tenants/tenant-limits.ts).
  'GET /security/recommendations/:id',
  'POST /security/recommendations/:id/dismiss',
  'POST /security/recommendations/:id/snooze',
  'POST /security/recommendations/:id/reopen',
  // A page of 100 deliveries, each with up to 20 attempts (MAX_DELIVERY_ATTEMPTS).
  'GET /webhooks/:id/deliveries',
  // "Apply to every open tenant": the job's work for up to 1,000 tenants, and their results.
  'POST /security/recommendations/:id/apply',
  // A page of 100 tenants, each with the areas its consent's missing permissions disable (one per capability).
  'GET /tenants',
]);

/** Some value of an input type (only required fields), so the route's document can be costed. */
function sampleValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType);
  if (isListType(type)) return [sampleValue(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
    return Object.fromEntries(fields.map((field) => [field.name, sampleValue(field.type)]));
  }
  const scalars: Record<string, unknown> = {
    UUID: '00000000-0000-4000-8000-000000000000',
    Int: 1,
    Float: 1,
    Boolean: true,
    DateTime: '2026-01-01T00:00:00Z',
    JSONObject: {},
  };
  return scalars[type.name] ?? 'x';
}
