import { randomUUID } from 'node:crypto';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { FeatureModule } from '../../src/core/feature-module.js';
import type { SyncStep } from '../../src/sync/sync-step.js';
import { syncStepsOf } from '../../src/sync/sync-steps.js';
import type { OrganizationWithKeys } from '../factories/organizations.js';
import { grantConsent } from '../factories/shared.js';
import { onServer } from '../helpers/on-server.js';
import { sharedSuite, type SharedApp } from '../helpers/shared-suite.js';

/**
 * src/sync: every feature's `syncStep`, each with its own result, in one transaction per tenant. On the worker's
 * shared server: the features' list and steps are the server's (test/helpers/server-side-sync.ts), the syncs run
 * there with the steps composed here, and every count is of the file's own tenants.
 */

/** The summary of a tenant sync as the API has always shown it (REST/GraphQL `summary`, `tenant.synced`). */
const SUMMARY_KEYS = [
  'usersCreated',
  'usersUpdated',
  'usersDeleted',
  'usersRestored',
  'groupsCreated',
  'groupsUpdated',
  'groupsRemoved',
  'membershipsCreated',
  'membershipsRemoved',
  'licensesCreated',
  'licensesUpdated',
  'licensesRemoved',
  'assignmentsCreated',
  'assignmentsRemoved',
  'devicesCreated',
  'devicesUpdated',
  'alertsCreated',
  'alertsUpdated',
  'dlpPoliciesCreated',
  'dlpPoliciesUpdated',
  'dlpAlertsCreated',
  'enrollmentsBlocked',
  'newSignIns',
  'recommendationsChanged',
];

const step = (name: string, after?: string[]): SyncStep => ({
  name,
  after,
  read: async () => async () => ({}),
});

let app: SharedApp;
let org: OrganizationWithKeys;
let SYNC_STEPS: readonly SyncStep[];
let FEATURE_MODULES: readonly FeatureModule[];
beforeAll(async () => {
  ({ app, org } = await sharedSuite());
  [SYNC_STEPS, FEATURE_MODULES] = await Promise.all([
    onServer(app, 'syncSteps'),
    onServer(app, 'featureModules'),
  ]);
});

