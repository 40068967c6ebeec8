import type { RestorePoint } from '@microsoft/microsoft-graph-types';
import type { CloudBackupWorkload, CloudOlderSnapshots } from '../backup.provider.js';
import { BACKUP_ROOT, snapshotIdOf, UNIT_KINDS, type UnitKind } from './graph-backup-ids.js';
import type { GraphTenantClient } from './graph-client.js';

/**
 * Restore points older than the hourly catalog's days (graph-backup.ts lists each resource's five newest and
 * the last of each of the past 14 days), on demand: Graph v1.0's "restorePoint: search"
 * (`POST /solutions/backupRestore/restorePoints/search`, BackupRestore-Search.Read.All) with the unit and a
 * `protectionTimePeriod`, `restorePointPreference: latest`. Graph answers at most five restore points per call
 * and does not page, so a listing walks back five at a time, each call ending where the previous one's oldest
 * began. docs/microsoft365.md "Backup".
 */
const SEARCH = `${BACKUP_ROOT}/restorePoints/search`;
const PER_CALL = 5;
const DAY_MS = 24 * 3_600_000;
/** The days the hourly catalog covers (graph-backup.ts DAILY_RESTORE_POINT_DAYS), back from today's midnight. */
const CATALOG_DAYS = 14;

interface SearchResponse {
  searchResults?: Array<{ restorePoint?: RestorePoint | null }> | null;
}

/** A workload's unit kind (the catalog's snapshots say their workload). */
const KIND_OF: Partial<Record<CloudBackupWorkload, UnitKind>> = {
  Mailbox: 'mailbox',
  'Personal file storage': 'drive',
  'Site collaboration': 'site',
};

/** Graph's time form (seconds, Z). */
const graphTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function graphOlderSnapshots(graph: GraphTenantClient): CloudOlderSnapshots {
  return {
    perCall: PER_CALL,
    // Graph's restore points are on the real clock: the catalog's oldest list instant is 13 midnights back,
    // and its answer that day's last point, so what the catalog holds starts 14 midnights back.
    listedSince: () => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - CATALOG_DAYS * DAY_MS),
    async listBefore(resource, from, before) {
      const kind = KIND_OF[resource.workload];
      if (!kind || !UNIT_KINDS.includes(kind) || from >= before) return [];
      const answer = await graph.post<SearchResponse>(SEARCH, {
        protectionUnitIds: [resource.resourceExternalId],
        protectionTimePeriod: { startDateTime: graphTime(from), endDateTime: graphTime(before) },
        restorePointPreference: 'latest',
      });
      return (answer.searchResults ?? [])
        .flatMap((result) => (result.restorePoint ? [result.restorePoint] : []))
        .filter(
          (point) => point.id && point.protectionDateTime && Date.parse(point.protectionDateTime) < +before,
        )
        .sort((a, b) => b.protectionDateTime!.localeCompare(a.protectionDateTime!))
        .slice(0, PER_CALL)
        .map((point) => {
          const takenAt = new Date(point.protectionDateTime!).toISOString();
          return {
            externalId: snapshotIdOf({
              kind,
              unitId: resource.resourceExternalId,
              takenAt,
              restorePointId: point.id!,
            }),
            workload: resource.workload,
            resourceExternalId: resource.resourceExternalId,
            resourceName: resource.resourceName,
            userExternalId: resource.userExternalId,
            takenAt,
            itemCount: null,
          };
        });
    },
  };
}
