/**
 * GraphQL queries on the REST routes' plans (src/http/graphql-lean-run.ts, issue #31): a validated query whose
 * shape a plan takes runs the plan instead of graphql-jit, and must answer the same bytes. One server is asked each
 * request three ways: with its plans through Apollo's pipeline, with its plans through the fast path
 * (src/http/graphql-fast-path.ts), and without them through Apollo's pipeline (its `graphqlLeanRuns` switch, a
 * test-only function: the last test shows no production code can give one). Status, headers (but the request id,
 * the date and the rate-limit count), the body's bytes and the request-log line (but its duration and request id)
 * must be the same, over a query of every root field of the schema, every REST read document, variants of them
 * (aliases, `__typename`, fragments, @include/@skip, several root fields), another organization's tenant, bad
 * variables and refusals.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { Plan } from '../../src/organizations/organization.enums.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { LIST_USERS } from '../../src/users/user.rest.js';
import { createSku, createTenant, createUser, giveLicense } from '../factories/shared.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { everyRootQuery, variantsOf } from '../helpers/graphql-documents.js';
import { captureLogLines } from '../helpers/log-lines.js';
import { onServer } from '../helpers/on-server.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';

const schema = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
const log = captureLogLines();
/** Read by the server at each request (TestAppOptions' `graphqlLeanRuns`): true while a request runs without plans. */
let plansOff = false;
let app: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let foreignTenant: Tenant;
let userId: string;
let restReads: string[];
beforeAll(async () => {
  let other: OrganizationWithKeys;
  // Unlimited: the same org makes some 1,200 requests in one window of the test clock.
  ({ app, org, other, tenant } = await realmSuite({
    tenant: true,
    other: true,
    logger: log.logger,
    graphqlLeanRuns: () => !plansOff,
    organization: { plan: Plan.CUSTOM, customRateLimitPerMinute: null },
  }));
  foreignTenant = await createTenant(app, other.scope);
  const sku = await createSku(app, tenant, { skuPartNumber: 'LEANGQL_E3', total: 5 });
  for (let index = 0; index < 3; index++) {
    const user = await createUser(app, tenant, { lastName: `Lean${index}` });
    if (index > 0) await giveLicense(app, tenant, user, sku);
    userId = user.id;
  }
  restReads = [
    ...new Set(
      (await onServer(app, 'restRoutes'))
        .filter((route) => route.method === 'GET')
        .map((route) => route.operation)
        .filter((query) => operationOf(query).operation === 'query'),
    ),
  ];
});
afterAll(() => app?.stop());

const counts = () => onServer(app, 'graphqlLeanRunCounts');

/** Headers that differ between any two requests (the request id, the clock, the rate-limit count). */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

interface Sent {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  /** JSON-encoded unless a string. */
  body?: unknown;
}

/**
 * `apollo`: the body with an empty `extensions` member, which Apollo reads as none and the fast path leaves to
 * Apollo (graphql-fast-path.ts's fastRequestOf), so the request goes through Apollo's pipeline even when its
 * document is known.
 */
async function send(request: Sent, apollo: boolean) {
  const from = log.lines.length;
  const { body } = request;
  const json =
    typeof body === 'string' ? body : JSON.stringify(apollo ? { ...(body as object), extensions: {} } : body);
  const response = await fetch(`${app.baseUrl}${request.path ?? '/graphql'}`, {
    method: request.method ?? 'POST',
    headers: {
      authorization: `Bearer ${org.keys.admin}`,
      'content-type': 'application/json',
      ...request.headers,
    },
    body: json,
  });
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_REQUEST.has(name)),
    text: await response.text(),
    log: await log.requestLine(from),
  };
}

/**
 * Sends the request with plans through Apollo's pipeline, then through the fast path, then without plans through
 * Apollo's pipeline; the first two answers must be the last's. `whenPlanned`: the last only when a plan started
 * for the first two (graphqlLeanRunCounts' `started`): otherwise both ran graphql-jit alone, which is what the
 * server without plans runs (src/core/jit-gateway.ts's `execute`: a null plan, or a switched-off one, is
 * `jit()`), so their bytes against their own graphql-jit prove nothing more; the first two are still compared.
 * Returns the answer and how many of the two requests a plan answered.
 */
async function bothWays(label: string, request: Sent, whenPlanned = false) {
  const before = await counts();
  const apollo = await send(request, true);
  const fast = await send(request, false);
  expect({ label, pass: 'fast path', ...fast }).toStrictEqual({ label, pass: 'fast path', ...apollo });
  const after = await counts();
  if (!whenPlanned || after.started > before.started) {
    plansOff = true;
    const expected = await send(request, true).finally(() => (plansOff = false));
    expect({ label, pass: 'apollo', ...apollo }).toStrictEqual({ label, pass: 'apollo', ...expected });
  }
  return { answer: apollo, plannedRuns: after.answered - before.answered };
}

/** A GraphQL POST of `body` both ways. */
const postBoth = (
  label: string,
  body: { query: string; variables?: Record<string, unknown> },
  whenPlanned = false,
) => bothWays(label, { body }, whenPlanned);

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

it('answers a query of every root field the same bytes, the plans taking most', async () => {
  const before = await counts();
  let plannedDocuments = 0;
  for (const body of everyRootQuery(schema, uuidFor)) {
    const { plannedRuns } = await postBoth(body.query, body, true);
    if (plannedRuns > 0) plannedDocuments++;
  }
  expect(plannedDocuments).toBeGreaterThan(20);
  expect((await counts()).handedBack).toBe(before.handedBack);
}, 300_000);

it('answers every REST read document and its variants the same bytes', async () => {
  const before = await counts();
  let plannedDocuments = 0;
  for (const query of restReads) {
    const variables = variablesOf(query);
    if ((await postBoth(query, { query, variables }, true)).plannedRuns === 2) plannedDocuments++;
    for (const [variant, text] of Object.entries(variantsOf(schema, query)))
      await postBoth(`${variant} of ${query}`, { query: text, variables }, true);
  }
  expect(plannedDocuments).toBeGreaterThan(40);
  expect((await counts()).answered - before.answered).toBeGreaterThan(200);
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

it('takes its switch from no production code: only a test passes a function for `graphqlLeanRuns`', () => {
  // The switch is AppOptions' `graphqlLeanRuns` as a function (src/app.ts, forwarded to graphql-server.ts, which
  // hands it to the plans): outside test/, app.ts alone names the option in code, and the servers' createApp
  // calls (src/main.ts, bench/) pass none of it, so a production server runs every plan it has.
  const root = new URL('../../', import.meta.url);
  const codeOf = (path: string) =>
    readFileSync(new URL(path, root), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
  const named: string[] = [];
  for (const folder of ['src', 'rest-adapter', 'bench', 'scripts'])
    for (const file of readdirSync(new URL(folder, root), { recursive: true, encoding: 'utf8' }))
      if (/\.(ts|mts|js|mjs)$/.test(file) && codeOf(`${folder}/${file}`).includes('graphqlLeanRuns'))
        named.push(`${folder}/${file}`);
  expect(named).toEqual(['src/app.ts']);
  // Declared, and forwarded as graphql-server's `leanRuns`.
  expect(codeOf('src/app.ts').match(/graphqlLeanRuns.*/g)).toEqual([
    'graphqlLeanRuns?: boolean | LeanRunSwitch;',
    'graphqlLeanRuns,',
  ]);
});
