import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError, type FieldProblem } from '../core/errors.js';
import { enqueueJob } from '../core/jobs.js';
import type { ServiceContext } from '../core/service-context.js';
import { DeviceSecurityService } from './device-security.service.js';
import { DeviceAction } from './device-action.entity.js';
import { Device } from './device.entity.js';
import {
  ACTIVE_ACTION_STATUSES,
  DeviceActionKind,
  IsolationState,
  OnboardingStatus,
  type IsolationType,
  type ScanType,
} from './device.enums.js';
import type {
  IsolateDeviceInput,
  IsolationStatus,
  ReleaseDeviceInput,
  ScanDeviceInput,
} from './device.types.js';

export const DEVICE_ACTION_TASK = 'device-action';
export interface DeviceActionJobPayload extends Record<string, unknown> {
  organizationId: string;
  environment: string;
  actionId: string;
}
/** graphile-worker attempts before the job marks its action Failed (device-action.task.ts). */
export const DEVICE_ACTION_MAX_ATTEMPTS = 5; // = TRACKED_JOB_QUEUE_ATTEMPTS (core/tracked-job.ts)

const MAX_REASON_LENGTH = 1000;
const MAX_NOTES_LENGTH = 4000;

function text(
  field: string,
  value: string | null | undefined,
  max: number,
  required: boolean,
  problems: FieldProblem[],
): string | null {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') {
    if (required) problems.push({ field, problem: 'is required and must not be empty' });
    return null;
  }
  if (trimmed.length > max) problems.push({ field, problem: `must be at most ${max} characters long` });
  return trimmed;
}

interface NewAction {
  kind: DeviceActionKind;
  isolationType?: IsolationType;
  scanType?: ScanType;
  reason?: string | null;
  notes?: string | null;
}

/**
 * Isolation, release and antivirus scans of a device (SPEC 3.2, 4.2, DECISIONS "Device isolation"). Each
 * request writes a Pending action and its job in one transaction and answers 202; the job carries it out
 * through the cloud (device-action.task.ts). Both isolate routes call `isolate`.
 */
export class DeviceActionService {
  constructor(private readonly ctx: ServiceContext) {}

  /** 409 when the device is isolated, has an isolation or release in flight, or is not onboarded. */
  async isolate(tenantId: string, deviceId: string, input: IsolateDeviceInput): Promise<DeviceAction> {
    const problems: FieldProblem[] = [];
    const reason = text('reason', input.reason, MAX_REASON_LENGTH, true, problems);
    const notes = text('notes', input.notes, MAX_NOTES_LENGTH, true, problems);
    if (problems.length > 0) throw new InvalidRequestError('Isolation needs a reason and notes', problems);
    return this.request(tenantId, deviceId, {
      kind: DeviceActionKind.ISOLATE,
      isolationType: input.type,
      reason,
      notes,
    });
  }

  /** 409 when the device is not isolated or an isolation or release is in flight. */
  async release(tenantId: string, deviceId: string, input: ReleaseDeviceInput): Promise<DeviceAction> {
    const problems: FieldProblem[] = [];
    const reason = text('reason', input.reason, MAX_REASON_LENGTH, true, problems);
    const notes = text('notes', input.notes, MAX_NOTES_LENGTH, false, problems);
    if (problems.length > 0) throw new InvalidRequestError('Release needs a reason', problems);
    return this.request(tenantId, deviceId, { kind: DeviceActionKind.RELEASE, reason, notes });
  }

  /** 409 when the device is not onboarded or a scan is in flight. */
  scan(tenantId: string, deviceId: string, input: ScanDeviceInput): Promise<DeviceAction> {
    return this.request(tenantId, deviceId, { kind: DeviceActionKind.SCAN, scanType: input.type });
  }

