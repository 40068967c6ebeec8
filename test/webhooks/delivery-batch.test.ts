import type { OrganizationWithKeys } from '../factories/shared.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { commitEvent, createWebhook } from './webhook-kit.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { jobHelpers } from '../helpers/job-queue.js';
import { deliveryTask, startBatchDeliverySuite, type BatchDeliverySuite } from './batch-delivery-suite.js';

/**
 * Delivery jobs batch their statements (issue #31 goal 6). One-delivery jobs (retries, re-sends) that run at once
 * claim their deliveries in one statement and record their successes in shared ones, each job still completing on
 * its own (src/webhooks/webhook-statement-batch.ts); a failing delivery among them takes its own path (retry
 * scheduled), and a job whose delivery is no longer pending posts nothing. An endpoint's batch job (the fan-out's,
 * src/webhooks/webhook-endpoint-batch.ts) attempts every due first attempt of its endpoint with a few claiming
 * and recording statements, and a run of it again after a crash takes back its own claims while another job
 * leaves them alone.
 *
 * The statements are the server's ORM's, as its query log has them (`app.sql`, every statement its connection
 * sends: the delivery statements all go through it); the server is built in the worker's realm
 * (batch-delivery-suite.ts), so a recorder patching the file's own `pg` would not see them.
 */

let app: RealmApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;
let suite: BatchDeliverySuite;

beforeAll(async () => {
  ({ app, org, receiver } = suite = await startBatchDeliverySuite());
  receiver.respondWith((request) => ({ status: request.path === '/failing' ? 500 : 200, delayMs: 100 }));
});
afterAll(() => suite.stop());

/** The statements the server's ORM sent while `action` ran. */
const statementsDuring = (action: () => Promise<unknown>) => app.sql.statementsDuring(action);

const CLAIMS = /as c\(id uuid, job bigint\)/;
const BATCH_CLAIMS = /with claimed as \(\s*update webhook_deliveries/;
const SUCCESSES = /as s\(organization_id uuid/;

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

  const task = await deliveryTask(app);
  const sent = await statementsDuring(() =>
    Promise.all(deliveries.map((deliveryId, index) => task({ deliveryId }, jobHelpers(index + 1)))),
  );

  const loads = sent.filter((statement) => CLAIMS.test(statement));
  const successes = sent.filter((statement) => SUCCESSES.test(statement));
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
  const again = await statementsDuring(() =>
    Promise.all(repeated.map((deliveryId, index) => task({ deliveryId }, jobHelpers(100 + index)))),
  );
  expect(again.filter((statement) => SUCCESSES.test(statement))).toHaveLength(0);
  expect(receiver.on('/ok')).toHaveLength(9);
});

async function recordsOf(deliveries: string[]) {
  const { rows } = await app.pool.query<{ status: string; numbers: number[] | null; claimed: boolean }>(
    `select d.status, array(select a.attempt_number from webhook_attempts a where a.delivery_id = d.id) as numbers,
            d.claimed_by is not null as claimed
       from webhook_deliveries d where d.id = any($1)`,
    [deliveries],
  );
  return rows;
}

it('one job attempts every due first attempt of its endpoint: a few claiming and recording statements, each delivery recorded once', async () => {
  const hook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/batch'),
    events: ['user.deleted'],
  });
  for (let i = 0; i < 50; i++) await commitEvent(app, org.scope, { kind: 'user.deleted', details: { n: i } });
  const deliveries = await pendingDeliveries(hook.id);
  expect(deliveries).toHaveLength(50);

  const task = await deliveryTask(app);
  const sent = await statementsDuring(async () => task({ webhookId: hook.id }, jobHelpers(1000)));

  // batchSize 20: the reclaim at the start, three claims of 20, 20 and 10, and the empty one that ends the job.
  const batchClaims = sent.filter((statement) => BATCH_CLAIMS.test(statement)).length;
  expect(batchClaims).toBeGreaterThanOrEqual(3); // 50 first attempts, at most 20 a claim
  expect(batchClaims).toBeLessThanOrEqual(5);
  // Four attempts in flight at once: successes ending while a record is in flight share the next one (50 one by
  // one before; how many share depends on timing, which a loaded machine spreads out).
  expect(sent.filter((statement) => SUCCESSES.test(statement)).length).toBeLessThan(50);
  const ids = receiver.on('/batch').map((request) => request.headers['webhook-id']);
  expect(ids).toHaveLength(50);
  expect(new Set(ids).size).toBe(50);
  for (const record of await recordsOf(deliveries))
    expect(record).toEqual({ status: 'Succeeded', numbers: [1], claimed: false });
});

it('a batch job run again after a crash takes back its own claims, which other jobs leave alone meanwhile', async () => {
  const hook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/crash'),
    events: ['user.restored'],
  });
  for (let i = 0; i < 30; i++)
    await commitEvent(app, org.scope, { kind: 'user.restored', details: { n: i } });
  const deliveries = await pendingDeliveries(hook.id);
  // Job 2000 was killed inside a batch: it had claimed 20 deliveries and recorded none of them.
  const claimedByCrashed = deliveries.slice(0, 20);
  await app.pool.query(
    `update webhook_deliveries set claimed_by = 2000, claimed_until = now() + interval '10 minutes'
      where id = any($1)`,
    [claimedByCrashed],
  );
  const task = await deliveryTask(app);

  // Meanwhile another transaction's job for the endpoint attempts the 10 unclaimed ones only, and a re-send's
  // one-delivery job leaves a claimed delivery alone.
  await task({ webhookId: hook.id }, jobHelpers(2001));
  await task({ deliveryId: claimedByCrashed[0] }, jobHelpers(2002));
  expect(receiver.on('/crash')).toHaveLength(10);

  // The killed job runs again (the liveness sweep released it; same job id): it takes back its 20.
  await task({ webhookId: hook.id }, jobHelpers(2000));
  const ids = receiver.on('/crash').map((request) => request.headers['webhook-id']);
  expect(ids).toHaveLength(30);
  expect(new Set(ids).size).toBe(30);
  for (const record of await recordsOf(deliveries))
    expect(record).toEqual({ status: 'Succeeded', numbers: [1], claimed: false });

  // Run once more: nothing left to claim, so nothing posted or recorded.
  const again = await statementsDuring(async () => task({ webhookId: hook.id }, jobHelpers(2000)));
  expect(again.filter((statement) => SUCCESSES.test(statement))).toHaveLength(0);
});
