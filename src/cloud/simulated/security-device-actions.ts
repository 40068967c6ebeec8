import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import type {
  CloudDeviceActionRecord,
  CloudDeviceActionRequest,
  CloudDeviceRecord,
} from '../security.provider.js';
import { lockObject, withLockedObject } from './locked-object.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';

/** A small stable hash of a string, for deterministic scan results. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

/**
 * Device actions of the simulated cloud (isolate, release, scan), run as the real cloud's are, asynchronously:
 * a start records the action InProgress, and the cloud carries it out by the time its status is next read. An
 * action on a device that does not check in (health Inactive) or is not onboarded fails, with the reason the
 * cloud gives.
 */
export class SimulatedDeviceActions {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async startDeviceAction(
    tenantExternalId: string,
    deviceExternalId: string,
    request: CloudDeviceActionRequest,
  ): Promise<CloudDeviceActionRecord> {
    return this.em().transactional(async (em) => {
      const existing = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'device_action',
        externalId: request.requestId,
      });
      if (existing) return existing.data as unknown as CloudDeviceActionRecord;
      const device = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'device',
        externalId: deviceExternalId,
      });
      if (!device) throw new Error(`The upstream cloud has no device ${deviceExternalId}`);
      const action: CloudDeviceActionRecord = {
        externalId: request.requestId,
        requestId: request.requestId,
        deviceExternalId,
        kind: request.kind,
        type: request.type,
        status: 'InProgress',
        startedAt: this.clock.now().toISOString(),
        completedAt: null,
        failureReason: null,
        threatsFound: null,
        durationSeconds: null,
      };
      em.create(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'device_action',
        externalId: action.externalId,
        data: { ...action },
        updatedAt: this.clock.now(),
      });
      return action;
    });
  }

  async getDeviceAction(
    tenantExternalId: string,
    actionExternalId: string,
  ): Promise<CloudDeviceActionRecord | null> {
    const key = { tenantExternalId, kind: 'device_action' as const, externalId: actionExternalId };
    return withLockedObject(this.em(), key, async (row, em) => {
      const action = row.data as unknown as CloudDeviceActionRecord;
      if (action.status !== 'InProgress') return action;
      const deviceRow = await lockObject(em, {
        tenantExternalId,
        kind: 'device',
        externalId: action.deviceExternalId,
      });
      const device = deviceRow?.data as unknown as CloudDeviceRecord | undefined;
      const now = this.clock.now();
      const done = this.carryOut(action, device, now);
      row.data = { ...done };
      row.updatedAt = now;
      if (deviceRow && device && done.status === 'Succeeded' && action.kind !== 'Scan') {
        deviceRow.data = { ...device, isolated: action.kind === 'Isolate' };
        deviceRow.updatedAt = now;
      }
      return done;
    });
  }

  private carryOut(
    action: CloudDeviceActionRecord,
    device: CloudDeviceRecord | undefined,
    now: Date,
  ): CloudDeviceActionRecord {
    const completedAt = now.toISOString();
    const failed = (failureReason: string) => ({
      ...action,
      status: 'Failed' as const,
      completedAt,
      failureReason,
    });
    if (!device) return failed('The device no longer exists in the cloud');
    if (device.onboardingStatus !== 'Onboarded')
      return failed(`The device is not onboarded (${device.onboardingStatus})`);
    if (device.healthState === 'Inactive')
      return failed(`The device has not checked in since ${device.lastSeenAt}; the action timed out`);
    if (action.kind !== 'Scan') return { ...action, status: 'Succeeded', completedAt };
    const hash = hashOf(action.requestId);
    const full = action.type === 'Full';
    return {
      ...action,
      status: 'Succeeded',
      completedAt,
      threatsFound: hash % (full ? 4 : 2),
      durationSeconds: full ? 1200 + (hash % 4200) : 60 + (hash % 240),
    };
  }
}
