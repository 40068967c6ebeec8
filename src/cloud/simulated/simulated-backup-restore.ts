import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import { CloudError } from '../cloud-error.js';
import type {
  CloudBackupItemRecord,
  CloudRestoreItemResult,
  CloudRestoreRequest,
} from '../backup.provider.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import { existsInLiveTenant, snapshotTree, type ProtectedResource } from './simulated-backup.tree.js';

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

export interface StoredRestore {
  result: CloudRestoreItemResult;
  /** How many times the item was actually put in place: 1, whatever the number of requests. */
  applied: number;
  requests: number;
}

/** Finds a snapshot a tenant still has (the catalog side, simulated-backup.ts). */
export type FindSnapshot = (
  tenantExternalId: string,
  snapshotExternalId: string,
) => Promise<{ resource: ProtectedResource; slot: number } | null>;

/**
 * Restores of the simulated backup service: recorded per restore key and item (`backup_restore`), so a
 * repeated batch puts nothing in place twice; what they put in place (`backup_placed_item`) is what later
 * restores conflict with. A test or demo can make them fail (`injectFault`).
 */
export class SimulatedBackupRestores {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
    private readonly findSnapshot: FindSnapshot,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
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
      const placing = new Placing(request, found.resource, this.clock);
      await placing.load(
        em,
        request.itemIds.flatMap((itemId) => {
          const item = tree.get(itemId);
          return item && !storedByKey.has(`${request.restoreKey}:${itemId}`) && !failing.has(itemId)
            ? [item]
            : [];
        }),
      );
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
            : placing.place(item);
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
      await placing.save(em);
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

  private async fault(tenantExternalId: string): Promise<SimulatedBackupFault> {
    const row = await this.em().findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'backup_fault',
      externalId: 'restore',
    });
    return (row?.data ?? {}) as SimulatedBackupFault;
  }
}

function failed(itemId: string, detail: string): CloudRestoreItemResult {
  return { itemId, outcome: 'Failed', detail, restoredTo: null, exported: null };
}

/**
 * Where a batch's items go and what is already there: the target's placed items read in one query before the
 * batch and written in one statement after it, with the batch's own placements seen by the items after them (as
 * one write per item would be).
 */
class Placing {
  /** Target paths taken: placed before the batch (those the batch may meet) or by the batch so far. */
  private readonly taken = new Set<string>();
  /** The batch's placements by target path (the last write of a path wins, as an upsert per item did). */
  private readonly placed = new Map<string, { itemId: string }>();

  constructor(
    private readonly request: CloudRestoreRequest,
    private readonly resource: ProtectedResource,
    private readonly clock: Clock,
  ) {}

  /** Reads which of the places these items may take are already taken in the target. */
  async load(em: EntityManager, items: CloudBackupItemRecord[]): Promise<void> {
    if (this.request.target.kind === 'Export' || items.length === 0) return;
    const places = items.flatMap((item) => [this.placeOf(item), `${this.placeOf(item)} (restored)`]);
    const rows = await em.find(
      SimulatedCloudObject,
      {
        tenantExternalId: this.request.target.tenantExternalId,
        kind: 'backup_placed_item',
        externalId: { $in: places },
      },
      { fields: ['externalId'] },
    );
    for (const row of rows) this.taken.add(row.externalId);
  }

  place(item: CloudBackupItemRecord): CloudRestoreItemResult {
    const { target } = this.request;
    if (target.kind === 'Export') {
      return {
        itemId: item.itemId,
        outcome: 'Restored',
        detail: null,
        restoredTo: null,
        exported: { ...item, content: `${item.itemType} "${item.name}" from ${item.path}` },
      };
    }
    const place = this.placeOf(item);
    const exists =
      this.taken.has(place) ||
      (target.kind === 'Original location' &&
        existsInLiveTenant(this.resource.resourceExternalId, item.itemId));
    let restoredTo = place;
    let detail: string | null = null;
    if (exists) {
      if (this.request.conflictPolicy === 'Skip') {
        return {
          itemId: item.itemId,
          outcome: 'Skipped',
          detail: 'An item with this name already exists at the target (conflict policy Skip)',
          restoredTo: place,
          exported: null,
        };
      }
      if (this.request.conflictPolicy === 'Overwrite') {
        detail = 'Replaced the existing item (conflict policy Overwrite)';
      } else {
        restoredTo = `${place} (restored)`;
        detail = 'Restored beside the existing item under a new name (conflict policy Keep both)';
      }
    }
    this.taken.add(restoredTo);
    this.placed.set(restoredTo, { itemId: item.itemId });
    return { itemId: item.itemId, outcome: 'Restored', detail, restoredTo, exported: null };
  }

  /** The batch's placements, in one statement (a place taken before keeps its row, with the new item). */
  async save(em: EntityManager): Promise<void> {
    if (this.placed.size === 0) return;
    await em.upsertMany(
      SimulatedCloudObject,
      [...this.placed].map(([externalId, { itemId }]) => ({
        id: randomUUID(),
        tenantExternalId: this.request.target.tenantExternalId,
        kind: 'backup_placed_item',
        externalId,
        data: { itemId, restoreKey: this.request.restoreKey },
        updatedAt: this.clock.now(),
      })),
      { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictMergeFields: ['data'] },
    );
  }

  private placeOf(item: CloudBackupItemRecord): string {
    const { target } = this.request;
    const base = target.kind === 'Original location' ? this.resource.name : target.location;
    return `${base}/${item.path.slice(this.resource.name.length + 1)}`;
  }
}
