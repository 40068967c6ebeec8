import type {
  BackupRestoreRoot,
  DriveProtectionUnit,
  MailboxProtectionUnit,
  ProtectionUnitBase,
  RestorePoint,
  SiteProtectionUnit,
} from '@microsoft/microsoft-graph-types';
import type {
  CloudBackupItemRecord,
  CloudBackupProvider,
  CloudBackupSnapshotRecord,
  CloudBackupWorkload,
  CloudRestorePlan,
} from '../backup.provider.js';
import { CloudError, isCloudError } from '../cloud-error.js';
import type { CloudPages } from '../pages.js';
import { restoreThroughSession, unsupportedRestore } from './graph-backup-restore.js';
import { graphOlderSnapshots } from './graph-backup-search.js';
import { BACKUP_ROOT, parseSnapshotId, snapshotIdOf, UNIT_KINDS, type UnitKind } from './graph-backup-ids.js';
import type { GraphTenantClient } from './graph-client.js';
import { MICROSOFT365 } from './graph-errors.js';
import { unsupportedCall } from './graph-unsupported.js';

/**
 * Microsoft 365 Backup (Backup Storage) through Graph v1.0's `/solutions/backupRestore` (docs/microsoft365.md
 * "Backup"). Its protection units are our protected resources: a mailbox (Exchange), a OneDrive (OneDrive for
 * Business), a site (SharePoint); their restore points are our snapshots. Graph restores a whole unit to a
 * restore point, through a restore session (graph-backup-restore.ts); it has no item tree of a restore
 * point, no item counts and no Teams: those answer Unsupported or null, never an invention.
 */
type AnyUnit = MailboxProtectionUnit & DriveProtectionUnit & SiteProtectionUnit & ProtectionUnitBase;

interface UnitArea {
  workload: CloudBackupWorkload;
  units: string;
  /** What the whole-resource restore item is called (the one "item" of a restore point). */
  itemType: string;
  name: (unit: AnyUnit) => string;
}

export const UNIT_AREAS: Record<UnitKind, UnitArea> = {
  mailbox: {
    workload: 'Mailbox',
    units: `${BACKUP_ROOT}/mailboxProtectionUnits`,
    itemType: 'Mailbox',
    name: (unit) => unit.email ?? unit.displayName ?? unit.id ?? '',
  },
  drive: {
    workload: 'Personal file storage',
    units: `${BACKUP_ROOT}/driveProtectionUnits`,
    itemType: 'OneDrive',
    // The simulated cloud's naming of a drive, so both clouds show the same.
    name: (unit) => `${unit.email ?? unit.displayName ?? unit.id ?? ''}/OneDrive`,
  },
  site: {
    workload: 'Site collaboration',
    units: `${BACKUP_ROOT}/siteProtectionUnits`,
    itemType: 'Site',
    name: (unit) => siteName(unit),
  },
};

/** `/sites/<name>` from the site's URL (our location form for sites), else its display name. */
function siteName(unit: AnyUnit): string {
  const path = unit.siteWebUrl ? new URL(unit.siteWebUrl).pathname.replace(/\/$/, '') : '';
  return /^\/(sites|teams)\/[^/]+$/.test(path) ? path : (unit.siteName ?? unit.id ?? '');
}

/** Graph's time form in `$filter` (seconds, Z). */
const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * "List restorePoints": `$expand` and `$filter` are required, and Graph answers the five newest restore
 * points of the unit before `before`.
 */
function restorePointsUrl(unitId: string, before: number): string {
  const expand = encodeURIComponent(`protectionUnit($filter=id eq '${unitId.replace(/'/g, "''")}')`);
  const filter = encodeURIComponent(`protectionDateTime lt ${graphTime(before)}`);
  return `${BACKUP_ROOT}/restorePoints?$expand=${expand}&$filter=${filter}`;
}

