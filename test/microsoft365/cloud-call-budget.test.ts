import type { MikroORM } from '@mikro-orm/postgresql';
import {
  CloudCallBudget,
  recordingCloudWaits,
  type CloudCallBudgetSettings,
} from '../../src/cloud/cloud-call-budget.js';
import { isCloudError } from '../../src/cloud/cloud-error.js';
import { MovableClock } from '../../src/core/clock.js';
import { DEFAULT_APP_DATABASE_ROLE, runInOrganizationSession } from '../../src/core/db-session.js';
import { Environment } from '../../src/core/scope.js';
import { openOrm } from '../../src/db/orm.js';
import { createTestDatabase } from '../helpers/test-database.js';

/**
 * The per-tenant cloud call budget (src/cloud/cloud-call-budget.ts): counted in PostgreSQL, so two instances
 * (two ORMs, two pools, one database) share it exactly; a request finds it used up at once (Throttled with
 * Retry-After), a job waits on the clock and records how long per tenant.
 */
/** A server's ORM (as TestApp opens it: the application role) and a second instance's, on one fresh database. */
let firstOrm: MikroORM;
let secondOrm: MikroORM;
const clock = new MovableClock(new Date('2026-11-01T12:00:00Z'));
const inRequest = <T>(work: () => Promise<T>) =>
  runInOrganizationSession({ organizationId: 'org-1', environment: Environment.LIVE }, work);

function budgets(settings: Partial<CloudCallBudgetSettings>): [CloudCallBudget, CloudCallBudget] {
  return [new CloudCallBudget(firstOrm, clock, settings), new CloudCallBudget(secondOrm, clock, settings)];
}

beforeAll(async () => {
  // The budget needs a database only: no server (its modules, schema and listener) in the file.
  const databaseUrl = await createTestDatabase();
  firstOrm = await openOrm({ databaseUrl, poolMax: 20, appRole: DEFAULT_APP_DATABASE_ROLE });
  secondOrm = await openOrm({ databaseUrl, poolMax: 5 });
});
afterAll(async () => {
  await secondOrm?.close();
  await firstOrm?.close();
});

describe('two instances on one database', () => {
  it('share a window exactly: of 24 concurrent calls from both, 10 pass and the rest are Throttled', async () => {
    const [first, second] = budgets({ limits: { graph: [{ seconds: 20, limit: 10 }] } });
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        inRequest(() => (i % 2 === 0 ? first : second).take('app-1', 'tenant-shared', 'graph')).then(
          () => 'taken',
          (error: unknown) => error,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 'taken')).toHaveLength(10);
    const refused = outcomes.filter((outcome) => outcome !== 'taken');
    expect(refused).toHaveLength(14);
    for (const error of refused) {
      expect(isCloudError(error, 'Throttled')).toBe(true);
      expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
      expect((error as { retryAfterSeconds: number }).retryAfterSeconds).toBeLessThanOrEqual(20);
    }
    // Another tenant, and the same tenant for another app, have budgets of their own.
    await inRequest(() => second.take('app-1', 'tenant-other', 'graph'));
    await inRequest(() => first.take('app-2', 'tenant-shared', 'graph'));
  });

  it('start a new window once the clock passes the old one', async () => {
    const [first, second] = budgets({ limits: { 'graph-writes': [{ seconds: 20, limit: 2 }] } });
    await inRequest(() => first.take('app-1', 'tenant-window', 'graph-writes'));
    await inRequest(() => second.take('app-1', 'tenant-window', 'graph-writes'));
    await expect(inRequest(() => first.take('app-1', 'tenant-window', 'graph-writes'))).rejects.toMatchObject(
      {
        kind: 'Throttled',
        retryAfterSeconds: 20,
      },
    );
    clock.advance(20_000);
    await inRequest(() => second.take('app-1', 'tenant-window', 'graph-writes'));
  });

  it('hold Defender machine actions to both windows: a call is taken from each only when both have room', async () => {
    const [first, second] = budgets({
      limits: {
        'defender-machine-actions': [
          { seconds: 60, limit: 3 },
          { seconds: 3600, limit: 5 },
        ],
      },
    });
    const take = (budget: CloudCallBudget) =>
      inRequest(() => budget.take('app-1', 'tenant-defender', 'defender-machine-actions'));
    for (const budget of [first, second, first]) await take(budget);
    await expect(take(second)).rejects.toMatchObject({ kind: 'Throttled', retryAfterSeconds: 60 });
    clock.advance(60_000);
    await take(second);
    await take(first);
    // The minute has room again, the hour does not (5 taken): the wait is the hour's rest.
    await expect(take(second)).rejects.toMatchObject({ kind: 'Throttled', retryAfterSeconds: 3540 });
  });
});

describe('a job', () => {
  it('waits for the window on the clock and records the wait per tenant', async () => {
    const sleeps: number[] = [];
    const budget = new CloudCallBudget(firstOrm, clock, {
      limits: { graph: [{ seconds: 20, limit: 2 }] },
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
    });
    const { waits } = await recordingCloudWaits(async () => {
      for (let i = 0; i < 5; i++) await budget.take('app-1', 'tenant-job', 'graph');
      await budget.take('app-1', 'tenant-job-b', 'graph');
    });
    expect(sleeps).toEqual([20_000, 20_000]);
    expect(waits).toEqual(new Map([['tenant-job', 40_000]]));
  });

  it('gives up with Throttled rather than wait longer than maxWaitSeconds (the queue retries it then)', async () => {
    const budget = new CloudCallBudget(firstOrm, clock, {
      limits: { graph: [{ seconds: 3600, limit: 1 }] },
      maxWaitSeconds: 60,
      sleep: () => Promise.reject(new Error('must not sleep')),
    });
    await budget.take('app-1', 'tenant-hour', 'graph');
    const failure: unknown = await budget
      .take('app-1', 'tenant-hour', 'graph')
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: 'Throttled', retryAfterSeconds: 3600 });
  });
});
