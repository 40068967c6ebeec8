/** Graph v1.0's Microsoft 365 Backup root (docs/microsoft365.md "Backup"). */
export const BACKUP_ROOT = '/solutions/backupRestore';

/** The protection unit kinds: an Exchange mailbox, a OneDrive for Business drive, a SharePoint site. */
export type UnitKind = 'mailbox' | 'drive' | 'site';
export const UNIT_KINDS: readonly UnitKind[] = ['mailbox', 'drive', 'site'];

/**
 * A snapshot's id: the unit's kind and id, the restore point's time and id. Graph has no documented GET of one
 * restore point; the unit and time let the provider find it again in the unit's list up to that time.
 */
export interface SnapshotRef {
  kind: UnitKind;
  unitId: string;
  takenAt: string;
  restorePointId: string;
}

export function snapshotIdOf(ref: SnapshotRef): string {
  return [ref.kind, ref.unitId, ref.takenAt, ref.restorePointId].join('|');
}

export function parseSnapshotId(id: string): SnapshotRef | null {
  const [kind, unitId, takenAt, ...rest] = id.split('|');
  if (!UNIT_KINDS.includes(kind as UnitKind) || !unitId || Number.isNaN(Date.parse(takenAt ?? '')))
    return null;
  if (rest.length === 0) return null;
  return { kind: kind as UnitKind, unitId, takenAt, restorePointId: rest.join('|') };
}
