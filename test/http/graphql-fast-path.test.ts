import { randomUUID } from 'node:crypto';
/**
 * /graphql's fast path (src/http/graphql-fast-path.ts, issue #31): a query document Apollo has run before is
 * answered without Apollo's per-request pipeline, and the answer must be the one Apollo gives. Each request is
 * sent twice on one server: the first time its document is new, so Apollo answers; the second time the fast
 * path takes it (and answers, or hands it back to Apollo when it is not plain success). Status, headers and the
 * body's bytes must be the same, over every document of the REST routes' reads and the cases the fast path
 * hands back (refusals, wrong variables, errors in the result).
 */
import { parse, type OperationDefinitionNode } from 'graphql';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { LIST_USERS } from '../../src/users/user.rest.js';
import { createSku, createUser, giveLicense } from '../factories/shared.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

// The worker's shared server: its executor knows the documents earlier files sent to /graphql, so every text this
// file sends ends with a comment of its own (`post`): new to the server, Apollo answers its first request.
let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
beforeAll(async () => {
  ({ app, org, tenant } = await sharedSuite({ tenant: true }));
  const sku = await createSku(app, tenant, { skuPartNumber: 'FASTPATH_E3', total: 5 });
  for (let index = 0; index < 3; index++) {
    const user = await createUser(app, tenant, { lastName: `Fast${index}` });
    if (index > 0) await giveLicense(app, tenant, user, sku);
  }
});
afterAll(() => app?.stop());

/** Headers that differ between any two requests (the request id, the clock, the rate-limit count). */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  text: string;
  remaining: number;
}

/** Ends every document this file sends: a comment, which changes no answer, makes the text the file's own. */
const OWN_TEXT = `\n# graphql-fast-path ${randomUUID()}`;

