import type { JobHelpers } from 'graphile-worker';
import { webhookDeliveryTask } from '../../src/webhooks/webhook-delivery.task.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { RoundTripRecorder } from '../helpers/round-trips.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';
import { commitEvent, createWebhook } from './webhook-kit.js';
import { WebhookReceiver } from './webhook-receiver.js';

/**
 * Delivery jobs that run at once share their statements (issue #31 goal 6, src/webhooks/webhook-statement-batch.ts):
 * ten jobs load their deliveries in one statement and record their successes in one, each job still completing
 * on its own; a failing delivery among them takes its own path (retry scheduled), and a job whose delivery is no
 * longer pending posts nothing.
 */

const recorder = new RoundTripRecorder();
let app: TestApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;

beforeAll(async () => {
  recorder.install(); // before the pools connect: each client binds its query method when it connects
  receiver = await WebhookReceiver.start();
  receiver.respondWith((request) => ({ status: request.path === '/failing' ? 500 : 200, delayMs: 100 }));
  ({ app, org } = await startSuite({ webhooks: { allowPrivateTargets: true } }));
});
afterAll(async () => {
  await app.stop();
  await receiver.stop();
  recorder.uninstall();
});

async function pendingDeliveries(webhookId: string): Promise<string[]> {
  const { rows } = await app.pool.query<{ id: string }>(
    `select id from webhook_deliveries where webhook_id = $1 and status = 'Pending' order by created_at, id`,
    [webhookId],
  );
  return rows.map((row) => row.id);
}

it('load and record the successes of jobs running at once in one statement each, every delivery on its own', async () => {
  const ok = await createWebhook(app, org.keys.admin, { url: receiver.url('/ok'), events: ['user.created'] });
  const failing = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/failing'),
    events: ['user.created'],
  });
  for (let i = 0; i < 9; i++) await commitEvent(app, org.scope, { details: { n: i } });
  const deliveries = [...(await pendingDeliveries(ok.id)), ...(await pendingDeliveries(failing.id))];
  expect(deliveries).toHaveLength(18);

  const task = webhookDeliveryTask(app.orm, app.deps);
  const helpers = {} as JobHelpers;
  const sent = await recorder.during(() =>
    Promise.all(deliveries.map((deliveryId) => task({ deliveryId }, helpers))),
  );

  const loads = sent.filter((statement) => /from webhook_deliveries d\s+join webhooks w/.test(statement.sql));
  const successes = sent.filter((statement) => /jsonb_to_recordset/.test(statement.sql));
  expect(loads).toHaveLength(1); // 18 before batching
  // The answers come back at slightly different moments: those arriving while a record is in flight share the
  // next one (9 statements before batching).
  expect(successes.length).toBeGreaterThanOrEqual(1);
  expect(successes.length).toBeLessThan(9);
  expect(
    receiver
      .on('/ok')
      .map((request) => request.headers['webhook-id'])
      .sort(),
  ).toEqual([...new Set(receiver.on('/ok').map((request) => request.headers['webhook-id']))].sort());
  expect(receiver.on('/ok')).toHaveLength(9);
  expect(receiver.on('/failing')).toHaveLength(9);

  const { rows } = await app.pool.query<{
    webhook_id: string;
    status: string;
    attempts: number;
    numbers: number[];
  }>(
    `select d.webhook_id, d.status, d.attempt_count as attempts,
            array(select a.attempt_number from webhook_attempts a where a.delivery_id = d.id) as numbers
       from webhook_deliveries d where d.id = any($1)`,
    [deliveries],
  );
  for (const row of rows) {
    expect(row.attempts).toBe(1);
    expect(row.numbers).toEqual([1]);
    // A failure keeps its own path: still pending, its next attempt queued on the retry schedule.
    expect(row.status).toBe(row.webhook_id === ok.id ? 'Succeeded' : 'Pending');
  }

  // Run again (a job repeated after a crash): a delivery no longer pending is loaded, and posts nothing.
  const repeated = (await pendingDeliveries(ok.id)).concat(deliveries.slice(0, 9));
  const again = await recorder.during(() =>
    Promise.all(repeated.map((deliveryId) => task({ deliveryId }, helpers))),
  );
  expect(again.filter((statement) => /jsonb_to_recordset/.test(statement.sql))).toHaveLength(0);
  expect(receiver.on('/ok')).toHaveLength(9);
});
