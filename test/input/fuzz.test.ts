import fc from 'fast-check';
import { Plan } from '../../src/organizations/organization.enums.js';
import { createTenant, createUser, type OrganizationWithKeys } from '../factories/shared.js';
import { realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { graphqlCases, mutationFields } from './fuzz/graphql-cases.js';
import { plausibleValues } from './fuzz/plausible.js';
import { restCases, type RestCase } from './fuzz/rest-cases.js';
import { fuzzTargets, type FuzzTargets } from './fuzz/routes.js';
import { closeConnections, envelopeProblem, sendRaw } from './fuzz/send.js';
import { WriteAudit } from './fuzz/write-audit.js';

/**
 * #18.7: a seeded, bounded fuzz of every REST route (read from the route table) and every GraphQL mutation
 * (read from the schema). Each case must answer below 500, every REST error in the envelope naming its
 * field, no GraphQL INTERNAL_ERROR, and a refused request must not have written a row (WriteAudit).
 * FUZZ_SEED picks another sequence; FUZZ_RUNS and FUZZ_GRAPHQL_RUNS raise the budget (docs/testing-fuzz.md).
 * The routes, the schema and the enums' spellings are the server's (fuzz/routes.ts): the file does not evaluate
 * the app's modules.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 18);
const REST_RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
// About 25 cases a mutation: fewer and a seed can miss every accepted input of the mostly-wrong generators.
const GRAPHQL_RUNS = Number(process.env.FUZZ_GRAPHQL_RUNS ?? 2000);
const MIN_RUNS_PER_TARGET = 10;
const BUDGET_MS = 10 * 60_000;

let app: RealmApp;
let org: OrganizationWithKeys;
let audit: WriteAudit;
let ids: string[];
let tenantIds: string[];
let plausible: ReturnType<typeof plausibleValues>;
let targets: FuzzTargets;

beforeAll(async () => {
  // Unlimited rate, so thousands of requests in a minute are answered rather than throttled.
  const suite = await realmSuite({
    organization: { plan: Plan.CUSTOM, customRateLimitPerMinute: null },
    other: true,
    tenant: true,
  });
  ({ app, org } = suite);
  const { other, tenant } = suite;
  const foreignTenant = await createTenant(app, other.scope);
  const user = await createUser(app, tenant);
  const foreignUser = await createUser(app, foreignTenant);
  tenantIds = [tenant.id, foreignTenant.id];
  plausible = plausibleValues(tenant.domain, tenant.id);
  ids = [tenant.id, user.id, foreignTenant.id, foreignUser.id, org.organization.id];
  targets = await fuzzTargets(app);
  audit = await WriteAudit.install(app.pool);
  await audit.writesSinceLastCall();
});
afterAll(async () => {
  closeConnections();
  await app.stop();
});

interface Failure {
  target: string;
  request: string;
  problem: string;
}

const describeRest = (c: RestCase) =>
  `${c.method} ${c.path.slice(0, 200)} ${JSON.stringify(c.headers)} ${c.body?.toString('utf8').slice(0, 200) ?? ''}`;

it(
  'answers every REST route below 500, errors in the envelope, and writes nothing when it refuses',
  async () => {
    const { routes, restEnumValues } = targets;
    const runsPerRoute = Math.max(MIN_RUNS_PER_TARGET, Math.ceil(REST_RUNS / routes.length));
    const keys = [org.keys.admin, org.keys.write, org.keys.read];
    const failures: Failure[] = [];
    let sent = 0;
    let accepted = 0;
    for (const [index, { prefix, route }] of routes.entries()) {
      const context = {
        prefix,
        ids,
        tenantIds,
        keys,
        plausible,
        enumSpelling: 'rest' as const,
        restEnumValues,
      };
      const cases = fc.sample(restCases(route, context), { seed: SEED + index, numRuns: runsPerRoute });
      for (const c of cases) {
        const response = await sendRaw(app.baseUrl, c);
        const writes = await audit.writesSinceLastCall();
        sent++;
        if (response.status < 300) accepted++;
        const fail = (problem: string) =>
          failures.push({ target: c.route, request: describeRest(c), problem });
        if (response.status >= 500) fail(`${response.status}: ${response.text.slice(0, 300)}`);
        else if (response.status >= 400) {
          const problem = envelopeProblem(response);
          if (problem) fail(problem);
          if (writes.length > 0) fail(`refused with ${response.status} but wrote: ${writes.join(', ')}`);
        }
      }
    }
    expect(sent).toBeGreaterThanOrEqual(routes.length * MIN_RUNS_PER_TARGET);
    // The generators must also produce requests the service accepts, or the deep paths go untested.
    expect(accepted).toBeGreaterThan(sent / 50);
    expect({ count: failures.length, first: failures.slice(0, 8) }).toEqual({ count: 0, first: [] });
  },
  BUDGET_MS,
);

it(
  'answers every GraphQL mutation without INTERNAL_ERROR, and writes nothing when it refuses',
  async () => {
    const fields = mutationFields(targets.schema);
    const runsPerMutation = Math.max(MIN_RUNS_PER_TARGET, Math.ceil(GRAPHQL_RUNS / fields.length));
    const keys = [org.keys.admin, org.keys.write];
    const failures: Failure[] = [];
    let executed = 0;
    for (const [index, field] of fields.entries()) {
      const context = { ids, keys, plausible, enumSpelling: 'graphql' as const };
      const cases = fc.sample(graphqlCases(field, context), { seed: SEED + index, numRuns: runsPerMutation });
      for (const c of cases) {
        const response = await sendRaw(app.baseUrl, {
          method: 'POST',
          path: '/graphql',
          headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify({ query: c.query, variables: c.variables })),
        });
        const writes = await audit.writesSinceLastCall();
        const request = `${c.query} ${JSON.stringify(c.variables).slice(0, 300)}`;
        const fail = (problem: string) => failures.push({ target: c.mutation, request, problem });
        if (response.status >= 500) {
          fail(`${response.status}: ${response.text.slice(0, 300)}`);
          continue;
        }
        const body = JSON.parse(response.text) as {
          data?: Record<string, unknown> | null;
          errors?: Array<{ message: string; extensions?: { code?: string } }>;
        };
        const errors = body.errors ?? [];
        for (const error of errors) {
          if (!error.extensions?.code || error.extensions.code === 'INTERNAL_ERROR')
            fail(`${error.extensions?.code ?? 'no code'}: ${error.message}`);
        }
        if (errors.length === 0) executed++;
        const refused = errors.length > 0 && (body.data?.[c.mutation] ?? null) === null;
        if (refused && writes.length > 0) fail(`refused but wrote: ${writes.join(', ')}`);
      }
    }
    expect({ count: failures.length, first: failures.slice(0, 8) }).toEqual({ count: 0, first: [] });
    expect(executed).toBeGreaterThan(0);
  },
  BUDGET_MS,
);
