import type { OrganizationWithKeys } from '../factories/shared.js';
import { check, eventually } from '../helpers/eventually.js';
import type { RealmApp } from '../helpers/realm-suite.js';
import { commitEvent, createWebhook } from './webhook-kit.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { deliveryTask, startBatchDeliverySuite, type BatchDeliverySuite } from './batch-delivery-suite.js';
import { jobHelpers } from '../helpers/job-queue.js';

/**
 * A disable and a batch's success record of one webhook take their locks in one order, webhook first
 * (src/webhooks/webhook-delivery-claims.ts RECORD_SUCCESSES, webhook-failure.ts): the failure rule's transaction
 * locks the webhook, then cancels its pending deliveries; a success record that locked its deliveries first and
 * then the webhook (to clear a recovering endpoint's `failing_since`) deadlocked with it, PostgreSQL aborting one
 * of them, and the batch job failed and ran again, attempting again what it had delivered.
 *
 * Each round lines both up on the webhook's row: the test holds it, the 410's transaction waits for it, then the
 * held successes are answered and their record waits for it too; the test lets go. Taken in one order, the disable
 * commits, then the success record, and each delivery was received once.
 */

let app: RealmApp;
let org: OrganizationWithKeys;
let receiver: WebhookReceiver;
let suite: BatchDeliverySuite;

beforeAll(async () => ({ app, org, receiver } = suite = await startBatchDeliverySuite()));
afterAll(() => suite.stop());

/**
 * Waits until `count` backends wait, directly or behind another waiter, for a lock the backend `pid` holds (the
 * second waiter for a row waits for the first, which holds the row's place in the queue).
 */
async function waitersOf(pid: number, count: number, what: string) {
  await eventually(
    async () => {
      const { rows } = await app.pool.query<{ n: number }>(
        `with recursive waiting(pid) as (
           select $1::int
            union
           select a.pid from pg_stat_activity a join waiting w on w.pid = any(pg_blocking_pids(a.pid))
         )
         select count(*)::int - 1 as n from waiting`,
        [pid],
      );
      check(rows[0].n >= count, `${rows[0].n} waiting`);
    },
    { timeout: 15_000, what },
  );
}

async function deliveriesOf(webhookId: string) {
  const { rows } = await app.pool.query<{ status: string; attempts: number; claimed: boolean }>(
    `select d.status, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts,
            d.claimed_by is not null as claimed
       from webhook_deliveries d where d.webhook_id = $1`,
    [webhookId],
  );
  return rows;
}

it('a disable and a success record of one webhook at once: no deadlock, each delivery received once', async () => {
  for (let round = 0; round < 3; round++) {
    const path = `/round-${round}`;
    const hook = await createWebhook(app, org.keys.admin, {
      url: receiver.url(path),
      events: ['user.updated'],
    });
    // A recovering endpoint: its success record clears `failing_since`, so it writes the webhook's row.
    await app.pool.query(`update webhooks set failing_since = now() - interval '1 hour' where id = $1`, [
      hook.id,
    ]);
    for (let i = 0; i < 8; i++)
      await commitEvent(app, org.scope, { kind: 'user.updated', details: { n: i } });
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    // The first attempt answers 410 Gone (the failure rule disables the webhook); the others wait for the gate.
    receiver.respondWith((_request, index) => (index === 0 ? { status: 410 } : { status: 200, until: held }));

    const holder = await app.pool.connect();
    let outcome: Promise<unknown> = Promise.resolve('the batch job did not start');
    try {
      await holder.query('begin');
      await holder.query(`select id from webhooks where id = $1 for no key update`, [hook.id]);
      const {
        rows: [{ pid }],
      } = await holder.query<{ pid: number }>(`select pg_backend_pid() as pid`);

      const task = await deliveryTask(app);
      outcome = Promise.resolve(task({ webhookId: hook.id }, jobHelpers(100 + round))).then(
        () => null,
        (error: unknown) => error,
      );
      await receiver.waitFor(path, 4);
      await waitersOf(pid, 1, "the 410's transaction waiting for the webhook");
      open();
      await waitersOf(pid, 2, 'the success record waiting for the webhook too');
    } finally {
      await holder.query('commit').catch(() => undefined);
      holder.release();
    }

    expect(await outcome).toBeNull(); // no "deadlock detected": the batch job completed
    const { rows } = await app.pool.query<{ enabled: boolean; disabled_reason: string }>(
      `select enabled, disabled_reason from webhooks where id = $1`,
      [hook.id],
    );
    expect(rows[0]).toEqual({ enabled: false, disabled_reason: 'the endpoint answered 410 Gone' });
    const received = receiver.on(path);
    const messageIds = received.map((request) => request.headers['webhook-id']);
    expect(new Set(messageIds).size).toBe(received.length); // each delivery received once
    const deliveries = await deliveriesOf(hook.id);
    expect(deliveries).toHaveLength(8);
    for (const row of deliveries)
      expect(row).toMatchObject({ claimed: false, attempts: row.status === 'Cancelled' ? 0 : 1 });
    const statuses = deliveries.map((row) => row.status);
    expect(statuses.filter((status) => status === 'Failed')).toHaveLength(1);
    expect(statuses.filter((status) => status === 'Succeeded')).toHaveLength(received.length - 1);
    expect(statuses.filter((status) => status === 'Pending')).toHaveLength(0);
  }
});