/**
 * The tenant's Microsoft 365 Backup must be on (GET /solutions/backupRestore, serviceStatus): a tenant without
 * it has no backup service, which is answered as the capability missing (CloudError Unsupported `backup`,
 * 501), not as an empty catalog; restoreLocked refuses restores (Refused, 409) while the catalog still reads.
 */
export async function assertBackupService(graph: GraphTenantClient, restoring: boolean): Promise<void> {
  const root = await graph.get<BackupRestoreRoot>(BACKUP_ROOT);
  const status = root.serviceStatus?.status ?? 'disabled';
  if (status === 'disabled' || status === 'unknownFutureValue') {
    const reason = root.serviceStatus?.disableReason;
    throw new CloudError(
      'Unsupported',
      `Microsoft 365 Backup is not enabled for tenant ${graph.tenantId} (serviceStatus ${status}` +
        `${reason && reason !== 'none' ? `, ${reason}` : ''}): it has no snapshots to list or restore from ` +
        `(capability "backup", provider ${MICROSOFT365})`,
      { provider: MICROSOFT365, capability: 'backup', tenantExternalId: graph.tenantId },
    );
  }
  if (restoring && status === 'restoreLocked')
    throw new CloudError(
      'Refused',
      `Microsoft 365 Backup of tenant ${graph.tenantId} is restore-locked: restores are not allowed`,
      { provider: MICROSOFT365, cloudCode: 'restoreLocked', tenantExternalId: graph.tenantId },
    );
}

function snapshotOf(kind: UnitKind, unit: AnyUnit, point: RestorePoint): CloudBackupSnapshotRecord | null {
  if (!point.id || !point.protectionDateTime || !unit.id) return null;
  const takenAt = new Date(point.protectionDateTime).toISOString();
  return {
    externalId: snapshotIdOf({ kind, unitId: unit.id, takenAt, restorePointId: point.id }),
    workload: UNIT_AREAS[kind].workload,
    resourceExternalId: unit.id,
    resourceName: UNIT_AREAS[kind].name(unit),
    // Mailbox and OneDrive units name their user (directoryObjectId); sites have none.
    userExternalId: kind === 'site' ? null : (unit.directoryObjectId ?? null),
    takenAt,
    itemCount: null, // Graph's restore points carry no item count
  };
}

/**
 * Days before today whose last restore point the catalog lists besides the five newest: Microsoft 365 Backup
 * keeps a point every 10 minutes for 14 days, so the five newest alone would cover the last hour only.
 */
export const DAILY_RESTORE_POINT_DAYS = 14;
const DAY_MS = 24 * 3_600_000;

/**
 * The instants each unit's list is asked "before": now (its five newest), then each of the past
 * DAILY_RESTORE_POINT_DAYS midnights (UTC), whose newest answer is that day's last restore point.
 */
function listInstants(now: number): number[] {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  return [now, ...Array.from({ length: DAILY_RESTORE_POINT_DAYS }, (_, day) => midnight - day * DAY_MS)];
}

/** One page of units → their restore points, in JSON batches of 20 list requests. */
async function snapshotsOfUnits(
  graph: GraphTenantClient,
  kind: UnitKind,
  units: AnyUnit[],
): Promise<CloudBackupSnapshotRecord[]> {
  // Graph's restore points are on the real clock (not ours).
  const instants = listInstants(Date.now() + 1_000);
  const withIds = units.filter((unit) => unit.id);
  const results = await graph.batch(
    withIds.flatMap((unit, index) =>
      instants.map((before, step) => ({
        id: `${index}.${step}`,
        method: 'GET' as const,
        url: restorePointsUrl(unit.id!, before),
      })),
    ),
  );
  const seen = new Set<string>();
  return results.flatMap((result) => {
    if (!result.ok) throw result.error;
    const [index, step] = result.id.split('.').map(Number);
    const points = [...((result.body as { value?: RestorePoint[] }).value ?? [])].sort((a, b) =>
      (b.protectionDateTime ?? '').localeCompare(a.protectionDateTime ?? ''),
    );
    // All five of "now"; of a day's answer, its newest: that day's last restore point.
    return (step === 0 ? points : points.slice(0, 1)).flatMap((point) => {
      if (!point.id || seen.has(point.id)) return [];
      seen.add(point.id);
      return snapshotOf(kind, withIds[index], point) ?? [];
    });
  });
}