async function post(key: string, body: object, headers: Record<string, string> = {}): Promise<Answer> {
  const { query } = body as { query?: unknown };
  const response = await fetch(`${app.baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(typeof query === 'string' ? { ...body, query: `${query}${OWN_TEXT}` } : body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_REQUEST.has(name)),
    text,
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
  };
}

/**
 * Sends `body` twice: Apollo answers the first, the second goes the fast path's way. Returns both answers and
 * whether the fast path answered the second itself.
 */
async function bothWays(key: string, body: object, headers: Record<string, string> = {}) {
  const apollo = await post(key, body, headers);
  // The fast path's count of answers is the server's (its module in the worker's realm).
  const before = await onServer(app, 'fastPathAnswers');
  const fast = await post(key, body, headers);
  const answeredFast = (await onServer(app, 'fastPathAnswers')) === before + 1;
  expect({ status: fast.status, headers: fast.headers, text: fast.text }).toStrictEqual({
    status: apollo.status,
    headers: apollo.headers,
    text: apollo.text,
  });
  return { apollo, fast, answeredFast };
}

const operationOf = (document: string) =>
  parse(document).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition',
  )!;

it('answers every REST read document the same way, the fast path answering those that succeed', async () => {
  const documents = [
    ...new Set((await onServer(app, 'restRoutes')).filter((r) => r.method === 'GET').map((r) => r.operation)),
  ];
  let answered = 0;
  for (const document of documents) {
    const operation = operationOf(document);
    if (operation.operation !== 'query') continue;
    // Required UUIDs: the tenant for `tenantId`, an unknown id otherwise (a "not found" in the result's errors).
    const variables: Record<string, unknown> = {};
    for (const definition of operation.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      if (definition.type.kind !== 'NonNullType' || definition.defaultValue) continue;
      variables[name] = name === 'tenantId' ? tenant.id : '00000000-0000-4000-8000-000000000000';
    }
    const { fast, answeredFast } = await bothWays(org.keys.admin, { query: document, variables });
    const succeeded = fast.status === 200 && !(JSON.parse(fast.text) as { errors?: unknown }).errors;
    expect({ document, answeredFast }).toEqual({ document, answeredFast: succeeded });
    if (answeredFast) answered++;
  }
  expect(answered).toBeGreaterThan(10);
});

it('gives the users list the same bytes, and charges a costly query once, as Apollo does', async () => {
  const list = { query: LIST_USERS, variables: { tenantId: tenant.id, limit: 100 } };
  const { fast: page, answeredFast: listFast } = await bothWays(org.keys.read, list);
  expect(listFast).toBe(true);
  expect((JSON.parse(page.text) as { data: { users: { items: unknown[] } } }).data.users.items).toHaveLength(
    3,
  );
  // Eight pages of 100 users: a cost of more than one rate point (QUERY_LIMITS.costPerRatePoint). The last page
  // reads `$other`'s users: another tenant than the caller's gives one error (below).
  const pages = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(
    (alias) =>
      `${alias}: users(tenantId: ${alias === 'h' ? '$other' : '$tenantId'}, limit: 100) { items { id displayName licenses } }`,
  );
  const query = `query Costly($tenantId: UUID!, $other: UUID!) { ${pages.join(' ')} }`;
  const costly = { query, variables: { tenantId: tenant.id, other: tenant.id } };
  const { apollo, fast, answeredFast } = await bothWays(org.keys.read, costly);
  expect(answeredFast).toBe(true);
  const third = await post(org.keys.read, costly);
  // Each request costs the same points whichever way it went (remaining counts down by the same step).
  expect(apollo.remaining - fast.remaining).toBe(fast.remaining - third.remaining);
  expect(apollo.remaining - fast.remaining).toBeGreaterThan(1);
  // Handed back to Apollo after it charged (an unknown tenant: an error in the result), charged once too.
  const unknown = {
    query,
    variables: { tenantId: tenant.id, other: '00000000-0000-4000-8000-000000000002' },
  };
  const refused = await bothWays(org.keys.read, unknown);
  expect(refused.answeredFast).toBe(false);
  // Apollo answered from the result the fast path computed: the pages were read once, not twice.
  const once = await app.sql.statementsDuring(() => post(org.keys.read, unknown));
  const apolloAlone = await app.sql.statementsDuring(
    () => post(org.keys.read, { ...unknown, query: `${query} ` }), // a new text: Apollo alone, the first time
  );
  expect(once).toHaveLength(apolloAlone.length);
  expect(refused.apollo.remaining - refused.fast.remaining).toBe(apollo.remaining - fast.remaining);
});

it('answers the same with operation names, defaults, aliases, fragments and Accept headers', async () => {
  const document = /* GraphQL */ `
    query Typename {
      __typename
    }
    query Named($tenantId: UUID!, $limit: Int = 2) {
      first: users(tenantId: $tenantId, limit: $limit) {
        items {
          ...U
        }
        pageInfo {
          total
        }
      }
      again: users(tenantId: $tenantId, limit: 1) {
        items {
          ...U
        }
      }
    }
    fragment U on User {
      id
      displayName
      licenses
    }
  `;
  for (const operationName of ['Typename', 'Named'])
    expect(
      (await bothWays(org.keys.read, { query: document, operationName, variables: { tenantId: tenant.id } }))
        .answeredFast,
    ).toBe(true);
  const accept = { accept: 'application/graphql-response+json' };
  const other = `${document} `; // another text: Apollo answers it first
  expect(
    (await bothWays(org.keys.read, { query: other, operationName: 'Typename' }, accept)).answeredFast,
  ).toBe(true);
  // An Accept that Apollo refuses (406), and a document without the operation named: Apollo's answers.
  expect(
    (await bothWays(org.keys.read, { query: other, operationName: 'Typename' }, { accept: 'text/csv' }))
      .answeredFast,
  ).toBe(false);
  expect((await bothWays(org.keys.read, { query: other, operationName: 'Missing' })).answeredFast).toBe(
    false,
  );
});

it('leaves to Apollo what is not plain success, with the same answer', async () => {
  const body = (variables: Record<string, unknown>) => ({ query: LIST_USERS, variables });
  await post(org.keys.read, body({ tenantId: tenant.id })); // the document is known from now on
  const cases: Array<[string, Record<string, unknown>]> = [
    ['a variable of the wrong type', { tenantId: tenant.id, limit: 'ten' }],
    ['a rule of an argument', { tenantId: tenant.id, limit: 1000 }],
    ['a missing variable', {}],
    ['a tenant not found (an error in the result)', { tenantId: '00000000-0000-4000-8000-000000000001' }],
    ['unsafe text', { tenantId: tenant.id, page: 1, limit: 5, extra: 'a\u0000b' }],
  ];
  for (const [, variables] of cases)
    expect((await bothWays(org.keys.read, body(variables))).answeredFast).toBe(false);
  // Permission before input: a key without the permission is refused by the same hook either way.
  const adminOnly = /* GraphQL */ `
    query Keys {
      apiKeys(limit: 5) {
        items {
          id
        }
      }
    }
  `;
  await post(org.keys.admin, { query: adminOnly });
  expect((await bothWays(org.keys.read, { query: adminOnly })).answeredFast).toBe(false);
  // Mutations and bodies Apollo reads its own way never take the fast path.
  expect(
    (await bothWays(org.keys.read, { query: LIST_USERS, variables: { tenantId: tenant.id }, extensions: {} }))
      .answeredFast,
  ).toBe(false);
});