  async isolationStatus(tenantId: string, deviceId: string): Promise<IsolationStatus> {
    const device = await new DeviceSecurityService(this.ctx).get(tenantId, deviceId);
    const lastAction = await this.ctx.em.findOne(
      DeviceAction,
      { deviceId: device.id, kind: { $in: [DeviceActionKind.ISOLATE, DeviceActionKind.RELEASE] } },
      { orderBy: { requestedAt: 'desc', id: 'desc' }, refresh: true },
    );
    return {
      deviceId: device.id,
      state: device.isolationState,
      isolationType: device.isolationType,
      actionInProgress:
        lastAction !== null && (ACTIVE_ACTION_STATUSES as readonly string[]).includes(lastAction.status),
      lastAction,
    };
  }

  private async request(tenantId: string, deviceId: string, wanted: NewAction): Promise<DeviceAction> {
    await new DeviceSecurityService(this.ctx).get(tenantId, deviceId); // 404 first
    try {
      return await this.ctx.em.transactional(async (em) => {
        const device = await em.findOneOrFail(
          Device,
          { id: deviceId, tenantId },
          { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
        );
        await this.assertAllowed(em, device, wanted.kind);
        const action = em.create(DeviceAction, {
          organizationId: this.ctx.scope.organizationId,
          environment: this.ctx.scope.environment,
          tenantId,
          deviceId,
          kind: wanted.kind,
          isolationType: wanted.isolationType ?? null,
          scanType: wanted.scanType ?? null,
          reason: wanted.reason ?? null,
          notes: wanted.notes ?? null,
          requestedBy: this.ctx.actor,
          requestedAt: this.ctx.clock.now(),
        });
        await em.flush();
        const payload: DeviceActionJobPayload = { ...this.ctx.scope, actionId: action.id };
        await enqueueJob(em, DEVICE_ACTION_TASK, payload, { maxAttempts: DEVICE_ACTION_MAX_ATTEMPTS });
        return action;
      });
    } catch (error) {
      // Two requests at once: the partial unique index lets one action in flight per device and family.
      if (error instanceof UniqueConstraintViolationException)
        throw new ConflictError(`Device ${deviceId} already has a ${wanted.kind.toLowerCase()} in progress`, {
          action: wanted.kind,
          reason: 'action in progress',
        });
      throw error;
    }
  }

  private async assertAllowed(em: EntityManager, device: Device, kind: DeviceActionKind): Promise<void> {
    if (kind !== DeviceActionKind.RELEASE && device.onboardingStatus !== OnboardingStatus.ONBOARDED)
      throw new ConflictError(
        `Device ${device.id} is ${device.onboardingStatus}: only onboarded devices can be ${kind === DeviceActionKind.SCAN ? 'scanned' : 'isolated'}`,
        { action: kind, onboardingStatus: device.onboardingStatus, required: OnboardingStatus.ONBOARDED },
      );
    const family =
      kind === DeviceActionKind.SCAN
        ? [DeviceActionKind.SCAN]
        : [DeviceActionKind.ISOLATE, DeviceActionKind.RELEASE];
    const inFlight = await em.findOne(DeviceAction, {
      deviceId: device.id,
      kind: { $in: family },
      status: { $in: [...ACTIVE_ACTION_STATUSES] },
    });
    if (inFlight)
      throw new ConflictError(
        `Device ${device.id} already has a ${inFlight.kind} action ${inFlight.status}`,
        {
          action: kind,
          reason: 'action in progress',
          actionInProgress: { id: inFlight.id, kind: inFlight.kind, status: inFlight.status },
        },
      );
    if (kind === DeviceActionKind.ISOLATE && device.isolationState === IsolationState.ISOLATED)
      throw new ConflictError(`Device ${device.id} is already isolated`, {
        from: IsolationState.ISOLATED,
        to: IsolationState.ISOLATED,
        allowed: ['release'],
      });
    if (kind === DeviceActionKind.RELEASE && device.isolationState !== IsolationState.ISOLATED)
      throw new ConflictError(`Device ${device.id} is not isolated`, {
        from: IsolationState.NOT_ISOLATED,
        to: IsolationState.NOT_ISOLATED,
        allowed: ['isolate'],
      });
  }
}
