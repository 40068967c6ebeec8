/**
 * Fault suite (docs/reliability.md): the server's database stops under a running server, then comes back.
 * Meanwhile REST and GraphQL answer 503 SERVICE_UNAVAILABLE with Retry-After, new WebSocket connections
 * are closed with 1013, and /health/ready says 503 without naming the database; afterwards the same
 * server serves again without a restart.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded-postgres.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { realmApp, type RealmApp } from '../helpers/realm-suite.js';
import { freePort } from '../helpers/server-process.js';

const dataDir = path.resolve('.data', `faults-outage-${process.pid}`);
let port: number;
let database: EmbeddedDatabase;
/** The server on that cluster, built in the worker's realm (realm-suite.ts): it migrates the database too. */
let app: RealmApp;
let org: OrganizationWithKeys;

async function startDatabase(): Promise<EmbeddedDatabase> {
  return startEmbeddedPostgres({ dataDir, port, database: 'outage', fast: true });
}

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  port = await freePort();
  database = await startDatabase();
  // The server is started on the database once migrated (its listener and job tables exist by then).
  app = await realmApp({ databaseUrl: database.url, migrate: true });
  org = await createOrganizationWithKeys(app);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await database?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

function webSocketCloseCode(key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    socket.on('open', () =>
      socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })),
    );
    socket.on('close', (code) => resolve(code));
    socket.on('error', reject);
  });
}

describe('[fault] database outage', () => {
  it('answers 503 with Retry-After while PostgreSQL is stopped, and serves again once it is back', async () => {
    expect((await app.request('GET', '/v1/tenants', { key: org.keys.read })).status).toBe(200);
    await database.stop();

    // A key never seen before (nothing cached): authentication itself needs the database.
    const rest = await app.request<Envelope>('GET', '/v1/tenants', { key: org.keys.write });
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(rest.body).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });

    // A cached key gets past authentication; the query fails at the database, inside GraphQL.
    const graphql = await app.graphql(org.keys.read, '{ tenants { items { id } } }');
    expect(graphql.status).toBe(503);
    expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(graphql.body.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');

    const ready = await app.request<{ status: string; reason: string }>('GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(JSON.stringify(ready.body)).not.toMatch(/127\.0\.0\.1|ECONN|connect|postgres|\d{4,5}/i);

    expect(await webSocketCloseCode(org.keys.admin)).toBe(1013);

    database = await startDatabase();
    await eventually(
      async () => expect((await app.request('GET', '/v1/tenants', { key: org.keys.read })).status).toBe(200),
      { timeout: 30_000, interval: 50, what: 'the same server to serve again' },
    );
    expect((await app.request('GET', '/health/ready')).status).toBe(200);
  }, 120_000);
});
