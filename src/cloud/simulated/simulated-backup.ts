import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import {
  type CloudBackupItemPage,
  type CloudBackupItemRecord,
  type CloudBackupWorkload,
  type CloudBackupSnapshotRecord,
} from '../backup.provider.js';
import type { CloudUserRecord } from '../provider.js';
import { SimulatedBackupRestores, type SimulatedBackupFault } from './simulated-backup-restore.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import {
  BACKUP_RETENTION_MS,
  collaborationResources,
  INITIAL_PROTECTION_MS,
  parseSnapshotId,
  snapshotIdOf,
  snapshotItemCount,
  snapshotTree,
  SNAPSHOT_INTERVAL_MS,
  type ProtectedResource,
} from './simulated-backup.tree.js';

/** Mailboxes and drives of at most this many users are protected per tenant (bounded demo data). */
const PROTECTED_USERS = 10;

interface ResourceWithProtection extends ProtectedResource {
  protectedSince: number;
}

/**
 * The simulated backup service. Protection starts when a resource is first seen (stored in
 * sim_cloud_objects as `backup_protection`); from then on a snapshot exists for every 4-hour slot of the
 * clock within the retention window, and its item tree follows from the resource and slot
 * (simulated-backup.tree.ts). Restores: simulated-backup-restore.ts.
 */
export class SimulatedBackupService {
  private readonly restores: SimulatedBackupRestores;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {
    this.restores = new SimulatedBackupRestores(orm, clock, (tenant, snapshot) =>
      this.findSnapshot(tenant, snapshot),
    );
  }

  /** `tenantExternalId`: the source tenant (the one whose client was asked). */
  restoreBackupItems: SimulatedBackupRestores['restoreBackupItems'] = (...args) =>
    this.restores.restoreBackupItems(...args);
  /** Test and demo hook: what the backup service of a tenant should get wrong. */
  injectFault = (tenantExternalId: string, fault: SimulatedBackupFault) =>
    this.restores.injectFault(tenantExternalId, fault);
  /** Test hook: every restore record of a restore key (how often each item was requested and applied). */
  restoreRecords: SimulatedBackupRestores['restoreRecords'] = (...args) =>
    this.restores.restoreRecords(...args);

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  async listBackupSnapshots(tenantExternalId: string): Promise<CloudBackupSnapshotRecord[]> {
    const resources = await this.protectedResources(tenantExternalId);
    const now = this.clock.now().getTime();
    return resources.flatMap((resource) =>
      this.slotsOf(resource, now).map((slot) => this.snapshotRecord(resource, slot)),
    );
  }

  async getBackupSnapshot(
    tenantExternalId: string,
    snapshotExternalId: string,
  ): Promise<CloudBackupSnapshotRecord | null> {
    const found = await this.findSnapshot(tenantExternalId, snapshotExternalId);
    return found ? this.snapshotRecord(found.resource, found.slot) : null;
  }

  async listBackupItems(
    tenantExternalId: string,
    snapshotExternalId: string,
    parentItemId: string | null,
    offset: number,
    limit: number,
  ): Promise<CloudBackupItemPage | null> {
    const found = await this.findSnapshot(tenantExternalId, snapshotExternalId);
    if (!found) return null;
    const children = snapshotTree(found.resource, found.slot).filter(
      (item) => item.parentId === parentItemId,
    );
    return { items: children.slice(offset, offset + limit), total: children.length };
  }

  async findBackupItems(
    tenantExternalId: string,
    snapshotExternalId: string,
    itemIds: string[] | null,
  ): Promise<{ items: CloudBackupItemRecord[]; missing: string[] }> {
    const found = await this.findSnapshot(tenantExternalId, snapshotExternalId);
    if (!found) return { items: [], missing: itemIds ?? [] };
    const tree = snapshotTree(found.resource, found.slot);
    if (itemIds === null) return { items: tree, missing: [] };
    const byId = new Map(tree.map((item) => [item.itemId, item]));
    return {
      items: itemIds.flatMap((id) => byId.get(id) ?? []),
      missing: itemIds.filter((id) => !byId.has(id)),
    };
  }

  async hasRestoreTarget(
    tenantExternalId: string,
    workload: CloudBackupWorkload,
    owner: string,
  ): Promise<boolean> {
    if (workload === 'Site collaboration' || workload === 'Team chat')
      return collaborationResources(tenantExternalId).some(
        (resource) => resource.workload === workload && resource.name === owner,
      );
    // A mailbox or drive is a live user's: a soft-deleted user's is preserved, but not open to new items.
    const found = await this.em()
      .getConnection()
      .execute<Array<{ found: number }>>(
        `select 1 as found from sim_cloud_objects
          where tenant_external_id = ? and kind = 'user' and lower(data->>'userPrincipalName') = lower(?)
            and data->>'deletedAt' is null limit 1`,
        [tenantExternalId, owner],
      );
    return found.length > 0;
  }

