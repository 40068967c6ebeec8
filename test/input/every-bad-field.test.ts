import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  parseType,
  typeFromAST,
  type GraphQLInputType,
} from 'graphql';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { committedSchema } from '../helpers/committed-schema.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import type { CompiledRouteData } from '../helpers/server-side-schema.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * Issue #32 item 2: a 400 names every bad field at once. For every route that takes two or more inputs a
 * wrong value can be given (a query parameter, a field of a spread body), this sends two bad ones together
 * (a wrong type, or `limit=500`, a rule checked only after the types) and expects both in `details.fields`.
 * The routes are the server's, compiled on the schema it serves (onServer `compiledRoutes`); their variables'
 * types are read from the committed schema, so that the file does not evaluate the app's modules.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenantId: string;

beforeAll(async () => {
  const suite = await sharedSuite({ tenant: true });
  ({ app, org } = suite);
  tenantId = suite.tenant.id;
});
afterAll(() => app.stop());

/** A value of the wrong type for `type`, or undefined when any text would do (a plain String). */
function wrongValue(type: GraphQLInputType): string | number | undefined {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner) || isInputObjectType(inner)) return undefined;
  const named = getNamedType(inner);
  if (isEnumType(named)) return 'NOT_A_VALUE';
  if (isScalarType(named)) {
    if (named.name === 'Int' || named.name === 'Float' || named.name === 'Boolean') return 'not-a-number';
    if (named.name === 'String' || named.name === 'ID') return undefined;
    return 'not-a-valid-value'; // UUID, DateTime, Date, EmailAddress...
  }
  return undefined;
}

interface BadInput {
  where: 'query' | 'body';
  name: string;
  value: string | number;
}

/** A variable's type (`UUID!`), read from the committed schema. */
function inputType(type: string): GraphQLInputType {
  const found = typeFromAST(committedSchema(), parseType(type));
  if (!found) throw new Error(`${type} is not in schema/schema.graphql`);
  return found as GraphQLInputType;
}

/** Two inputs of the route to break, `limit` (by its rule) first when the route pages. */
function badInputs(route: CompiledRouteData): BadInput[] {
  const { definition } = route;
  const variables = new Map(route.variables.map(({ name, type }) => [name, { type: inputType(type) }]));
  const sources = new Map(route.sources.map(({ variable, from }) => [variable, { from }]));
  const found: BadInput[] = [];
  for (const [name, mapping] of Object.entries(definition.query ?? {})) {
    const variable = variables.get(mapping.variable ?? name);
    if (!variable) continue;
    if (name === 'limit') found.unshift({ where: 'query', name, value: '500' });
    else {
      const value = mapping.type === 'stringList' ? undefined : wrongValue(variable.type);
      if (value !== undefined) found.push({ where: 'query', name, value: String(value) });
    }
  }
  if (definition.body === 'spread') {
    for (const [name, { type }] of variables) {
      const source = sources.get(name);
      if (source && source.from !== 'query') continue;
      if (found.some((input) => input.name === name)) continue;
      const value = wrongValue(type);
      if (value !== undefined) found.push({ where: 'body', name, value });
    }
  }
  return found.slice(0, 2);
}

it('names both of two bad inputs, on every route that takes two', async () => {
  const routes = (await onServer(app, 'compiledRoutes')).map((route) => ({ prefix: route.prefix, route }));
  const failures: string[] = [];
  let walked = 0;
  for (const { prefix, route } of routes) {
    const inputs = badInputs(route);
    if (inputs.length < 2) continue;
    walked++;
    const path = route.definition.path.replace(/:\w+/g, () => randomUUID());
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    for (const input of inputs) {
      if (input.where === 'query') query.set(input.name, String(input.value));
      else body[input.name] = input.value;
    }
    const method = route.definition.method;
    const res = await app.request<Envelope<unknown>>(method, `${prefix}${path}?${query}`, {
      key: org.keys.admin,
      headers: route.definition.tenant ? { 'X-Tenant-Id': tenantId } : {},
      body: route.definition.body && method !== 'GET' ? body : undefined,
    });
    const named = ((res.body.error?.details.fields ?? []) as Array<{ field: string }>).map((f) => f.field);
    const missing = inputs.filter((input) => !named.includes(input.name)).map((input) => input.name);
    if (res.status !== 400 || missing.length > 0)
      failures.push(
        `${method} ${route.definition.path}: ${res.status}, named [${named}], missing [${missing}]`,
      );
  }
  expect(walked).toBeGreaterThan(20);
  expect(failures).toEqual([]);
}, 300_000);