describe('syncStepsOf', () => {
  it("gives the features' steps in the list's order, each after the steps it names", () => {
    expect(SYNC_STEPS.map((s) => s.name)).toEqual([
      'users',
      'licenses',
      'contacts',
      'devices',
      'alerts',
      'endpoint-dlp',
      'recommendations',
      'secure-score',
      'portal',
      'device-management',
      'security',
    ]);
    const position = new Map(SYNC_STEPS.map((s, index) => [s.name, index]));
    for (const s of SYNC_STEPS) {
      for (const before of s.after ?? []) expect(position.get(before)!).toBeLessThan(position.get(s.name)!);
    }
    const withSteps = FEATURE_MODULES.filter((feature) => feature.syncStep).map((feature) => feature.name);
    expect(new Set(SYNC_STEPS.map((s) => s.name))).toEqual(new Set(withSteps));
  });

  it('refuses a name taken twice, an unknown `after`, and steps that wait for each other', () => {
    const modules = (...steps: SyncStep[]) => steps.map((syncStep) => ({ name: syncStep.name, syncStep }));
    expect(syncStepsOf(modules(step('b', ['a']), step('a'), step('c'))).map((s) => s.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(() => syncStepsOf(modules(step('a'), step('a')))).toThrow('taken twice');
    expect(() => syncStepsOf(modules(step('a', ['nowhere'])))).toThrow('which no feature has');
    expect(() => syncStepsOf(modules(step('a', ['b']), step('b', ['a'])))).toThrow('wait for each other');
  });
});

describe('syncTenant', () => {
  let cloud: SimulatedCloud;
  beforeAll(() => (cloud = app.deps.clouds as SimulatedCloud));

  /** A fresh cloud tenant with a directory, granted and onboarded (not synced yet). */
  async function onboarded(): Promise<string> {
    const slug = `s${randomUUID().slice(0, 8)}`;
    const { tenant } = await cloud.createTenant({
      externalId: randomUUID(),
      displayName: `Steps ${slug}`,
      domains: [`${slug}.example.com`],
      seed: 77,
      employees: 12,
    });
    await grantConsent(app, tenant.externalId, org.organization.id);
    return onServer(app, 'onboardTenant', org.scope, tenant.externalId);
  }

  const rows = async (sql: string, tenantId: string) =>
    (await app.pool.query<{ count: number }>(`select count(*)::int as count from ${sql}`, [tenantId])).rows[0]
      .count;

  it("returns each step's result; the summary is the summarized steps' counts, as the API shows it", async () => {
    const tenantId = await onboarded();
    const progress: number[] = [];
    const run = await onServer(app, 'syncTenantWith', org.scope, tenantId, SYNC_STEPS, async (percent) => {
      progress.push(percent);
    });
    expect(run.failed).toBeNull();
    expect(run.steps.map((result) => [result.step, result.status])).toEqual(
      SYNC_STEPS.map((s) => [s.name, 'completed']),
    );
    expect(Object.keys(run.summary).sort()).toEqual([...SUMMARY_KEYS].sort());
    const users = run.steps.find((result) => result.step === 'users');
    expect(users).toMatchObject({
      counts: { usersCreated: await rows('users where tenant_id = $1', tenantId) },
    });
    // Contacts report their own counts, outside the summary (its shape is the API's).
    expect(run.steps.find((result) => result.step === 'contacts')).toMatchObject({
      counts: { created: expect.any(Number), updated: 0, deleted: 0, skipped: 0 },
    });
    expect(run.summary).not.toHaveProperty('created');
    expect(progress[0]).toBe(0);
    expect(progress).toEqual(expect.arrayContaining([20, 75, 90]));
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const { rows: events } = await app.pool.query<{ payload: { details: unknown } }>(
      "select payload from domain_events where tenant_id = $1 and kind = 'tenant.synced'",
      [tenantId],
    );
    expect(events.map((event) => event.payload.details)).toEqual([run.summary]);
  });

  it('stops at a step whose write fails: that step failed with its error, the next ones skipped, nothing kept', async () => {
    const tenantId = await onboarded();
    const broken = new Error('the broken step could not write');
    const brokenStep: SyncStep = {
      name: 'broken',
      after: ['licenses'],
      read: async () => async () => {
        throw broken;
      },
    };
    // First in the list: it runs as soon as the licenses are written, before the other steps.
    const steps = syncStepsOf([{ name: 'broken', syncStep: brokenStep }, ...FEATURE_MODULES]);
    const run = await onServer(app, 'syncTenantWith', org.scope, tenantId, steps, async () => undefined);
    expect(run.failed).toEqual({ step: 'broken', status: 'failed', error: broken });
    const statusOf = new Map(run.steps.map((result) => [result.step, result.status]));
    expect(statusOf.get('users')).toBe('completed');
    expect(statusOf.get('licenses')).toBe('completed');
    expect(statusOf.get('security')).toBe('skipped');
    // One transaction: the users and licenses written before the failure are rolled back with it.
    expect(await rows('users where tenant_id = $1', tenantId)).toBe(0);
    expect(await rows('tenant_licenses where tenant_id = $1', tenantId)).toBe(0);
    expect(await rows("domain_events where tenant_id = $1 and kind = 'tenant.synced'", tenantId)).toBe(0);
    expect(await rows('tenants where id = $1 and last_synced_at is not null', tenantId)).toBe(0);
    // The caller that wants the summary gets the step's own error (the sync record stores its message).
    await expect(
      onServer(app, 'reconcileTenantWith', org.scope, tenantId, steps, async () => undefined),
    ).rejects.toBe(broken);
  });

  it('writes nothing when a read fails: every step is read before the transaction', async () => {
    const tenantId = await onboarded();
    const unreadable = new Error('the cloud did not answer');
    const steps = [...SYNC_STEPS, { name: 'unreadable', read: () => Promise.reject(unreadable) }];
    const progress: number[] = [];
    const run = await onServer(app, 'syncTenantWith', org.scope, tenantId, steps, async (percent) => {
      progress.push(percent);
    });
    expect(run.failed).toEqual({ step: 'unreadable', status: 'failed', error: unreadable });
    expect(run.steps.filter((result) => result.status !== 'skipped')).toEqual([run.failed]);
    expect(progress).toEqual([0]);
    expect(await rows('users where tenant_id = $1', tenantId)).toBe(0);
  });
});
