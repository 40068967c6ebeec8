import { LockMode, type MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import { isConnectorSourceFailure } from '../cloud/connector-source.provider.js';
import { createJobContext } from '../context.js';
import { enqueueJob } from '../core/jobs.js';
import type { Environment, Scope } from '../core/scope.js';
import {
  runTrackedJob,
  TRACKED_JOB_QUEUE_ATTEMPTS,
  type TrackedJobKind,
  type TrackedJobOptions,
  type TrackedRun,
} from '../core/tracked-job.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { FAILURES_BEFORE_PAUSE } from './connector-catalog.js';
import { ConnectorRun } from './connector-run.entity.js';
import { ComplianceConnector } from './connector.entity.js';
import { ConnectorRunStatus, ConnectorStatus } from './connector.enums.js';
import { cloudUserMapping, moveConnectorStatus } from './connector.service.js';

export const CONNECTOR_SCHEDULER_TASK = 'compliance.schedule-imports';
export const CONNECTOR_IMPORT_TASK = 'compliance.import';

/** Every 5 minutes on one process: imports due by the clock become runs and jobs. */
export const CONNECTOR_SCHEDULER_CRON: CronItem = {
  task: CONNECTOR_SCHEDULER_TASK,
  match: '*/5 * * * *',
  identifier: CONNECTOR_SCHEDULER_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

const HOUR_MS = 3_600_000;

interface ImportPayload {
  runId: string;
  organizationId: string;
  environment: string;
}

/**
 * For every Active connector whose next run is due by the clock: a Queued run row and its import job, and
 * the next run moved one schedule later, in one transaction per connector (a run exists exactly when its
 * job does). Slots missed while the server was down are not replayed one by one: the next run's window
 * starts where the last successful import ended, so nothing is lost.
 */
export async function scheduleDueImports(orm: MikroORM, deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await orm.em
    .fork()
    .find(
      ComplianceConnector,
      { status: ConnectorStatus.ACTIVE, nextRunAt: { $lte: now } },
      { filters: false, fields: ['id', 'organizationId', 'environment'] },
    );
  let scheduled = 0;
  for (const { id, organizationId, environment } of due) {
    const ctx = createJobContext(orm, deps, { organizationId, environment }, 'system:compliance');
    await ctx.em.transactional(async (em) => {
      const connector = await em.findOne(
        ComplianceConnector,
        { id, status: ConnectorStatus.ACTIVE, nextRunAt: { $lte: now } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!connector) return; // another process got there first, or it was paused meanwhile
      const run = em.create(ConnectorRun, {
        ...ctx.scope,
        connectorId: id,
        scheduledFor: connector.nextRunAt!,
      });
      const step = connector.scheduleHours * HOUR_MS;
      let next = connector.nextRunAt!.getTime() + step;
      if (next <= now.getTime()) next = now.getTime() + step;
      connector.nextRunAt = new Date(next);
      await em.flush();
      const payload: ImportPayload = { runId: run.id, ...ctx.scope };
      await enqueueJob(
        em,
        CONNECTOR_IMPORT_TASK,
        { ...payload },
        { jobKey: `connector-run:${run.id}`, maxAttempts: TRACKED_JOB_QUEUE_ATTEMPTS },
      );
      scheduled++;
    });
  }
  return scheduled;
}

/** An import run as a tracked job (core/tracked-job.ts). */
export const CONNECTOR_IMPORT_JOB: TrackedJobKind<ConnectorRun> = {
  name: 'connector import',
  entity: ConnectorRun,
  runnable: [ConnectorRunStatus.QUEUED, ConnectorRunStatus.RUNNING],
  running: ConnectorRunStatus.RUNNING,
  failed: ConnectorRunStatus.FAILED,
  // no `completed`: the run records its outcome with the connector's totals itself
  reasonColumn: 'failureReason',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'finishedAt',
};

/**
 * One import run, through core/tracked-job.ts: Queued → Running → Succeeded | Failed. The source call happens outside any transaction;
 * its result, the connector's totals and (after the third failure in a row) the pause with its
 * `connector.status_changed` event are written together. A run found already finished (a retried job)
 * does nothing; a resumed one imports its window again (the source keys an import by connector and window,
 * and the run's result is written once, when it finishes); our own error fails the run with the reason.
 */
export async function runImport(
  ctx: ServiceContext,
  runId: string,
  job?: TrackedJobOptions<ConnectorRun>['job'],
): Promise<void> {
  const options = { em: ctx.em, kind: CONNECTOR_IMPORT_JOB, id: runId, clock: ctx.clock, job };
  await runTrackedJob(options, (run) => importWindow(ctx, run));
}

async function importWindow(ctx: ServiceContext, tracked: TrackedRun<ConnectorRun>): Promise<void> {
  const { em } = ctx;
  const run = tracked.row;
  const runId = run.id;
  const connector = await em.findOneOrFail(ComplianceConnector, { id: run.connectorId }, { refresh: true });
  const tenant = await em.findOneOrFail(Tenant, { id: connector.tenantId });

  let itemsImported = 0;
  let itemsFailed = 0;
  let errors: string[] = [];
  let failure: string | null = null;
  try {
    const credentials = JSON.parse(webhookSettingsOf(ctx).secretBox.open(connector.credentials)) as Record<
      string,
      string
    >;
    const result = await (
      await ctx.cloud.forTenant(tenant.externalId)
    ).connectorSources.importConnectorData({
      connectorKey: connector.id,
      sourceType: connector.sourceType,
      credentials,
      userMapping: cloudUserMapping(connector.userMapping),
      since: (connector.importedUntil ?? null)?.toISOString() ?? null,
      until: run.scheduledFor.toISOString(),
    });
    itemsImported = result.itemsImported;
    itemsFailed = result.itemsFailed;
    errors = result.errors;
  } catch (error) {
    // A source refusal is the connector's problem and counts toward the pause; anything else is ours.
    if (!isConnectorSourceFailure(error)) throw error;
    failure = error.message;
  }

  await em.transactional(async (tx) => {
    // Fenced: a stale run (another took the run over) must not add its result to the connector's totals.
    await tracked.fence(tx);
    const locked = await tx.findOneOrFail(
      ComplianceConnector,
      { id: connector.id },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const finishedAt = ctx.clock.now();
    const current = await tx.findOneOrFail(ConnectorRun, { id: runId }, { refresh: true });
    if (current.status !== ConnectorRunStatus.RUNNING) return; // recorded already: counted once
    current.finishedAt = finishedAt;
    current.durationMs = finishedAt.getTime() - (current.startedAt ?? finishedAt).getTime();
    if (failure === null) {
      current.status = ConnectorRunStatus.SUCCEEDED;
      current.itemsImported = itemsImported;
      current.errors = errors;
      // errorCount counts the items that failed; one message may cover many (docs/compliance.md).
      current.errorCount = itemsFailed;
      locked.itemsImported += itemsImported;
      locked.errorCount += itemsFailed;
      locked.consecutiveFailures = 0;
      locked.lastImportAt = finishedAt;
      locked.importedUntil = current.scheduledFor;
      locked.updatedAt = finishedAt;
      await tx.flush();
      return;
    }
    current.status = ConnectorRunStatus.FAILED;
    current.failureReason = failure;
    locked.consecutiveFailures += 1;
    locked.updatedAt = finishedAt;
    await tx.flush();
    if (locked.consecutiveFailures >= FAILURES_BEFORE_PAUSE && locked.status === ConnectorStatus.ACTIVE) {
      locked.configurationError = failure;
      locked.nextRunAt = null;
      await moveConnectorStatus(
        { ...ctx, em: tx },
        tx,
        tenant,
        locked,
        ConnectorStatus.PAUSED,
        `${FAILURES_BEFORE_PAUSE} consecutive failed imports`,
      );
    }
  });
}

export function connectorSchedulerTask(orm: MikroORM, deps: AppDeps): Task {
  return async () => {
    await scheduleDueImports(orm, deps);
  };
}

export function connectorImportTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload, helpers) => {
    const payload = rawPayload as ImportPayload;
    const scope: Scope = {
      organizationId: payload.organizationId,
      environment: payload.environment as Environment,
    };
    await runImport(createJobContext(orm, deps, scope, 'system:compliance'), payload.runId, helpers.job);
  };
}
