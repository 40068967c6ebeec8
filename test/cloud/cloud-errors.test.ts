import { JobStatus } from '../../src/core/job-status.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import type { Envelope } from '../helpers/envelope.js';
import { eventually } from '../helpers/eventually.js';
import { simulatedCloud } from '../helpers/simulated-cloud.js';
import { createTenant } from '../factories/shared.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';
import { syncAndWait } from '../helpers/tenant-sync.js';

/**
 * A throttled or failing cloud (a CloudError Throttled/Transient, src/cloud/cloud-error.ts) is an upstream
 * outage: a request answers 503 SERVICE_UNAVAILABLE with the cloud's Retry-After on REST and GraphQL alike,
 * nothing written; a job is retried after that Retry-After and completes.
 */
let app: SharedApp;
let org: OrganizationWithKeys;
let tenant: Tenant;

beforeAll(async () => ({ app, org, tenant } = await sharedSuite({ tenant: true, jobs: true })));
afterAll(() => app.stop());
afterEach(() => simulatedCloud(app).faults.clear());

const newUser = (upn: string) => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  userPrincipalName: `${upn}@${tenant.domain}`,
  password: 'Correct-Horse-42',
});

async function userCount(): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    'select count(*)::int as n from users where tenant_id = $1',
    [tenant.id],
  );
  return rows[0].n;
}

describe('a throttled cloud in a request', () => {
  it('REST: 503 SERVICE_UNAVAILABLE with the Retry-After the cloud sent; nothing created', async () => {
    const before = await userCount();
    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', {
      kind: 'Throttled',
      retryAfterSeconds: 17,
    });
    const res = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser('throttled.rest'),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(res.body.error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retryAfterSeconds: 17, upstream: 'cloud' },
    });
    expect(await userCount()).toBe(before);

    // The cloud answers again: the same request goes through.
    const again = await app.request('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser('throttled.rest'),
    });
    expect(again.status).toBe(201);
  });

  it('GraphQL: extensions.code SERVICE_UNAVAILABLE, HTTP 503 with Retry-After; a Transient fault too', async () => {
    const CREATE = `mutation($t: UUID!, $input: CreateUserInput!) {
      createUser(tenantId: $t, input: $input) { id }
    }`;
    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', {
      kind: 'Throttled',
      retryAfterSeconds: 9,
    });
    const res = await app.graphql(org.keys.write, CREATE, { t: tenant.id, input: newUser('throttled.gql') });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('9');
    expect(res.body.errors?.[0].extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: { retryAfterSeconds: 9 },
    });

    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', { kind: 'Transient' });
    const failing = await app.graphql(org.keys.write, CREATE, {
      t: tenant.id,
      input: newUser('transient.gql'),
    });
    expect(failing.status).toBe(503);
    expect(failing.body.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(failing.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('a cloud that says no in a request: one mapping for every feature (core/errors.ts appErrorOfCloud)', () => {
  it("Refused: REST 409 CONFLICT with the cloud's reason, nothing created", async () => {
    const before = await userCount();
    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', {
      kind: 'Refused',
      message: 'The upstream cloud refused the user: the domain is not verified',
    });
    const res = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser('refused.rest'),
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'CONFLICT',
      message: 'The upstream cloud refused the user: the domain is not verified',
      details: { upstream: 'cloud', reason: 'CLOUD_REFUSED', externalId: tenant.externalId },
    });
    expect(await userCount()).toBe(before);
  });

  it("Forbidden (the app's own permission): 403 naming the cloud connection, nothing created", async () => {
    const before = await userCount();
    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', {
      kind: 'Forbidden',
      message: 'The upstream cloud refused to create users',
    });
    const res = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser('forbidden.rest'),
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: { upstream: 'cloud', reason: 'CLOUD_PERMISSION_MISSING', externalId: tenant.externalId },
    });
    expect(res.body.error?.message).toMatch(
      /^The upstream cloud refused to create users\. .*cloud-connection/,
    );
    expect(await userCount()).toBe(before);
  });

  it('NotFound: GraphQL NOT_FOUND (HTTP 404 on REST), nothing created', async () => {
    const CREATE = `mutation($t: UUID!, $input: CreateUserInput!) { createUser(tenantId: $t, input: $input) { id } }`;
    const before = await userCount();
    simulatedCloud(app).faults.inject(tenant.externalId, 'directory.createUser', {
      kind: 'NotFound',
      times: 2,
      message: 'The upstream cloud has no tenant any more',
    });
    const res = await app.graphql(org.keys.write, CREATE, { t: tenant.id, input: newUser('gone.gql') });
    expect(res.body.errors?.[0]).toMatchObject({
      message: 'The upstream cloud has no tenant any more',
      extensions: { code: 'NOT_FOUND', details: { upstream: 'cloud' } },
    });
    const rest = await app.request<Envelope<unknown>>('POST', `/v1/tenants/${tenant.id}/users`, {
      key: org.keys.write,
      body: newUser('gone.rest'),
    });
    expect(rest.status).toBe(404);
    expect(await userCount()).toBe(before);
  });
});

