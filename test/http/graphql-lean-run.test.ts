/**
 * GraphQL queries on the REST routes' plans (src/http/graphql-lean-run.ts, issue #31): a validated query whose
 * shape a plan takes runs the plan instead of graphql-jit, and must answer the same bytes. Two servers on one
 * database, one with plans and one without (`graphqlLeanRuns: false`), are sent the same requests (the one with
 * plans twice: the first goes through Apollo's pipeline, the second through the fast path,
 * src/http/graphql-fast-path.ts): status, headers (but the request id, the date and the rate-limit count), the
 * body's bytes and the request-log line (but its duration and request id) must be the same, over a query of every
 * root field of the schema, every REST read document, variants of them (aliases, `__typename`, fragments,
 * @include/@skip, several root fields), another organization's tenant, bad variables and refusals.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';
import { graphqlLeanRunCounts } from '../../src/http/graphql-lean-run.js';
import { Plan } from '../../src/organizations/organization.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { LIST_USERS } from '../../src/users/user.rest.js';
import { createSku, createTenant, createUser, giveLicense } from '../factories/shared.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { everyRootQuery, variantsOf } from '../helpers/graphql-documents.js';
import { captureLogLines } from '../helpers/log-lines.js';
import { startSuite } from '../helpers/suite.js';
import { TestApp } from '../helpers/test-app.js';

const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
const plannedLog = captureLogLines();
const jitOnlyLog = captureLogLines();
let planned: TestApp;
let jitOnly: TestApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let foreignTenant: Tenant;
let userId: string;
beforeAll(async () => {
  let other: OrganizationWithKeys;
  // Unlimited: the same org makes some 1,500 requests in one window of the test clock.
  ({
    app: planned,
    org,
    other,
    tenant,
  } = await startSuite({
    tenant: true,
    other: true,
    logger: plannedLog.logger,
    organization: { plan: Plan.CUSTOM, customRateLimitPerMinute: null },
  }));
  jitOnly = await TestApp.start({
    databaseUrl: planned.databaseUrl,
    graphqlLeanRuns: false,
    logger: jitOnlyLog.logger,
  });
  foreignTenant = await createTenant(planned, other.scope);
  const sku = await createSku(planned, tenant, { skuPartNumber: 'LEANGQL_E3', total: 5 });
  for (let index = 0; index < 3; index++) {
    const user = await createUser(planned, tenant, { lastName: `Lean${index}` });
    if (index > 0) await giveLicense(planned, tenant, user, sku);
    userId = user.id;
  }
});
afterAll(async () => {
  await jitOnly?.stop();
  await planned?.stop();
});

/** Headers that differ between any two requests (the request id, the clock, the rate-limit count). */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

interface Sent {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
}

async function send(app: TestApp, log: ReturnType<typeof captureLogLines>, request: Sent) {
  const from = log.lines.length;
  const response = await fetch(`${app.baseUrl}${request.path ?? '/graphql'}`, {
    method: request.method ?? 'POST',
    headers: {
      authorization: `Bearer ${org.keys.admin}`,
      'content-type': 'application/json',
      ...request.headers,
    },
    body: typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
  });
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_REQUEST.has(name)),
    text: await response.text(),
    log: await log.requestLine(from),
  };
}

/**
 * Sends the request to the server without plans, then twice to the one with them (Apollo's pipeline, then the fast
 * path); both answers must be the first's. Returns the answer and how many of the two requests a plan answered.
 */
async function bothWays(label: string, request: Sent) {
  const expected = await send(jitOnly, jitOnlyLog, request);
  const before = graphqlLeanRunCounts().answered;
  for (const pass of ['apollo', 'fast path']) {
    const answer = await send(planned, plannedLog, request);
    expect({ label, pass, ...answer }).toStrictEqual({ label, pass, ...expected });
  }
  return { answer: expected, plannedRuns: graphqlLeanRunCounts().answered - before };
}

/** A GraphQL POST of `body` both ways. */
const postBoth = (label: string, body: { query: string; variables?: Record<string, unknown> }) =>
  bothWays(label, { body });

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const uuidFor = (name: string) => (name === 'tenantId' ? tenant.id : name === 'id' ? userId : UNKNOWN);

const operationOf = (query: string) =>
  parse(query).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
  )!;

/** Values for a document's required variables (`uuidFor` for UUIDs). */
function variablesOf(query: string, uuid = uuidFor): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const definition of operationOf(query).variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (definition.type.kind === 'NonNullType' && !definition.defaultValue) variables[name] = uuid(name);
  }
  return variables;
}