  private slotsOf(resource: ResourceWithProtection, now: number): number[] {
    const first = Math.ceil(
      Math.max(resource.protectedSince, now - BACKUP_RETENTION_MS) / SNAPSHOT_INTERVAL_MS,
    );
    const last = Math.floor(now / SNAPSHOT_INTERVAL_MS);
    const slots: number[] = [];
    for (let slot = first; slot <= last; slot++) slots.push(slot);
    return slots;
  }

  private snapshotRecord(resource: ProtectedResource, slot: number): CloudBackupSnapshotRecord {
    return {
      externalId: snapshotIdOf(resource.resourceExternalId, slot),
      workload: resource.workload,
      resourceExternalId: resource.resourceExternalId,
      resourceName: resource.name,
      userExternalId: resource.userExternalId,
      takenAt: new Date(slot * SNAPSHOT_INTERVAL_MS).toISOString(),
      itemCount: snapshotItemCount(resource, slot),
    };
  }

  /** The snapshot, if the tenant still has it (restores ask too: simulated-backup-restore.ts). */
  async findSnapshot(
    tenantExternalId: string,
    snapshotExternalId: string,
  ): Promise<{ resource: ResourceWithProtection; slot: number } | null> {
    const parsed = parseSnapshotId(snapshotExternalId);
    if (!parsed) return null;
    const resource = (await this.protectedResources(tenantExternalId)).find(
      (candidate) => candidate.resourceExternalId === parsed.resourceExternalId,
    );
    if (!resource || !this.slotsOf(resource, this.clock.now().getTime()).includes(parsed.slot)) return null;
    return { resource, slot: parsed.slot };
  }

  /**
   * Mailbox and drive of up to PROTECTED_USERS members (soft-deleted ones too), plus the tenant's sites and
   * teams. Protection is recorded once per resource and kept while the resource exists: a member protected
   * before stays protected whatever users are added later (a fixed "first N by id" cut would push an earlier
   * member out when a new user sorts before them, and their snapshots would vanish from the catalog); new
   * members are only protected while there is room.
   */
  private async protectedResources(tenantExternalId: string): Promise<ResourceWithProtection[]> {
    const em = this.em();
    const users = await em.find(
      SimulatedCloudObject,
      { tenantExternalId, kind: 'user' },
      { orderBy: { externalId: 'asc' } },
    );
    const protections = await em.find(SimulatedCloudObject, { tenantExternalId, kind: 'backup_protection' });
    const since = new Map(protections.map((row) => [row.externalId, Number(row.data.protectedSince)]));
    const isProtected = (user: CloudUserRecord) =>
      since.has(`mbx-${user.externalId}`) || since.has(`drv-${user.externalId}`);
    const records = users.map((row) => row.data as unknown as CloudUserRecord);
    // A soft-deleted user's mailbox and drive are preserved (SPEC 3.4), and so are their backups: they stay
    // protected until the purge removes the user (and with it the row read here).
    const kept = records.filter(isProtected);
    const candidates = records.filter(
      (user) => user.userType === 'Member' && !user.isServiceAccount && !isProtected(user),
    );
    const members = [...kept, ...candidates.slice(0, Math.max(0, PROTECTED_USERS - kept.length))];
    const resources: ProtectedResource[] = [
      ...members.flatMap((user) => [
        {
          resourceExternalId: `mbx-${user.externalId}`,
          workload: 'Mailbox' as const,
          name: user.userPrincipalName,
          userExternalId: user.externalId,
        },
        {
          resourceExternalId: `drv-${user.externalId}`,
          workload: 'Personal file storage' as const,
          name: `${user.userPrincipalName}/OneDrive`,
          userExternalId: user.externalId,
        },
      ]),
      ...collaborationResources(tenantExternalId),
    ];
    const now = this.clock.now().getTime();
    const fresh = resources.filter((resource) => !since.has(resource.resourceExternalId));
    if (fresh.length > 0) {
      const protectedSince = now - INITIAL_PROTECTION_MS;
      for (const resource of fresh) {
        since.set(resource.resourceExternalId, protectedSince);
        await em.upsert(
          SimulatedCloudObject,
          {
            id: randomUUID(),
            tenantExternalId,
            kind: 'backup_protection',
            externalId: resource.resourceExternalId,
            data: { protectedSince },
            updatedAt: this.clock.now(),
          },
          { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictAction: 'ignore' },
        );
      }
    }
    return resources.map((resource) => ({
      ...resource,
      protectedSince: since.get(resource.resourceExternalId)!,
    }));
  }
}
