/**
 * The REST dispatch table (rest-adapter/dispatch.ts, issue #31 goal 2): a GET a REST route serves is taken in front
 * of Express's routers, with the same steps and handler. Two servers on one database, one with the table and one
 * without (`restDispatch: false`), are sent the same requests: status, headers (but the request id, the date and the
 * rate-limit count) and the body's bytes must be the same, and so must the request-log line (but the duration and
 * the request id), over every REST read route under each of its mounts and the cases around them (refusals, bad
 * input, errors, spellings the table leaves to Express).
 * The server without the table also runs every document through graphql-jit (`restLeanRuns: false`), the other
 * through the document's plan where it has one (src/core/lean-plan/lean-run.ts): the same comparison proves the plans give
 * the same bytes.
 */
import type { RequestLogFields } from '../../src/http/request-log.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { createSku, createUser, giveLicense } from '../factories/shared.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { captureLogLines, type LogLines } from '../helpers/log-lines.js';
import { onServer } from '../helpers/on-server.js';
import { realmApp, realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import type { RouteData } from '../helpers/server-side-lean.js';

// Both servers are built in the worker's realm (realm-suite.ts): the file evaluates none of the app's modules;
// the counters and route tables are the servers' (server-side-lean.ts).
const dispatchedLog = captureLogLines();
const expressLog = captureLogLines();
let dispatched: RealmApp;
let express: RealmApp;
let org: OrganizationWithKeys;
let tenant: Tenant;
let userId: string;
let tables: { versioned: RouteData[]; features: RouteData[] };
beforeAll(async () => {
  // Unlimited: the same org makes some 700 requests in one window of the test clock.
  ({
    app: dispatched,
    org,
    tenant,
  } = await realmSuite({
    tenant: true,
    logger: dispatchedLog.logger,
    organization: { plan: Plan.CUSTOM, customRateLimitPerMinute: null },
  }));
  express = await realmApp({
    databaseUrl: dispatched.databaseUrl,
    restDispatch: false,
    restLeanRuns: false,
    logger: expressLog.logger,
  });
  const sku = await createSku(dispatched, tenant, { skuPartNumber: 'DISPATCH_E3', total: 5 });
  for (let index = 0; index < 3; index++) {
    const user = await createUser(dispatched, tenant, { lastName: `Dispatch${index}` });
    if (index > 0) await giveLicense(dispatched, tenant, user, sku);
    userId = user.id;
  }
  tables = await onServer(dispatched, 'routeTables');
});
afterAll(async () => {
  await express?.stop();
  await dispatched?.stop();
});

/** Both servers are in this process: the counters are the process's, the dispatched server's alone counting. */
const restDispatchTaken = () => onServer(dispatched, 'restDispatchCount');
const leanRunCounts = () => onServer(dispatched, 'restLeanRunCounts');

/** Headers that differ between any two requests (the request id, the clock, the rate-limit count). */
const PER_REQUEST = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

interface Answer {
  status: number;
  headers: Array<[string, string]>;
  text: string;
  log: Omit<RequestLogFields, 'durationMs' | 'requestId'> | undefined;
}

async function send(
  app: RealmApp,
  log: LogLines,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const before = log.lines.length;
  const response = await fetch(`${app.baseUrl}${path}`, { method, headers });
  const text = await response.text();
  const fields = await log.requestLine(before);
  return {
    status: response.status,
    headers: [...response.headers].filter(([name]) => !PER_REQUEST.has(name)),
    text,
    log: fields,
  };
}

/** Sends the request to both servers; returns the answer and whether the table took it. */
async function bothWays(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const viaExpress = await send(express, expressLog, method, path, headers);
  const before = await restDispatchTaken();
  const viaTable = await send(dispatched, dispatchedLog, method, path, headers);
  const taken = (await restDispatchTaken()) - before;
  expect({ path, ...viaTable }).toStrictEqual({ path, ...viaExpress });
  return { answer: viaTable, taken: taken === 1 };
}

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The route's path with its parameters filled: the tenant for a tenant's `:id`, an unknown id otherwise. */
function pathOf(route: RouteData): string {
  return route.path.replace(/:(\w+)/g, (_match, name: string, offset: number) =>
    name === 'id' && route.path.startsWith('/tenants/') && offset === '/tenants/'.length
      ? tenant.id
      : UNKNOWN,
  );
}

const reads = (routes: readonly RouteData[]) => routes.filter((route) => route.method === 'GET');

it('answers every REST read route under each mount the same way, the table taking each', async () => {
  const mounts: Array<[string, readonly RouteData[]]> = [
    ['/v1', tables.versioned],
    ['/api', tables.features],
    ['/v1/api', tables.features],
  ];
  const statuses = new Set<number>();
  let routes = 0;
  const lean = await leanRunCounts();
  for (const [mount, table] of mounts) {
    for (const route of reads(table)) {
      const headers: Record<string, string> = { authorization: `Bearer ${org.keys.admin}` };
      if (route.tenant) headers['x-tenant-id'] = tenant.id;
      const { answer, taken } = await bothWays(`${mount}${pathOf(route)}`, headers);
      expect({ route: `${mount}${route.path}`, taken }).toEqual({
        route: `${mount}${route.path}`,
        taken: !route.csvBody,
      });
      statuses.add(answer.status);
      routes++;
    }
  }
  expect(routes).toBeGreaterThan(60);
  // Most documents have a plan, and none of these answers needed graphql-jit after all.
  const after = await leanRunCounts();
  expect(after.answered - lean.answered).toBeGreaterThan(80);
  expect(after.handedBack).toBe(lean.handedBack);
  expect(statuses).toContain(200);
  expect(statuses).toContain(404);
}, 180_000); // some 300 requests: ~10 s on a quiet machine

it('gives the users list the same bytes with pages, licenses and query parameters', async () => {
  const auth = { authorization: `Bearer ${org.keys.read}` };
  const before = await leanRunCounts();
  for (const query of ['', '?limit=2', '?limit=2&page=2', '?page=1&limit=100']) {
    const { answer, taken } = await bothWays(`/v1/tenants/${tenant.id}/users${query}`, auth);
    expect({ status: answer.status, taken }).toEqual({ status: 200, taken: true });
  }
  const { answer } = await bothWays(`/v1/tenants/${tenant.id}/users/${userId}`, auth);
  expect(answer.status).toBe(200);
  expect(answer.log?.route).toBe('/v1/tenants/:id/users/:userId');
  // Both documents have a plan, and every answer came from it (none handed back to graphql-jit).
  const after = await leanRunCounts();
  expect({
    answered: after.answered - before.answered,
    handedBack: after.handedBack - before.handedBack,
  }).toEqual({
    answered: 5,
    handedBack: 0,
  });
});

it('answers refusals, bad input and errors the same way', async () => {
  const users = `/v1/tenants/${tenant.id}/users`;
  const auth = { authorization: `Bearer ${org.keys.read}` };
  const cases: Array<[string, Record<string, string>, number]> = [
    [users, {}, 401], // no credentials: the guard refuses before any route
    [users, { authorization: 'Bearer svc_sk_test_not-a-real-key' }, 401],
    [`${users}?limit=0`, auth, 400],
    [`${users}?limit=abc&page=x`, auth, 400],
    [`${users}?limit=1&limit=2`, auth, 400],
    [`${users}?unknown=1`, auth, 400],
    [`${users}?limit[a]=1`, auth, 400],
    ['/v1/tenants/not-a-uuid/users', auth, 404],
    [`/v1/tenants/${UNKNOWN}/users`, auth, 404],
    [`/v1/tenants/${tenant.id}/users/${UNKNOWN}`, auth, 404],
    [`/v1/tenants/${tenant.id}/users?${'x'.repeat(9000)}=1`, auth, 400], // the URL length limit
  ];
  for (const [path, headers, status] of cases) {
    const { answer, taken } = await bothWays(path, headers);
    expect({ path, status: answer.status, taken }).toEqual({ path, status, taken: true });
  }
  // A route the key's level may not call (403 before the input is read): the API keys list needs Admin.
  const { answer, taken } = await bothWays('/api/settings/api-keys?limit=abc', auth);
  expect({ status: answer.status, taken }).toEqual({ status: 403, taken: true });
});

it('leaves other spellings, methods and unknown paths to Express, which answers them as before', async () => {
  const auth = { authorization: `Bearer ${org.keys.read}` };
  const untaken: Array<[string, string]> = [
    ['GET', `/V1/tenants/${tenant.id}/users`], // another spelling of the mount
    ['GET', `/v1/tenants/%ff/users`], // a parameter that cannot be decoded
    ['GET', '/v1/no-such-route'],
    ['GET', '/v1/tenants/a/b/c/d/e/f'],
    ['HEAD', `/v1/tenants/${tenant.id}/users`],
    ['OPTIONS', `/v1/tenants/${tenant.id}/users`],
  ];
  for (const [method, path] of untaken) {
    const { taken } = await bothWays(path, auth, method);
    expect({ method, path, taken }).toEqual({ method, path, taken: false });
  }
  // A trailing slash and another case after the mount are the router's to match, as Express does.
  for (const path of [`/v1/tenants/${tenant.id}/users/`, `/v1/Tenants/${tenant.id}/USERS`]) {
    const { answer, taken } = await bothWays(path, auth);
    expect({ path, status: answer.status, taken }).toEqual({ path, status: 200, taken: true });
  }
});