const restReads = [
  ...new Set(
    [...VERSIONED_ROUTES, ...FEATURE_ROUTES]
      .filter((route) => route.method === 'GET')
      .map((route) => route.operation)
      .filter((query) => operationOf(query).operation === 'query'),
  ),
];

it('answers a query of every root field the same bytes, the plans taking most', async () => {
  const before = graphqlLeanRunCounts();
  let plannedDocuments = 0;
  for (const body of everyRootQuery(schema, uuidFor)) {
    const { plannedRuns } = await postBoth(body.query, body);
    if (plannedRuns > 0) plannedDocuments++;
  }
  expect(plannedDocuments).toBeGreaterThan(20);
  expect(graphqlLeanRunCounts().handedBack).toBe(before.handedBack);
}, 300_000);

it('answers every REST read document and its variants the same bytes', async () => {
  const before = graphqlLeanRunCounts();
  let plannedDocuments = 0;
  for (const query of restReads) {
    const variables = variablesOf(query);
    if ((await postBoth(query, { query, variables })).plannedRuns === 2) plannedDocuments++;
    for (const [variant, text] of Object.entries(variantsOf(schema, query)))
      await postBoth(`${variant} of ${query}`, { query: text, variables });
  }
  expect(plannedDocuments).toBeGreaterThan(40);
  expect(graphqlLeanRunCounts().answered - before.answered).toBeGreaterThan(200);
}, 600_000);

it('gives the users list the same bytes from its plan, and errors and bad variables as graphql-jit', async () => {
  const list = (variables: Record<string, unknown>) =>
    postBoth(JSON.stringify(variables), { query: LIST_USERS, variables });
  for (const limit of [1, 2, 25, 100]) {
    const { answer, plannedRuns } = await list({ tenantId: tenant.id, limit });
    expect({ status: answer.status, plannedRuns }).toEqual({ status: 200, plannedRuns: 2 });
  }
  expect((await list({ tenantId: tenant.id, limit: 2, page: 2 })).plannedRuns).toBe(2);
  // Another organization's tenant: the root resolver's error, answered by the plan as graphql-jit answers it.
  const foreign = await list({ tenantId: foreignTenant.id });
  expect(JSON.parse(foreign.answer.text)).toMatchObject({
    data: null,
    errors: [{ extensions: { code: 'NOT_FOUND' } }],
  });
  expect(foreign.plannedRuns).toBe(2);
  const user = (id: string) =>
    postBoth(id, {
      query: restReads.find((query) => query.includes('user(tenantId'))!,
      variables: { tenantId: tenant.id, id },
    });
  expect((await user(userId)).plannedRuns).toBe(2);
  expect((await user(UNKNOWN)).answer.status).toBe(200);
  // Bad variables: refused before anything runs, the same answers (400 for a wrong type).
  const statuses = new Set<number>();
  for (const variables of [
    { tenantId: 'not-a-uuid' },
    { tenantId: tenant.id, limit: 'ten' },
    { tenantId: tenant.id, limit: 1000 },
    {},
    { tenantId: null },
  ])
    statuses.add((await list(variables)).answer.status);
  expect(statuses).toContain(400);
  // A nullable root field: null and the error, in the plan's answer too.
  const application = `query Application($tenantId: UUID!) { informationBarrierApplication(tenantId: $tenantId) { __typename } }`;
  await postBoth('nullable root', { query: application, variables: { tenantId: foreignTenant.id } });
  // Introspection, a mutation and a subscription over HTTP are graphql-jit's (and Apollo's) as before.
  await postBoth('introspection', { query: '{ __schema { queryType { name } } __typename }' });
  await postBoth('mutation', {
    query: 'mutation { deleteWebhook(id: "00000000-0000-4000-8000-000000000000") { id } }',
  });
}, 120_000);

it('answers refusals and bad bodies the same', async () => {
  const list = { query: LIST_USERS, variables: { tenantId: tenant.id, limit: 2 } };
  const cases: Array<[string, Sent, number]> = [
    ['no credentials', { body: list, headers: { authorization: '' } }, 401],
    ['an unknown key', { body: list, headers: { authorization: 'Bearer svc_sk_test_not-a-real-key' } }, 401],
    ['a body that is not JSON', { body: '{"query": ' }, 400],
    ['no query', { body: { variables: {} } }, 400],
    ['a query string', { path: '/graphql?x=1', body: list }, 200],
  ];
  for (const [label, request, status] of cases)
    expect({ label, status: (await bothWays(label, request)).answer.status }).toEqual({ label, status });
});
