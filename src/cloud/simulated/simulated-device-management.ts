import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import type { CloudEnrollmentAttemptRecord, CloudEnrollmentPlatform } from '../device-management.provider.js';
import type { CloudDeviceRecord } from '../security.provider.js';
import type { CloudUserRecord } from '../provider.js';
import { seededRandom } from './seeded-random.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';

const HOUR_MS = 3_600_000;

/** Platforms with the versions and makers an attempt may come with (old versions included, to be refused). */
const ATTEMPT_PROFILES: Array<{ platform: CloudEnrollmentPlatform; versions: string[]; makers: string[] }> = [
  {
    platform: 'Windows MDM',
    versions: ['10.0.19044', '10.0.19045', '10.0.22621', '10.0.22631'],
    makers: ['Dell', 'Lenovo', 'HP', 'Microsoft'],
  },
  { platform: 'macOS', versions: ['12.7', '13.6', '14.5', '15.1'], makers: ['Apple'] },
  { platform: 'iOS/iPadOS', versions: ['15.8', '16.7', '17.4', '17.10', '18.1'], makers: ['Apple'] },
  {
    platform: 'Android Enterprise',
    versions: ['11', '12', '13', '14'],
    makers: ['Samsung', 'Google', 'Xiaomi', 'Huawei'],
  },
  {
    platform: 'Android Device Admin',
    versions: ['9', '10', '11'],
    makers: ['Samsung', 'Motorola', 'Huawei'],
  },
];

/** A stable number from the tenant's id: its own stream, so no other generated data moves. */
function seedOf(tenantExternalId: string): number {
  return createHash('sha256').update(`enrollment:${tenantExternalId}`).digest().readUInt32BE(0);
}

/** About one user in four tried to enroll a device in the last days; deterministic per tenant and user list. */
export function generateEnrollmentAttempts(
  tenantExternalId: string,
  users: CloudUserRecord[],
  reference: Date,
): CloudEnrollmentAttemptRecord[] {
  const random = seededRandom(seedOf(tenantExternalId));
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const attempts: CloudEnrollmentAttemptRecord[] = [];
  for (const user of users) {
    if (user.deletedAt || user.userType !== 'Member' || random() >= 0.25) continue;
    const profile = pick(ATTEMPT_PROFILES);
    const manufacturer = pick(profile.makers);
    const id = createHash('sha256').update(`${tenantExternalId}:${user.externalId}:attempt`).digest('hex');
    attempts.push({
      externalId: `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
      userExternalId: user.externalId,
      userPrincipalName: user.userPrincipalName,
      deviceName: `${manufacturer.toUpperCase()}-${user.userPrincipalName.split('@')[0].slice(0, 10)}`,
      platform: profile.platform,
      osVersion: pick(profile.versions),
      ownership: random() < 0.7 ? 'Corporate' : 'Personal',
      manufacturer,
      attemptedAt: new Date(reference.getTime() - Math.floor(random() * 72) * HOUR_MS).toISOString(),
    });
  }
  return attempts;
}

/**
 * A device past its remediation deadline is Non-Compliant: the simulated cloud reports it so from that
 * moment of its clock on, so the state moves through sync as time passes (SPEC 3.3 "In Grace Period").
 */
export function withGraceFollowingClock(device: CloudDeviceRecord, now: Date): CloudDeviceRecord {
  if (
    device.complianceState === 'In Grace Period' &&
    device.complianceGraceExpiresAt !== null &&
    new Date(device.complianceGraceExpiresAt).getTime() <= now.getTime()
  ) {
    return { ...device, complianceState: 'Non-Compliant', complianceGraceExpiresAt: null };
  }
  return device;
}

/** What the simulated cloud stores a generated tenant's enrollment attempts as (sim_cloud_objects rows). */
export function enrollmentObjectsOf(
  tenantExternalId: string,
  users: CloudUserRecord[],
  referenceDate: Date,
): Array<{ kind: 'enrollment_attempt'; externalId: string; data: CloudEnrollmentAttemptRecord }> {
  return generateEnrollmentAttempts(tenantExternalId, users, referenceDate).map((data) => ({
    kind: 'enrollment_attempt',
    externalId: data.externalId,
    data,
  }));
}

/**
 * Enrollment attempts of the simulated cloud (sim_cloud_objects, kind `enrollment_attempt`): generated with
 * the tenant (simulated-cloud.provider.ts), deterministic per tenant; tests add their own with
 * `addEnrollmentAttempt`.
 */
export class SimulatedDeviceManagement {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  private async store(em: EntityManager, tenantExternalId: string, records: CloudEnrollmentAttemptRecord[]) {
    if (records.length === 0) return;
    await em
      .createQueryBuilder(SimulatedCloudObject)
      .insert(
        records.map((record) => ({
          id: randomUUID(),
          tenantExternalId,
          kind: 'enrollment_attempt' as const,
          externalId: record.externalId,
          data: record as unknown as Record<string, unknown>,
          updatedAt: this.clock.now(),
        })),
      )
      .onConflict(['tenantExternalId', 'kind', 'externalId'])
      .ignore()
      .execute('run');
  }

  async listEnrollmentAttempts(
    tenantExternalId: string,
    since: Date | null,
  ): Promise<CloudEnrollmentAttemptRecord[]> {
    const rows = await this.em().find(SimulatedCloudObject, { tenantExternalId, kind: 'enrollment_attempt' });
    return rows
      .map((row) => row.data as unknown as CloudEnrollmentAttemptRecord)
      .filter((attempt) => since === null || new Date(attempt.attemptedAt).getTime() > since.getTime())
      .sort((a, b) => a.attemptedAt.localeCompare(b.attemptedAt) || a.externalId.localeCompare(b.externalId));
  }

  /** Test and demo hook: a device tries to enroll now (or at `attemptedAt`). */
  async addEnrollmentAttempt(
    tenantExternalId: string,
    fields: Omit<CloudEnrollmentAttemptRecord, 'externalId' | 'attemptedAt' | 'deviceName'> &
      Partial<CloudEnrollmentAttemptRecord>,
  ): Promise<CloudEnrollmentAttemptRecord> {
    const record: CloudEnrollmentAttemptRecord = {
      externalId: randomUUID(),
      deviceName: `${fields.manufacturer.toUpperCase()}-${randomUUID().slice(0, 6)}`,
      attemptedAt: this.clock.now().toISOString(),
      ...fields,
    };
    await this.store(this.em(), tenantExternalId, [record]);
    return record;
  }
}
