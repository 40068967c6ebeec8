import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import type { CloudUserRecord } from '../provider.js';
import type {
  CloudAlertChange,
  CloudAlertCommentInput,
  CloudAlertRecord,
  CloudDeviceRecord,
  CloudDlpAlertRecord,
  CloudDlpPolicyRecord,
} from '../security.provider.js';
import { generateSecurity } from './security.generator.js';
import { withGraceFollowingClock } from './simulated-device-management.js';
import { withLockedObject } from './locked-object.js';
import { SimulatedDeviceActions } from './security-device-actions.js';
import { SimulatedCloudObject, type SimulatedObjectKind } from './simulated-cloud.entity.js';

/** What the simulated cloud stores a generated security estate as (sim_cloud_objects rows). */
export function securityObjectsOf(
  users: CloudUserRecord[],
  seed: number,
  referenceDate: Date,
): Array<{ kind: SimulatedObjectKind; externalId: string; data: object }> {
  const estate = generateSecurity(users, seed, referenceDate);
  return [
    ...estate.devices.map((data) => ({ kind: 'device' as const, externalId: data.externalId, data })),
    ...estate.alerts.map((data) => ({ kind: 'alert' as const, externalId: data.externalId, data })),
    ...estate.dlpPolicies.map((data) => ({ kind: 'dlp_policy' as const, externalId: data.externalId, data })),
    ...estate.dlpAlerts.map((data) => ({ kind: 'dlp_alert' as const, externalId: data.externalId, data })),
  ];
}

/**
 * The security side of the simulated cloud (`SimulatedCloudProvider.security`): alerts and their comments,
 * devices (their actions: security-device-actions.ts), endpoint DLP, and the test and demo hooks that add them.
 */
export class SimulatedSecurityCloud {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {
    this.actions = new SimulatedDeviceActions(orm, clock);
  }

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  private async list<T>(tenantExternalId: string, kind: SimulatedObjectKind): Promise<T[]> {
    const rows = await this.em().find(
      SimulatedCloudObject,
      { tenantExternalId, kind },
      { orderBy: { externalId: 'asc' }, fields: ['data'] },
    );
    return rows.map((row) => row.data as T);
  }

  private async put(tenantExternalId: string, kind: SimulatedObjectKind, externalId: string, data: object) {
    await this.em().upsert(
      SimulatedCloudObject,
      {
        id: randomUUID(),
        tenantExternalId,
        kind,
        externalId,
        data: data as Record<string, unknown>,
        updatedAt: this.clock.now(),
      },
      {
        onConflictFields: ['tenantExternalId', 'kind', 'externalId'],
        onConflictAction: 'merge',
        onConflictMergeFields: ['data', 'updatedAt'],
      },
    );
  }

  listAlerts(tenantExternalId: string): Promise<CloudAlertRecord[]> {
    return this.list(tenantExternalId, 'alert');
  }

  async updateAlert(
    tenantExternalId: string,
    alertExternalId: string,
    change: CloudAlertChange,
  ): Promise<CloudAlertRecord | null> {
    const key = { tenantExternalId, kind: 'alert' as const, externalId: alertExternalId };
    return withLockedObject(this.em(), key, (row) => {
      const given = Object.entries(change).filter(([, value]) => value !== undefined);
      row.data = { ...row.data, ...Object.fromEntries(given) };
      row.updatedAt = this.clock.now();
      return row.data as unknown as CloudAlertRecord;
    });
  }

