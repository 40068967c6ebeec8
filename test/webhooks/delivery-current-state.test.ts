import type { OrganizationWithKeys } from '../factories/shared.js';
import { eventually } from '../helpers/eventually.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { commitEvent, createWebhook } from './webhook-kit.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { deliveryTask, startBatchDeliverySuite, type BatchDeliverySuite } from './batch-delivery-suite.js';
import { jobHelpers } from '../helpers/job-queue.js';

/**
 * A delivery job acts on the current state, not on what it saw when it was made or when it claimed its batch:
 * - the webhook settings are read at each job run (src/webhooks/webhook-delivery.task.ts), not once per runner;
 * - a webhook disabled while its batch is in flight (by its owner, or by the failure rule for one of the batch's
 *   attempts) stays as the disable left it: the late records of the attempts that were on their way neither clear
 *   its `failing_since` nor re-open a delivery, and the batch attempts nothing more once a record has seen it
 *   (src/webhooks/webhook-delivery-claims.ts RECORD_SUCCESSES, webhook-failure.ts, webhook-endpoint-batch.ts).
 */

const FAILING_SINCE = '2026-01-10T00:00:00.000Z';
let app: RealmApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;
let suite: BatchDeliverySuite;

beforeAll(async () => ({ app, org, receiver } = suite = await startBatchDeliverySuite()));
afterAll(() => suite.stop());

/** A gate the receiver holds requests on until the test opens it. */
function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}

async function webhookRow(id: string) {
  const { rows } = await app.pool.query<{
    enabled: boolean;
    failing_since: Date | null;
    disabled_at: Date | null;
    disabled_reason: string | null;
  }>(`select enabled, failing_since, disabled_at, disabled_reason from webhooks where id = $1`, [id]);
  return rows[0];
}

async function deliveriesOf(webhookId: string) {
  const { rows } = await app.pool.query<{
    status: string;
    attempts: number;
    claimed: boolean;
    queued: boolean;
  }>(
    `select d.status, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts,
            d.claimed_by is not null as claimed,
            exists(select 1 from graphile_worker.jobs j where j.key = 'webhook-delivery:' || d.id) as queued
       from webhook_deliveries d where d.webhook_id = $1 order by d.created_at`,
    [webhookId],
  );
  return rows;
}

/** `count` events of `kind`, each delivered to the webhooks subscribed to it. */
async function commitEvents(kind: string, count: number) {
  for (let i = 0; i < count; i++) await commitEvent(app, org.scope, { kind, details: { n: i } });
}

it('reads the webhook settings at each job run: a change after the task was built applies to the next job', async () => {
  const hook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/settings'),
    events: ['user.updated'],
  });
  const task = await deliveryTask(app);
  const settings = app.deps.webhooks!;
  settings.allowPrivateTargets = false; // after the task was built
  try {
    await commitEvents('user.updated', 1);
    await task({ webhookId: hook.id }, jobHelpers(1));
    expect(receiver.on('/settings')).toHaveLength(0); // the loopback receiver refused under the current settings
    const [refused] = await deliveriesOf(hook.id);
    expect(refused).toMatchObject({ status: 'Pending', attempts: 1, queued: true }); // its retry on the schedule
  } finally {
    settings.allowPrivateTargets = true;
  }
  await commitEvents('user.updated', 1);
  await task({ webhookId: hook.id }, jobHelpers(2));
  expect(receiver.on('/settings')).toHaveLength(1);
});

it('a webhook its owner disables while its batch is in flight keeps its state, and receives nothing more', async () => {
  const hook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/owner'),
    events: ['user.deleted'],
  });
  await app.pool.query(`update webhooks set failing_since = $2 where id = $1`, [hook.id, FAILING_SINCE]);
  await commitEvents('user.deleted', 20);
  const { held, open } = gate();
  // The first four attempts (batchConcurrency) are held; any later one answers slowly, so that the records of the
  // first four come back while the attempts already on their way are still in flight.
  receiver.respondWith((_request, index) =>
    index < 4 ? { status: 200, until: held } : { status: 200, delayMs: 300 },
  );

  const task = await deliveryTask(app);
  const job = task({ webhookId: hook.id }, jobHelpers(10));
  await receiver.waitFor('/owner', 4);
  const patched = await app.request('PATCH', `/v1/webhooks/${hook.id}`, {
    key: org.keys.admin,
    body: { enabled: false },
  });
  expect(patched.status).toBe(200);
  open();
  await job;

  // The four held attempts succeeded; at most the four attempts started before their records came back followed
  // (all twenty before: the batch attempted what it had claimed while the webhook was enabled).
  const received = receiver.on('/owner').length;
  expect(received).toBeGreaterThanOrEqual(4);
  expect(received).toBeLessThanOrEqual(8);
  expect(await webhookRow(hook.id)).toMatchObject({ enabled: false, failing_since: new Date(FAILING_SINCE) });
  const deliveries = await deliveriesOf(hook.id);
  expect(deliveries.filter((row) => row.status === 'Succeeded')).toHaveLength(received);
  for (const row of deliveries) {
    expect(row).toMatchObject({ claimed: false, queued: false });
    expect(row.attempts).toBe(row.status === 'Succeeded' ? 1 : 0);
    expect(['Succeeded', 'Cancelled']).toContain(row.status);
  }
});

it('a webhook the failure rule disables mid-batch stays disabled: late records clear nothing and re-open nothing', async () => {
  const hook = await createWebhook(app, org.keys.admin, {
    url: receiver.url('/gone'),
    events: ['user.restored'],
  });
  await commitEvents('user.restored', 8);
  const { held, open } = gate();
  // The first attempt answers 410 Gone (the webhook is disabled at once); the three beside it are held until the
  // disable has committed, then two succeed and one fails with a 500 (which would schedule a retry).
  receiver.respondWith((_request, index) => {
    if (index === 0) return { status: 410 };
    if (index < 4) return { status: index === 3 ? 500 : 200, until: held };
    return { status: 200, delayMs: 300 };
  });

  const task = await deliveryTask(app);
  const job = task({ webhookId: hook.id }, jobHelpers(20));
  await receiver.waitFor('/gone', 4);
  const disabled = await eventually(
    async () => {
      const row = await webhookRow(hook.id);
      expect(row.enabled).toBe(false);
      return row;
    },
    { timeout: 10_000, what: 'the webhook disabled by its 410' },
  );
  expect(disabled.disabled_reason).toBe('the endpoint answered 410 Gone');
  expect(disabled.failing_since).not.toBeNull();
  open();
  await job;

  // The late success did not clear the run of failures that disabled the webhook, nor anything else of it.
  expect(await webhookRow(hook.id)).toEqual(disabled);
  const received = receiver.on('/gone').length;
  expect(received).toBeLessThanOrEqual(5); // the held three, and one lane's next attempt started before the 410's record
  const deliveries = await deliveriesOf(hook.id);
  for (const row of deliveries) expect(row).toMatchObject({ claimed: false, queued: false });
  const statuses = deliveries.map((row) => row.status);
  expect(statuses.filter((status) => status === 'Failed')).toHaveLength(1); // the 410
  expect(statuses.filter((status) => status === 'Pending')).toHaveLength(0); // the late 500 re-opened nothing
  expect(statuses.filter((status) => status === 'Succeeded')).toHaveLength(received - 2);
  expect(deliveries.reduce((sum, row) => sum + row.attempts, 0)).toBe(received);
});
