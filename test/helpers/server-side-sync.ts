/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for the tenant sync's own tests (test/sync): the
 * features' modules and sync steps as the server's src/features.ts lists them, a tenant onboarded, and a sync run
 * with steps the file composes (its own among the features', e.g. one that throws the file's error, which comes
 * back as it was thrown). The file then evaluates neither features.ts nor the app's graph for them; the steps'
 * functions it passes run in the server's realm.
 */
import { createJobContext } from '../../src/context.js';
import type { FeatureModule } from '../../src/core/feature-module.js';
import type { Scope } from '../../src/core/scope.js';
import { FEATURE_MODULES, SYNC_STEPS } from '../../src/features.js';
import type { SyncRunResult, SyncStep } from '../../src/sync/sync-step.js';
import { onboardTenant as onboard } from '../../src/tenants/tenant-onboarding.js';
import { reconcileTenant, syncTenant, type SyncSummary } from '../../src/tenants/tenant-reconcile.js';
import type { TestApp } from './test-app.js';

const ACTOR = 'system:test-sync';
type Report = (progress: number) => Promise<void>;

/** The app's feature modules (src/features.ts's one list). */
async function featureModules(): Promise<readonly FeatureModule[]> {
  return FEATURE_MODULES;
}

/** The features' sync steps in the order a tenant sync runs them (SYNC_STEPS). */
async function syncSteps(): Promise<readonly SyncStep[]> {
  return SYNC_STEPS;
}

/** Onboards the cloud tenant `externalId` (granted to the organization) into `scope`: the new tenant's id. */
async function onboardTenant(app: TestApp, scope: Scope, externalId: string): Promise<string> {
  return (await onboard(createJobContext(app.orm, app.deps, scope, ACTOR), { externalId })).id;
}

/** `syncTenant` of tenant `tenantId` with `steps`, as the sync job runs it: each step's result. */
function syncTenantWith(
  app: TestApp,
  scope: Scope,
  tenantId: string,
  steps: readonly SyncStep[],
  report: Report,
): Promise<SyncRunResult> {
  return syncTenant(createJobContext(app.orm, app.deps, scope, ACTOR), tenantId, steps, report);
}

/** `reconcileTenant` with `steps`: the summary, or a failed step's error thrown. */
function reconcileTenantWith(
  app: TestApp,
  scope: Scope,
  tenantId: string,
  steps: readonly SyncStep[],
  report: Report,
): Promise<SyncSummary> {
  return reconcileTenant(createJobContext(app.orm, app.deps, scope, ACTOR), tenantId, steps, report);
}

export const SERVER_SIDE_SYNC = {
  featureModules,
  syncSteps,
  onboardTenant,
  syncTenantWith,
  reconcileTenantWith,
};
