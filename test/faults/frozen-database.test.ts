/**
 * Fault suite (docs/reliability.md; issue #34 item 4): PostgreSQL frozen under a running server (a loopback
 * proxy that stops forwarding, as SIGSTOP does). Every request answers within a few seconds: REST and GraphQL
 * 503 SERVICE_UNAVAILABLE with Retry-After, /health/ready "not ready" within 2 s; a key never seen before
 * (authentication needs the database) too. Thawed, the same server serves again.
 */
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';
import { FreezableProxy } from './tcp-proxy.js';

let proxy: FreezableProxy;
/** The server, built in the worker's realm (realm-suite.ts), on the database through the proxy. */
let app: RealmApp;
let org: OrganizationWithKeys;

beforeAll(async () => {
  const direct = await createTestDatabase();
  const { hostname, port } = new URL(direct);
  proxy = await FreezableProxy.start({ host: hostname, port: Number(port) });
  app = await realmApp({ databaseUrl: proxy.urlFor(direct) });
  org = await createOrganizationWithKeys(app);
}, 60_000);
afterAll(async () => {
  proxy?.thaw();
  await app?.stop();
  await proxy?.stop();
});

async function timed<T>(work: Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = Date.now();
  const answer = await work;
  return { answer, ms: Date.now() - started };
}

function expectUnavailable(response: ApiResponse<unknown>): void {
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
}

describe('[fault] frozen database', () => {
  it('answers 503 within 5 s and "not ready" within 2 s while PostgreSQL does not answer, then serves again', async () => {
    // Warm: the read key is cached, pooled connections are open (the freeze catches them idle).
    expect((await app.request('GET', '/v1/tenants', { key: org.keys.read })).status).toBe(200);
    expect((await app.graphql(org.keys.read, '{ tenants { items { id } } }')).status).toBe(200);

    proxy.freeze();
    try {
      const [ready, rest, graphql, unseenKey] = await Promise.all([
        timed(app.request<{ status: string; reason: string }>('GET', '/health/ready')),
        timed(app.request<Envelope>('GET', '/v1/tenants', { key: org.keys.read })),
        timed(app.graphql(org.keys.read, '{ tenants { items { id } } }')),
        // Never used before: authentication itself waits for the database.
        timed(app.request<Envelope>('GET', '/v1/tenants', { key: org.keys.write })),
      ]);
      expect(ready.answer.status).toBe(503);
      expect(ready.answer.body).toEqual({ status: 'unavailable', reason: 'database unreachable' });
      expect(ready.ms).toBeLessThan(2_000);

      for (const { answer, ms } of [rest, unseenKey]) {
        expectUnavailable(answer);
        expect(answer.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
        expect(ms).toBeLessThan(5_000);
      }
      expectUnavailable(graphql.answer);
      expect(graphql.answer.body.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(graphql.answer.body)).not.toMatch(/stacktrace|node_modules/);
      expect(graphql.ms).toBeLessThan(5_000);
    } finally {
      proxy.thaw();
    }

    await eventually(
      async () => expect((await app.request('GET', '/v1/tenants', { key: org.keys.write })).status).toBe(200),
      { timeout: 15_000, interval: 100, what: 'the same server to serve again' },
    );
    expect((await app.request('GET', '/health/ready')).status).toBe(200);
  }, 60_000);
});
