import { LockMode, type MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { isCloudError } from '../cloud/cloud-error.js';
import type { CloudDeviceActionRecord } from '../cloud/security.provider.js';
import { createJobContext } from '../context.js';
import { enqueueJob } from '../core/jobs.js';
import type { Environment } from '../core/scope.js';
import { emitEvent, type AppDeps, type ServiceContext } from '../core/service-context.js';
import { CONTINUES_IN_NEXT_JOB, runTrackedJob, type TrackedJobKind } from '../core/tracked-job.js';
import { Tenant } from '../tenants/tenant.entity.js';
import {
  DEVICE_ACTION_TASK,
  DEVICE_ACTION_MAX_ATTEMPTS,
  type DeviceActionJobPayload,
} from './device-action.service.js';
import { DeviceAction } from './device-action.entity.js';
import { deviceActionSettingsOf } from './device-action.settings.js';
import { Device } from './device.entity.js';
import {
  DeviceActionKind,
  DeviceActionStatus,
  IsolationState,
  IsolationType,
  ScanType,
} from './device.enums.js';

/**
 * The cloud is asked for the action's status every `pollDelayMs` (device-action.settings.ts, 5 s by default),
 * DEVICE_ACTION_MAX_POLLS times at most.
 */
export const DEVICE_ACTION_MAX_POLLS = 60;

const TERMINAL = new Set<string>([DeviceActionStatus.SUCCEEDED, DeviceActionStatus.FAILED]);

export const DEVICE_ACTION_JOB: TrackedJobKind<DeviceAction> = {
  name: 'device action',
  entity: DeviceAction,
  runnable: [DeviceActionStatus.PENDING, DeviceActionStatus.IN_PROGRESS],
  running: DeviceActionStatus.IN_PROGRESS,
  failed: DeviceActionStatus.FAILED,
  // no `completed`: the run ends the action itself (finish), with its event, or schedules the next poll
  reasonColumn: 'failureReason',
  finishedAtColumn: 'completedAt',
  // The cloud's errors are retried by the queue (it keeps one action per request id, so a retry is safe),
  // except a refusal (Defender: another action already in progress, a device not onboarded), which no retry
  // changes: the action fails at once with the cloud's reason.
  retryable: (error) => !isCloudError(error, 'Refused'),
};

/**
 * Carries out one device action through core/tracked-job.ts: Pending → InProgress (started in the cloud)
 * → Succeeded | Failed. The row is the progress: a run whose action has no cloud id yet starts it (the
 * cloud keeps one action per request id, our action id, so a resumed run never starts it twice), then asks
 * the cloud for its status. While the cloud reports it running, the run queues its next look in
 * `pollDelayMs` and ends (CONTINUES_IN_NEXT_JOB). When the attempts, runs or polls run out, the action is
 * marked Failed with the reason, never left pretending.
 */
export function deviceActionTask(orm: MikroORM, deps: AppDeps): Task {
  return async (rawPayload, helpers) => {
    const payload = rawPayload as DeviceActionJobPayload;
    const scope = { organizationId: payload.organizationId, environment: payload.environment as Environment };
    const ctx = createJobContext(orm, deps, scope, 'system:device-action');
    const job = {
      attempts: helpers.job.attempts,
      max_attempts: Math.min(helpers.job.max_attempts, DEVICE_ACTION_MAX_ATTEMPTS),
    };
    await runTrackedJob(
      { em: ctx.em, kind: DEVICE_ACTION_JOB, id: payload.actionId, clock: deps.clock, job },
      (run) => step(ctx, run.row),
    );
  };
}

/** The cloud's own names (CloudDeviceActionRequest): Isolate Full | Selective, Scan Quick | Full. */
function cloudActionType(action: DeviceAction): string | null {
  if (action.isolationType !== null)
    return action.isolationType === IsolationType.FULL ? 'Full' : 'Selective';
  return action.scanType === null ? null : action.scanType === ScanType.FULL ? 'Full' : 'Quick';
}

async function step(ctx: ServiceContext, action: DeviceAction): Promise<void | typeof CONTINUES_IN_NEXT_JOB> {
  const device = await ctx.em.findOneOrFail(Device, { id: action.deviceId });
  const tenant = await ctx.em.findOneOrFail(Tenant, { id: action.tenantId });
  if (action.externalId === null) {
    const started = await (
      await ctx.cloud.forTenant(tenant.externalId)
    ).security.startDeviceAction(device.externalId, {
      requestId: action.id,
      kind: action.kind,
      type: cloudActionType(action),
      comment: [action.reason, action.notes].filter(Boolean).join(' - '),
    });
    action.externalId = started.externalId;
    action.startedAt = ctx.clock.now();
    await ctx.em.flush();
  }
  const upstream = await (
    await ctx.cloud.forTenant(tenant.externalId)
  ).security.getDeviceAction(action.externalId!);
  if (!upstream)
    return finish(ctx, action.id, {
      status: DeviceActionStatus.FAILED,
      failureReason: 'The cloud no longer knows the action',
    });
  if (upstream.status !== 'InProgress') return finish(ctx, action.id, outcomeOf(upstream));
  if (action.polls + 1 >= DEVICE_ACTION_MAX_POLLS)
    return finish(ctx, action.id, {
      status: DeviceActionStatus.FAILED,
      failureReason: `The cloud did not complete the action after ${DEVICE_ACTION_MAX_POLLS} checks`,
    });
  await ctx.em.transactional(async (em) => {
    await em.nativeUpdate(DeviceAction, { id: action.id }, { polls: action.polls + 1 });
    const payload: DeviceActionJobPayload = { ...ctx.scope, actionId: action.id };
    await enqueueJob(em, DEVICE_ACTION_TASK, payload, {
      // graphile-worker schedules on the database's clock
      runAt: new Date(Date.now() + deviceActionSettingsOf(ctx).pollDelayMs),
      maxAttempts: DEVICE_ACTION_MAX_ATTEMPTS,
    });
  });
  return CONTINUES_IN_NEXT_JOB;
}

interface Outcome {
  status: DeviceActionStatus.SUCCEEDED | DeviceActionStatus.FAILED;
  failureReason?: string | null;
  threatsFound?: number | null;
  durationSeconds?: number | null;
}

function outcomeOf(upstream: CloudDeviceActionRecord): Outcome {
  return upstream.status === 'Succeeded'
    ? {
        status: DeviceActionStatus.SUCCEEDED,
        threatsFound: upstream.threatsFound,
        durationSeconds: upstream.durationSeconds,
      }
    : {
        status: DeviceActionStatus.FAILED,
        failureReason: upstream.failureReason ?? 'The cloud reported a failure',
      };
}

/**
 * Ends the action in one transaction: its row, the device's isolation (an isolation or release that
 * succeeded), and the event (device.isolated, device.released, device.scan_completed) on success.
 */
async function finish(ctx: ServiceContext, actionId: string, outcome: Outcome): Promise<void> {
  await ctx.em.fork().transactional(async (em) => {
    const action = await em.findOneOrFail(
      DeviceAction,
      { id: actionId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (TERMINAL.has(action.status)) return; // another run finished it
    const device = await em.findOneOrFail(
      Device,
      { id: action.deviceId },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    const tenant = await em.findOneOrFail(Tenant, { id: action.tenantId });
    const now = ctx.clock.now();
    em.assign(action, {
      status: outcome.status,
      completedAt: now,
      failureReason: outcome.failureReason ?? null,
      threatsFound: outcome.threatsFound ?? null,
      durationSeconds: outcome.durationSeconds ?? null,
    });
    if (outcome.status === DeviceActionStatus.SUCCEEDED && action.kind !== DeviceActionKind.SCAN) {
      const isolated = action.kind === DeviceActionKind.ISOLATE;
      em.assign(device, {
        isolationState: isolated ? IsolationState.ISOLATED : IsolationState.NOT_ISOLATED,
        isolationType: isolated ? action.isolationType : null,
        updatedAt: now,
      });
    }
    await em.flush();
    if (outcome.status !== DeviceActionStatus.SUCCEEDED) return;
    const common = {
      deviceId: device.id,
      deviceName: device.deviceName,
      actionId: action.id,
      requestedBy: action.requestedBy,
      requestedAt: action.requestedAt.toISOString(),
      completedAt: now.toISOString(),
    };
    const actionPath = `/tenants/${tenant.id}/security/devices/${device.id}`;
    const jobCtx = { ...ctx, em };
    if (action.kind === DeviceActionKind.SCAN) {
      await emitEvent(jobCtx, {
        kind: 'device.scan_completed',
        severity: (action.threatsFound ?? 0) > 0 ? 'high' : 'informational',
        tenant: tenant.eventRef,
        details: {
          ...common,
          scanType: action.scanType,
          threatsFound: action.threatsFound,
          durationSeconds: action.durationSeconds,
        },
        actionPath,
      });
    } else if (action.kind === DeviceActionKind.ISOLATE) {
      await emitEvent(jobCtx, {
        kind: 'device.isolated',
        severity: 'high',
        tenant: tenant.eventRef,
        details: {
          ...common,
          isolationType: action.isolationType,
          reason: action.reason,
          notes: action.notes,
        },
        actionPath,
      });
    } else {
      await emitEvent(jobCtx, {
        kind: 'device.released',
        severity: 'informational',
        tenant: tenant.eventRef,
        details: { ...common, reason: action.reason, notes: action.notes },
        actionPath,
      });
    }
  });
}
