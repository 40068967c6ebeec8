import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import { CloudError } from '../cloud-error.js';
import {
  type CloudBackupItemPage,
  type CloudBackupItemRecord,
  type CloudBackupWorkload,
  type CloudBackupSnapshotRecord,
  type CloudRestoreItemResult,
  type CloudRestoreRequest,
} from '../backup.provider.js';
import type { CloudUserRecord } from '../provider.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import {
  BACKUP_RETENTION_MS,
  collaborationResources,
  existsInLiveTenant,
  INITIAL_PROTECTION_MS,
  leafCount,
  parseSnapshotId,
  snapshotIdOf,
  snapshotTree,
  SNAPSHOT_INTERVAL_MS,
  type ProtectedResource,
} from './simulated-backup.tree.js';

/** Mailboxes and drives of at most this many users are protected per tenant (bounded demo data). */
const PROTECTED_USERS = 10;

/** Faults a test (or a demo) can inject into a tenant's backup service. */
export interface SimulatedBackupFault {
  /** Every restore call fails as "unavailable" with this reason (retried by the job, then Failed). */
  unavailable?: string;
  /** Every restore call is refused for good with this reason (the job fails at once). */
  refused?: string;
  /** These item ids fail their integrity check on restore. */
  failItemIds?: string[];
  /** Each restore call takes this long (a slow upstream), so a restore can be interrupted mid-run. */
  delayMs?: number;
}

interface StoredRestore {
  result: CloudRestoreItemResult;
  /** How many times the item was actually put in place: 1, whatever the number of requests. */
  applied: number;
  requests: number;
}

interface ResourceWithProtection extends ProtectedResource {
  protectedSince: number;
}

/**
 * The simulated backup service. Protection starts when a resource is first seen (stored in
 * sim_cloud_objects as `backup_protection`); from then on a snapshot exists for every 4-hour slot of the
 * clock within the retention window, and its item tree follows from the resource and slot
 * (simulated-backup.tree.ts). Restores are recorded per restore key and item (`backup_restore`), and what
 * they put in place (`backup_placed_item`) is what later restores conflict with.
 */
export class SimulatedBackupService {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

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

