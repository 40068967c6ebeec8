import { Plan } from '../../src/organizations/organization.entity.js';
import { createOrganizationWithKeys, type OrganizationWithKeys } from '../factories/shared.js';
import { realmApp, realmSuite, type RealmApp } from '../helpers/realm-suite.js';
import { commitEvent, createWebhook, waitForDeliveries } from '../webhooks/webhook-kit.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

const TOKEN = 'metrics-test-token';

let app: RealmApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  ({ app, org } = await realmSuite({
    jobs: true,
    metricsToken: TOKEN,
    webhooks: { allowPrivateTargets: true },
  }));
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
});

async function scrape(): Promise<string> {
  const res = await app.request<string>('GET', '/metrics', { key: TOKEN });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.body;
}

/** The value of one sample (`name{labels}`), 0 when absent; labels must match exactly those given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([label, value]) => `${label}="${value}"`)
    .sort();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=\w+=")/).filter(Boolean);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

describe('GET /metrics', () => {
  it('is refused without the token, or with another one (401), and answers with it', async () => {
    expect((await app.request('GET', '/metrics')).status).toBe(401);
    expect((await app.request('GET', '/metrics', { key: 'wrong' })).status).toBe(401);
    expect((await app.request('GET', '/metrics', { key: org.keys.admin })).status).toBe(401);
    const text = await scrape();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('does not exist on a server started without METRICS_TOKEN', async () => {
    const plain = await realmApp({ databaseUrl: app.databaseUrl });
    try {
      expect((await plain.request('GET', '/metrics', { key: TOKEN })).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('HTTP latency per route template and GraphQL operations by name move after traffic', async () => {
    const route = { method: 'GET', route: '/v1/tenants', status: '200' };
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      expect((await app.request('GET', '/v1/tenants', { key: org.keys.read })).status).toBe(200);
    const tenants = await app.graphql(
      org.keys.read,
      'query MetricsProbe { tenants(limit: 1) { items { id } } }',
    );
    expect(tenants.body.errors).toBeUndefined();
    const bad = await app.graphql(org.keys.read, 'query MetricsBroken { nothingHere }');
    expect(bad.body.errors).toBeDefined();
    const after = await scrape();

    const count = 'http_request_duration_seconds_count';
    expect(sample(after, count, route) - sample(before, count, route)).toBe(3);
    // The template, never the raw path with ids.
    expect(after).not.toMatch(/route="\/v1\/tenants\/[0-9a-f-]{36}/);
    const ok = { operation: 'MetricsProbe', type: 'query', outcome: 'ok' };
    expect(sample(after, 'graphql_operations_total', ok)).toBe(
      sample(before, 'graphql_operations_total', ok) + 1,
    );
    expect(sample(after, 'graphql_operations_total', { operation: 'MetricsBroken', outcome: 'error' })).toBe(
      1,
    );
    expect(sample(after, 'pg_pool_connections', { pool: 'api', state: 'total' })).toBeGreaterThan(0);
  });

  it('counts rate-limit rejections', async () => {
    const limited = await createOrganizationWithKeys(app, { plan: Plan.CUSTOM, customRateLimitPerMinute: 2 });
    const before = sample(await scrape(), 'rate_limit_rejections_total', { caller: 'credential' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await app.request('GET', '/v1/tenants', { key: limited.keys.read })).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(sample(await scrape(), 'rate_limit_rejections_total', { caller: 'credential' })).toBe(before + 1);
  });

  it('reports the job queue depth and the age of the oldest due job per task, sampled at scrape time', async () => {
    // A task no worker of this process knows: it stays queued, due for ten minutes; another scheduled later.
    await app.pool.query(
      `select graphile_worker.add_job('metrics_probe_task', '{}'::json, run_at => now() - interval '10 minutes'),
              graphile_worker.add_job('metrics_probe_task', '{}'::json, run_at => now() + interval '1 hour')`,
    );
    const text = await scrape();
    expect(sample(text, 'job_queue_depth', { task: 'metrics_probe_task' })).toBe(2);
    expect(
      sample(text, 'job_queue_oldest_age_seconds', { task: 'metrics_probe_task' }),
    ).toBeGreaterThanOrEqual(600);
  });

  it('counts webhook deliveries by outcome, with their latency', async () => {
    const before = await scrape();
    receiver.respondWith((request) => (request.path === '/down' ? { status: 503 } : { status: 204 }));
    const up = await createWebhook(app, org.keys.admin, {
      url: receiver.url('/up'),
      events: ['user.created'],
    });
    await commitEvent(app, org.scope);
    await waitForDeliveries(app, org.keys.read, up.id, (all) => all.some((d) => d.status === 'Succeeded'));
    const after = await scrape();
    const succeeded = { outcome: 'succeeded' };
    expect(sample(after, 'webhook_delivery_attempts_total', succeeded)).toBe(
      sample(before, 'webhook_delivery_attempts_total', succeeded) + 1,
    );
    expect(sample(after, 'webhook_delivery_duration_seconds_count', succeeded)).toBe(
      sample(before, 'webhook_delivery_duration_seconds_count', succeeded) + 1,
    );
  });
});