describe('a throttled cloud in a job', () => {
  it('the tenant sync is retried after the Retry-After and completes', async () => {
    const own: Tenant = await createTenant(app, org.scope, { domain: 'throttled-sync.example' });
    simulatedCloud(app).faults.inject(own.externalId, 'directory.listUsers', {
      kind: 'Throttled',
      retryAfterSeconds: 4, // longer than graphile-worker's first backoff (e ≈ 2.7 s)
    });
    const started = Date.now();
    const sync = await syncAndWait(app, org, own.id, 30_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    expect(sync.status).toBe(JobStatus.COMPLETED);
    expect(sync.error).toBeNull();
    const { rows } = await app.pool.query<{ run_attempts: number }>(
      'select run_attempts from tenant_syncs where id = $1',
      [sync.id],
    );
    expect(rows[0].run_attempts).toBe(1); // the throttled run was not counted as one that died
    expect(sync.summary).toMatchObject({ usersCreated: expect.any(Number) });
  }, 40_000);

  it('gives up visibly after the queue attempts when the cloud stays throttled', async () => {
    const own: Tenant = await createTenant(app, org.scope, { domain: 'always-throttled.example' });
    simulatedCloud(app).faults.inject(own.externalId, 'directory.listUsers', {
      kind: 'Throttled',
      retryAfterSeconds: 0,
      times: 100,
      message: 'Too many requests',
    });
    const started = await app.request<Envelope<{ id: string }>>('POST', `/v1/tenants/${own.id}/sync`, {
      key: org.keys.write,
    });
    // Five attempts with graphile-worker's backoff (e, e², e³, e⁴ s) would take a minute and a half: once the
    // first attempt failed, the job is moved to its last attempt, whose failure is recorded.
    const job = `payload->>'syncId' = $1`;
    await eventually(
      async () => {
        const { rows } = await app.pool.query<{ attempts: number; locked_by: string | null }>(
          `select attempts, locked_by from graphile_worker._private_jobs where ${job}`,
          [started.body.data.id],
        );
        expect(rows[0]).toMatchObject({ attempts: 1, locked_by: null });
      },
      { timeout: 20_000, what: 'the first attempt to fail' },
    );
    await app.pool.query(
      `update graphile_worker._private_jobs set attempts = max_attempts - 1, run_at = now() where ${job}`,
      [started.body.data.id],
    );
    await eventually(
      async () => {
        const { rows } = await app.pool.query<{ status: string; error: string | null }>(
          'select status, error from tenant_syncs where id = $1',
          [started.body.data.id],
        );
        expect(rows[0]).toMatchObject({
          status: JobStatus.FAILED,
          error: expect.stringMatching(/^Gave up after \d+ attempts: Too many requests/),
        });
      },
      { timeout: 20_000, what: 'the sync to give up' },
    );
  }, 30_000);
});