  /** `tenantExternalId`: the source tenant (the one whose client was asked). */
  async restoreBackupItems(
    request: CloudRestoreRequest & { tenantExternalId: string },
  ): Promise<CloudRestoreItemResult[]> {
    const fault = await this.fault(request.tenantExternalId);
    const provider = 'simulated';
    if (fault.unavailable) throw new CloudError('Transient', fault.unavailable, { provider });
    if (fault.refused) throw new CloudError('Refused', fault.refused, { provider });
    const found = await this.findSnapshot(request.tenantExternalId, request.snapshotExternalId);
    if (!found)
      throw new CloudError('Refused', `Snapshot ${request.snapshotExternalId} no longer exists`, {
        provider,
      });
    if (fault.delayMs) await delay(fault.delayMs);
    const tree = new Map(snapshotTree(found.resource, found.slot).map((item) => [item.itemId, item]));
    const failing = new Set(fault.failItemIds ?? []);
    return this.em().transactional(async (em) => {
      // Two calls with the same key (a retried batch) queue here, so an item is never put in place twice.
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [request.restoreKey]);
      const keys = request.itemIds.map((itemId) => `${request.restoreKey}:${itemId}`);
      const stored = await em.find(SimulatedCloudObject, {
        tenantExternalId: request.tenantExternalId,
        kind: 'backup_restore',
        externalId: { $in: keys },
      });
      const storedByKey = new Map(stored.map((row) => [row.externalId, row]));
      const results: CloudRestoreItemResult[] = [];
      for (const itemId of request.itemIds) {
        const key = `${request.restoreKey}:${itemId}`;
        const previous = storedByKey.get(key);
        if (previous) {
          const data = previous.data as unknown as StoredRestore;
          previous.data = { ...data, requests: data.requests + 1 } as unknown as Record<string, unknown>;
          results.push(data.result);
          continue;
        }
        const item = tree.get(itemId);
        const result = !item
          ? failed(itemId, 'The item is not in this snapshot')
          : failing.has(itemId)
            ? failed(itemId, 'The backup copy of this item failed its integrity check')
            : await this.place(em, request, found.resource, item);
        const record: StoredRestore = { result, applied: result.outcome === 'Restored' ? 1 : 0, requests: 1 };
        em.create(SimulatedCloudObject, {
          tenantExternalId: request.tenantExternalId,
          kind: 'backup_restore',
          externalId: key,
          data: record as unknown as Record<string, unknown>,
          updatedAt: this.clock.now(),
        });
        results.push(result);
      }
      await em.flush();
      return results;
    });
  }

  /** Test and demo hook: what the backup service of a tenant should get wrong. */
  async injectFault(tenantExternalId: string, fault: SimulatedBackupFault): Promise<void> {
    await this.em().upsert(
      SimulatedCloudObject,
      {
        id: randomUUID(),
        tenantExternalId,
        kind: 'backup_fault',
        externalId: 'restore',
        data: fault as Record<string, unknown>,
        updatedAt: this.clock.now(),
      },
      { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictMergeFields: ['data'] },
    );
  }

  /** Test hook: every restore record of a restore key (how often each item was requested and applied). */
  async restoreRecords(tenantExternalId: string, restoreKey: string): Promise<Map<string, StoredRestore>> {
    const rows = await this.em().find(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'backup_restore',
      externalId: { $like: `${restoreKey}:%` },
    });
    return new Map(
      rows.map((row) => [row.externalId.slice(restoreKey.length + 1), row.data as unknown as StoredRestore]),
    );
  }

  private async place(
    em: EntityManager,
    request: CloudRestoreRequest,
    resource: ProtectedResource,
    item: CloudBackupItemRecord,
  ): Promise<CloudRestoreItemResult> {
    const { target } = request;
    if (target.kind === 'Export') {
      return {
        itemId: item.itemId,
        outcome: 'Restored',
        detail: null,
        restoredTo: null,
        exported: { ...item, content: `${item.itemType} "${item.name}" from ${item.path}` },
      };
    }
    const place =
      target.kind === 'Original location'
        ? `${resource.name}/${item.path.slice(resource.name.length + 1)}`
        : `${target.location}/${item.path.slice(resource.name.length + 1)}`;
    const placedKey = `${place}`;
    const placed = await em.count(SimulatedCloudObject, {
      tenantExternalId: target.tenantExternalId,
      kind: 'backup_placed_item',
      externalId: placedKey,
    });
    const exists =
      placed > 0 ||
      (target.kind === 'Original location' && existsInLiveTenant(resource.resourceExternalId, item.itemId));
    let restoredTo = place;
    let detail: string | null = null;
    if (exists) {
      if (request.conflictPolicy === 'Skip') {
        return {
          itemId: item.itemId,
          outcome: 'Skipped',
          detail: 'An item with this name already exists at the target (conflict policy Skip)',
          restoredTo: place,
          exported: null,
        };
      }
      if (request.conflictPolicy === 'Overwrite') {
        detail = 'Replaced the existing item (conflict policy Overwrite)';
      } else {
        restoredTo = `${place} (restored)`;
        detail = 'Restored beside the existing item under a new name (conflict policy Keep both)';
      }
    }
    await em.upsert(
      SimulatedCloudObject,
      {
        id: randomUUID(),
        tenantExternalId: target.tenantExternalId,
        kind: 'backup_placed_item',
        externalId: restoredTo,
        data: { itemId: item.itemId, restoreKey: request.restoreKey },
        updatedAt: this.clock.now(),
      },
      { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictMergeFields: ['data'] },
    );
    return { itemId: item.itemId, outcome: 'Restored', detail, restoredTo, exported: null };
  }

  private async fault(tenantExternalId: string): Promise<SimulatedBackupFault> {
    const row = await this.em().findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'backup_fault',
      externalId: 'restore',
    });
    return (row?.data ?? {}) as SimulatedBackupFault;
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
      itemCount: leafCount(snapshotTree(resource, slot)),
    };
  }

  private async findSnapshot(
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

function failed(itemId: string, detail: string): CloudRestoreItemResult {
  return { itemId, outcome: 'Failed', detail, restoredTo: null, exported: null };
}
