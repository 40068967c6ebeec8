import { randomUUID } from 'node:crypto';
import { onServer } from '../helpers/on-server.js';
import { sharedApp, type SharedApp } from '../helpers/shared-suite.js';

/**
 * The portal counts' per-tenant locks (docs/portal.md "One writer per tenant at a time"): the triggers take them a
 * statement at a time, so two transactions writing tenants A then B and B then A deadlock (PostgreSQL fails one).
 * A transaction writing several tenants takes them all first through `lockPortalCounts` (src/portal/
 * portal-activity-lock.ts: one sorted order, as the demo seed does), and then waits instead.
 */
let app: SharedApp;

beforeAll(async () => {
  app = await sharedApp();
});
afterAll(() => app.stop());

/**
 * A writer of `first` then `second`, each in its own statement; `upFront`: all its tenants' locks first. The
 * server's ORM runs the transaction (onServer `portalCountsWriter`), awaiting `between` between the two.
 */
const writer = (first: string, second: string, upFront: boolean, between: Promise<void>) =>
  onServer(app, 'portalCountsWriter', first, second, upFront, between);

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
