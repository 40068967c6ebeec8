import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockPortalCounts } from '../../src/portal/portal-activity-lock.js';
import { startSuite } from '../helpers/suite.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * The portal counts' per-tenant locks (docs/portal.md "One writer per tenant at a time"): the triggers take them a
 * statement at a time, so two transactions writing tenants A then B and B then A deadlock (PostgreSQL fails one).
 * A transaction writing several tenants takes them all first through `lockPortalCounts` (src/portal/
 * portal-activity-lock.ts: one sorted order, as the demo seed does), and then waits instead.
 */
let app: TestApp;

beforeAll(async () => ({ app } = await startSuite()));
afterAll(() => app.stop());

/** One tenant's lock, as a trigger takes it for the tenant its statement writes. */
const triggerLock = (em: EntityManager, tenantId: string) =>
  em.execute('select portal_activity_lock(array[?]::uuid[])', [tenantId]);

/** A writer of `first` then `second`, each in its own statement; `upFront`: all its tenants' locks first. */
async function writer(first: string, second: string, upFront: boolean, between: Promise<void>) {
  await app.orm.em.fork().transactional(async (em) => {
    if (upFront) await lockPortalCounts(em, [first, second]);
    await triggerLock(em, first);
    await between;
    await triggerLock(em, second);
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

it('two writers of two tenants in opposite orders: a deadlock a statement at a time, a wait with the locks taken first', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  // Each writer holds its first tenant before either asks for its second.
  const both = pause(300);
  const outcomes = await Promise.allSettled([writer(a, b, false, both), writer(b, a, false, both)]);
  const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
  expect(failures).toHaveLength(1);
  expect(String((failures[0] as PromiseRejectedResult).reason)).toMatch(/deadlock detected/);

  const again = pause(300);
  await expect(Promise.all([writer(a, b, true, again), writer(b, a, true, again)])).resolves.toBeDefined();
});
