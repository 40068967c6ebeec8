import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { CLIENT_TYPES_FILE, printClientTypes } from '../../clients/typescript/generate.js';
import {
  ApiError,
  createMspClient,
  paginate,
  retryAfterSeconds,
  unwrap,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '../../clients/typescript/src/index.js';
import { OPENAPI_FILE } from '../../rest-adapter/openapi/file.js';
import { listEveryTenantsUsers } from '../../examples/list-tenant-users.js';
import { startWebhookReceiver } from '../../examples/webhook-receiver.js';
import {
  createOrganizationWithKeys,
  createTenant,
  createUser,
  type OrganizationWithKeys,
} from '../factories/shared.js';
import { assertMatchesOpenApi } from '../helpers/openapi-validator.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { Plan } from '../../src/organizations/organization.enums.js';
import { eventually } from '../helpers/eventually.js';

/** The generated TypeScript client (clients/typescript) against a live server on a loopback port. */
let app: SharedApp;
let org: OrganizationWithKeys;

/** The client's calls are checked against the document too, like TestApp.request's. */
const validatingFetch = async (request: Request): Promise<Response> => {
  const response = await fetch(request);
  const text = await response.clone().text();
  assertMatchesOpenApi({
    method: request.method,
    url: request.url,
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : null,
  });
  return response;
};
const clientFor = (token: string) => createMspClient({ baseUrl: app.baseUrl, token, fetch: validatingFetch });

beforeAll(async () => {
  ({ app, org } = await sharedSuite({ jobs: true, webhooks: { allowPrivateTargets: true } }));
}, 60_000);
afterAll(() => app.stop());

it('has types generated from the checked-in document (run `npm run schema:emit` when stale)', async () => {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as object;
  expect(readFileSync(CLIENT_TYPES_FILE, 'utf8')).toBe(await printClientTypes(document));
}, 60_000);

it('reads typed envelopes and walks every page; the example lists every tenant’s users', async () => {
  const tenants = [await createTenant(app, org.scope), await createTenant(app, org.scope)];
  for (let i = 0; i < 5; i++) await createUser(app, tenants[0]);
  await createUser(app, tenants[1]);
  const client = clientFor(org.keys.read);

  const tenant = unwrap(await client.GET('/v1/tenants/{id}', { params: { path: { id: tenants[0].id } } }));
  expect(tenant.data.id).toBe(tenants[0].id);

  const users = [];
  for await (const user of paginate((page) =>
    client.GET('/v1/tenants/{id}/users', {
      params: { path: { id: tenants[0].id }, query: { page, limit: 2 } },
    }),
  ))
    users.push(user.id);
  expect(users).toHaveLength(5);
  expect(new Set(users).size).toBe(5);

  const listed = await listEveryTenantsUsers(client, 2);
  expect(listed.map((entry) => [entry.tenant.id, entry.users.length]).sort()).toEqual(
    [
      [tenants[0].id, 5],
      [tenants[1].id, 1],
    ].sort(),
  );
});

it('throws typed errors: code, status, field problems and the request id', async () => {
  const read = clientFor(org.keys.read);
  const missing = await read.GET('/v1/tenants/{id}', { params: { path: { id: randomUUID() } } });
  expect(missing.error?.error.code).toBe('NOT_FOUND');
  expect(() => unwrap(missing)).toThrow(ApiError);
  const notFound = catchApiError(() => unwrap(missing));
  expect([notFound.status, notFound.code, notFound.requestId !== null]).toEqual([404, 'NOT_FOUND', true]);

  const refused = await read.POST('/v1/webhooks', {
    body: { url: 'https://hooks.example.com/x', events: ['*'] },
  });
  expect(catchApiError(() => unwrap(refused)).code).toBe('FORBIDDEN');

  const admin = clientFor(org.keys.admin);
  const invalid = await admin.POST('/v1/webhooks', { body: { url: 'not a url', events: ['*'] } });
  const error = catchApiError(() => unwrap(invalid));
  expect([error.status, error.code]).toEqual([400, 'INVALID_REQUEST']);
  expect(error.fields.map((f) => f.field)).toContain('url');
});

it('waits what Retry-After says on a 429 and tries again, then gives up after maxRetries', async () => {
  const limited = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM, customRateLimitPerMinute: 2 });
  const slept: number[] = [];
  const client = createMspClient({
    baseUrl: app.baseUrl,
    token: limited.keys.read,
    maxRetries: 2,
    sleep: async (ms) => void slept.push(ms),
  });
  for (let i = 0; i < 2; i++) unwrap(await client.GET('/v1/tenants'));
  const refused = await client.GET('/v1/tenants');
  const error = catchApiError(() => unwrap(refused));
  expect([error.status, error.code]).toEqual([429, 'RATE_LIMITED']);
  const retryAfter = Number(refused.response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(slept).toHaveLength(2); // two waits, three attempts, each answered 429 by the server
  for (const ms of slept) expect(ms).toBe(Math.min(retryAfter, 60) * 1000);

  // A 429 followed by a success: the caller only sees the success.
  const attempts: number[] = [];
  const flaky = createMspClient({
    baseUrl: app.baseUrl,
    token: org.keys.read,
    sleep: async () => undefined,
    fetch: async (request) => {
      attempts.push(attempts.length);
      if (attempts.length === 1) return new Response('{}', { status: 429, headers: { 'retry-after': '3' } });
      return validatingFetch(request);
    },
  });
  expect(unwrap(await flaky.GET('/v1/tenants')).success).toBe(true);
  expect(attempts).toHaveLength(2);
  expect(
    retryAfterSeconds('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
  ).toBe(30);
});

it('verifies a real delivery with the standardwebhooks verifier (the example receiver), and refuses a changed one', async () => {
  const events: WebhookEvent[] = [];
  const admin = clientFor(org.keys.admin);
  // The receiver needs the secret the creation answers: create with a placeholder address, then point it there.
  const webhook = unwrap(
    await admin.POST('/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook', events: ['webhook.test'] } }),
  ).data;
  const secret = webhook.secret!;
  const receiver = await startWebhookReceiver({ secret, onEvent: (event) => events.push(event) });
  try {
    const path = { params: { path: { id: webhook.id } } };
    unwrap(await admin.PATCH('/v1/webhooks/{id}', { ...path, body: { url: receiver.url } }));
    unwrap(await admin.POST('/v1/webhooks/{id}/test', path));
    await eventually(() => expect(events.map((event) => event.event)).toEqual(['webhook.test']), {
      timeout: 20_000,
      what: 'the test event at the receiver',
    });
  } finally {
    await receiver.close();
  }
  const body = JSON.stringify({ event: 'webhook.test' });
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
  expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-signature': 'v1,AAAA' })).toThrow(
    WebhookVerificationError,
  );
}, 60_000);

function catchApiError(action: () => unknown): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