function listSnapshots(graph: GraphTenantClient): CloudPages<CloudBackupSnapshotRecord> {
  return {
    async *[Symbol.asyncIterator]() {
      await assertBackupService(graph, false);
      for (const kind of UNIT_KINDS)
        for await (const page of graph.pages<AnyUnit>(UNIT_AREAS[kind].units)) {
          const snapshots = await snapshotsOfUnits(graph, kind, page.value);
          if (snapshots.length > 0) yield snapshots;
        }
    },
  };
}

/** The restore point behind a snapshot id, if Graph still lists it (null when it expired or never was). */
async function findSnapshot(
  graph: GraphTenantClient,
  snapshotExternalId: string,
): Promise<CloudBackupSnapshotRecord | null> {
  const ref = parseSnapshotId(snapshotExternalId);
  if (!ref) return null;
  let unit: AnyUnit;
  try {
    unit = await graph.get<AnyUnit>(`${UNIT_AREAS[ref.kind].units}/${encodeURIComponent(ref.unitId)}`);
  } catch (error) {
    if (isCloudError(error, 'NotFound')) return null; // the unit is gone, and its restore points with it
    throw error;
  }
  const page = await graph.get<{ value?: RestorePoint[] }>(
    restorePointsUrl(ref.unitId, Date.parse(ref.takenAt) + 1_000),
  );
  const point = (page.value ?? []).find((candidate) => candidate.id === ref.restorePointId);
  return point ? snapshotOf(ref.kind, unit, point) : null;
}

/**
 * A restore point's one restorable "item": the whole mailbox, OneDrive or site as of that point (Graph
 * restores nothing smaller). Size and dates are not shown for restore items; Graph gives none.
 */
async function wholeResource(
  graph: GraphTenantClient,
  snapshotExternalId: string,
  itemIds: string[] | null,
): Promise<{ items: CloudBackupItemRecord[]; missing: string[] }> {
  if (itemIds !== null) return unsupportedCall('backupItemBrowsing');
  const snapshot = await findSnapshot(graph, snapshotExternalId);
  if (!snapshot) return { items: [], missing: [] };
  const ref = parseSnapshotId(snapshotExternalId)!;
  return {
    items: [
      {
        itemId: ref.restorePointId,
        parentId: null,
        name: snapshot.resourceName,
        kind: 'Item',
        itemType: UNIT_AREAS[ref.kind].itemType,
        path: snapshot.resourceName,
        sizeBytes: 0,
        childCount: 0,
        modifiedAt: snapshot.takenAt,
      },
    ],
    missing: [],
  };
}

async function checkRestore(graph: GraphTenantClient, plan: CloudRestorePlan): Promise<void> {
  const unsupported = unsupportedRestore(plan);
  if (unsupported) return unsupportedCall(unsupported);
  await assertBackupService(graph, true);
}

/** The backup area of a Microsoft 365 tenant's client (graph-areas.ts). */
export function graphBackup(graph: GraphTenantClient): CloudBackupProvider {
  return {
    listBackupSnapshots: () => listSnapshots(graph),
    olderSnapshots: graphOlderSnapshots(graph),
    getBackupSnapshot: (snapshotExternalId) => findSnapshot(graph, snapshotExternalId),
    listBackupItems: () => unsupportedCall('backupItemBrowsing'),
    findBackupItems: (snapshotExternalId, itemIds) => wholeResource(graph, snapshotExternalId, itemIds),
    hasRestoreTarget: () => unsupportedCall('backupRestoreElsewhere'),
    checkRestore: (plan) => checkRestore(graph, plan),
    restoreBackupItems: (request) => restoreThroughSession(graph, request),
  };
}