  /**
   * Notes live as `alert_comment` objects keyed `<alert>/<n>`, added under the alert's lock, so counting the
   * copies of a text and adding one cannot interleave with another add.
   */
  async addAlertComment(
    tenantExternalId: string,
    alertExternalId: string,
    comment: CloudAlertCommentInput,
  ): Promise<boolean> {
    const key = { tenantExternalId, kind: 'alert' as const, externalId: alertExternalId };
    const added = await withLockedObject(this.em(), key, async (_alert, em) => {
      const notes = await em.find(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'alert_comment',
        externalId: { $like: `${alertExternalId}/%` },
      });
      const copies = notes.filter((note) => note.data.comment === comment.text).length;
      if (copies > comment.storedCopies) return true;
      em.create(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'alert_comment',
        externalId: `${alertExternalId}/${notes.length + 1}`,
        data: { comment: comment.text, createdAt: this.clock.now().toISOString() },
        updatedAt: this.clock.now(),
      });
      return true;
    });
    return added ?? false;
  }

  /** Device actions (security-device-actions.ts). */
  private readonly actions: SimulatedDeviceActions;
  startDeviceAction: SimulatedDeviceActions['startDeviceAction'] = (...args) =>
    this.actions.startDeviceAction(...args);
  getDeviceAction: SimulatedDeviceActions['getDeviceAction'] = (...args) =>
    this.actions.getDeviceAction(...args);

  async listDevices(tenantExternalId: string): Promise<CloudDeviceRecord[]> {
    const devices = await this.list<CloudDeviceRecord>(tenantExternalId, 'device');
    return devices.map((device) => withGraceFollowingClock(device, this.clock.now()));
  }

  listDlpPolicies(tenantExternalId: string): Promise<CloudDlpPolicyRecord[]> {
    return this.list(tenantExternalId, 'dlp_policy');
  }

  listDlpAlerts(tenantExternalId: string): Promise<CloudDlpAlertRecord[]> {
    return this.list(tenantExternalId, 'dlp_alert');
  }

  /**
   * Generates a security estate for a tenant that has none yet, from its users in the cloud (a test and
   * demo hook: createTenant does it for generated tenants).
   */
  async generateFor(tenantExternalId: string, seed: number): Promise<void> {
    const users = await this.list<CloudUserRecord>(tenantExternalId, 'user');
    for (const object of securityObjectsOf(users, seed, this.clock.now()))
      await this.put(tenantExternalId, object.kind, object.externalId, object.data);
  }

  /** A device appears in the cloud (test and demo hook); fields not given take ordinary values. */
  async addDevice(
    tenantExternalId: string,
    fields: Partial<CloudDeviceRecord> = {},
  ): Promise<CloudDeviceRecord> {
    const now = this.clock.now().toISOString();
    const externalId = fields.externalId ?? randomUUID();
    const device: CloudDeviceRecord = {
      externalId,
      deviceName: `DESKTOP-${externalId.slice(0, 7).toUpperCase()}`,
      osPlatform: 'Windows',
      osVersion: '10.0.22631',
      ownership: 'Corporate',
      manufacturer: 'Dell Inc.',
      model: 'Latitude 7440',
      enrolledAt: now,
      complianceState: 'Compliant',
      complianceGraceExpiresAt: null,
      userExternalId: null,
      riskLevel: 'Low',
      exposureScore: 20,
      healthState: 'Active',
      onboardingStatus: 'Onboarded',
      lastSeenAt: now,
      openRecommendations: [],
      isolated: false,
      ...fields,
    };
    await this.put(tenantExternalId, 'device', externalId, device);
    return device;
  }

  /** The cloud raises an alert (test and demo hook); fields not given take ordinary values. */
  async raiseAlert(
    tenantExternalId: string,
    fields: Partial<CloudAlertRecord> = {},
  ): Promise<CloudAlertRecord> {
    const externalId = fields.externalId ?? randomUUID();
    const alert: CloudAlertRecord = {
      externalId,
      title: 'Suspicious PowerShell command line',
      description: 'A PowerShell command with encoded arguments ran.',
      severity: 'Medium',
      status: 'New',
      category: 'Execution',
      source: 'Defender for Endpoint',
      affectedEntity: 'unknown',
      userExternalId: null,
      deviceExternalId: null,
      createdAt: this.clock.now().toISOString(),
      ...fields,
    };
    await this.put(tenantExternalId, 'alert', externalId, alert);
    return alert;
  }

  /** A DLP policy and alerts appear in the cloud (test hook). */
  async addDlp(
    tenantExternalId: string,
    policy: CloudDlpPolicyRecord,
    alerts: CloudDlpAlertRecord[] = [],
  ): Promise<void> {
    await this.put(tenantExternalId, 'dlp_policy', policy.externalId, policy);
    for (const alert of alerts) await this.put(tenantExternalId, 'dlp_alert', alert.externalId, alert);
  }
}