it('the issue’s repro requests: each names all of its bad fields (rules of the arguments and of the service)', async () => {
  const cases: Array<[string, string, unknown, Record<string, string>, string[]]> = [
    [
      'GET',
      '/api/msp-portal/users/search?q=ab&limit=500&tenantGroupId=nope',
      undefined,
      {},
      ['limit', 'q', 'tenantGroupId'],
    ],
    [
      'GET',
      '/api/security/recommendations?limit=500&tenantGroupId=nope',
      undefined,
      {},
      ['limit', 'tenantGroupId'],
    ],
    [
      'POST',
      '/api/msp-portal/tenant-groups',
      {
        name: '  ',
        description: 'x'.repeat(501),
        tenantIds: Array.from({ length: 1001 }, () => randomUUID()),
      },
      {},
      ['description', 'name', 'tenantIds'],
    ],
    [
      'POST',
      '/api/security/recommendations/safe-links/dismiss',
      { tenantIds: [], reason: ' ' },
      {},
      ['reason', 'tenantIds'],
    ],
    [
      'POST',
      '/api/security/recommendations/safe-links/apply',
      { tenantIds: [] },
      { 'Idempotency-Key': 'not visible' },
      ['Idempotency-Key', 'tenantIds'],
    ],
  ];
  cases.push([
    'POST',
    `/api/security/info-barriers/policies?tenantId=${tenantId}`,
    {
      name: 'Unknown segments',
      type: 'Block',
      sourceSegmentId: randomUUID(),
      targetSegmentIds: [randomUUID()],
    },
    {},
    ['sourceSegmentId', 'targetSegmentIds.0'],
  ]);
  for (const [method, path, body, headers, fields] of cases) {
    const res = await app.request<Envelope<unknown>>(method, path, { key: org.keys.admin, body, headers });
    const named = ((res.body.error?.details.fields ?? []) as Array<{ field: string }>).map((f) => f.field);
    expect({ path, status: res.status, named: named.sort() }).toEqual({ path, status: 400, named: fields });
  }
});

describe('GraphQL', () => {
  const LIST = `query ($limit: Int, $page: Int, $group: UUID) {
    securityRecommendations(limit: $limit, page: $page, tenantGroupId: $group) { items { id } }
  }`;
  const fieldsOf = (errors: Array<{ extensions: { details?: Record<string, unknown> } }> | undefined) =>
    ((errors?.[0]?.extensions.details?.fields ?? []) as Array<{ field: string }>).map((f) => f.field).sort();

  it('names a variable of the wrong type and a rule broken by another argument in one INVALID_REQUEST', async () => {
    const res = await app.graphql(org.keys.read, LIST, { limit: 500, group: 'not-a-uuid' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(fieldsOf(res.body.errors)).toEqual(['limit', 'tenantGroupId']);
  });

  it('names every variable of the wrong type, and every broken rule of the arguments, at once', async () => {
    const types = await app.graphql(org.keys.read, LIST, { page: 'x', group: 'not-a-uuid' });
    expect(fieldsOf(types.body.errors)).toEqual(['page', 'tenantGroupId']);
    const rules = await app.graphql(org.keys.read, LIST, { page: 0, limit: 500 });
    expect(rules.body.errors?.[0].extensions.code).toBe('INVALID_REQUEST');
    expect(fieldsOf(rules.body.errors)).toEqual(['limit', 'page']);
  });

  it('still refuses a Read key’s mutation with 403 before looking at its variables', async () => {
    const res = await app.graphql(
      org.keys.read,
      `mutation ($ids: [UUID!], $dry: Boolean) {
        applySecurityRecommendation(id: "safe-links", tenantIds: $ids, dryRun: $dry) { id }
      }`,
      { ids: ['nope'], dry: 'yes' },
    );
    expect(res.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

it('GraphQL literals of the wrong type: each error names its argument in details.fields', async () => {
  const res = await app.graphql(
    org.keys.read,
    '{ securityRecommendations(limit: "many", tenantGroupId: 7) { items { id } } }',
  );
  const rules = await app.graphql(
    org.keys.read,
    '{ securityRecommendations(limit: 500, tenantGroupId: 7) { items { id } } }',
  );
  const ruleFields = (rules.body.errors ?? []).flatMap(
    (error) => (error.extensions.details?.fields ?? []) as Array<{ field: string }>,
  );
  expect(ruleFields.map((f) => f.field).sort()).toEqual(['limit', 'tenantGroupId']);
  expect(res.status).toBe(400);
  const named = (res.body.errors ?? []).flatMap(
    (error) => (error.extensions.details?.fields ?? []) as Array<{ field: string }>,
  );
  expect(named.map((f) => f.field).sort()).toEqual(['limit', 'tenantGroupId']);
  expect(res.body.errors?.every((error) => error.extensions.code === 'INVALID_REQUEST')).toBe(true);
});
