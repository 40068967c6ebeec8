import type {
  DestinationType,
  MailboxRestoreArtifact,
  RestoreSessionBase,
  SiteRestoreArtifact,
} from '@microsoft/microsoft-graph-types';
import type { CloudRestoreItemResult, CloudRestorePlan, CloudRestoreRequest } from '../backup.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { unsupportedCall } from './graph-unsupported.js';
import { BACKUP_ROOT, parseSnapshotId, type UnitKind } from './graph-backup-ids.js';

/**
 * Restores through Microsoft 365 Backup's restore sessions (Graph v1.0, BackupRestore-Restore.ReadWrite.All):
 * one session per restore of ours, of the unit's kind, holding one artifact (the restore point and where it
 * goes); created, then activated, then followed until Graph reports it finished (docs/microsoft365.md
 * "Backup").
 */
const SESSIONS: Record<UnitKind, { path: string; artifacts: string }> = {
  mailbox: { path: `${BACKUP_ROOT}/exchangeRestoreSessions`, artifacts: 'mailboxRestoreArtifacts' },
  drive: { path: `${BACKUP_ROOT}/oneDriveForBusinessRestoreSessions`, artifacts: 'driveRestoreArtifacts' },
  site: { path: `${BACKUP_ROOT}/sharePointRestoreSessions`, artifacts: 'siteRestoreArtifacts' },
};

/** Our clock and Graph's may differ by this much when a session is matched to the restore that made it. */
const CLOCK_SKEW_MS = 5 * 60_000;

type Artifact = MailboxRestoreArtifact & SiteRestoreArtifact;

/**
 * What Graph cannot do of a restore, as the capability to name (null: it can). Graph restores a whole unit,
 * in place (our Overwrite) or beside it in a new location Graph names (our Keep both); it cannot skip what
 * exists, restore items or containers, put the unit elsewhere, export it or restore Teams.
 */
export function unsupportedRestore(plan: Omit<CloudRestorePlan, 'snapshotExternalId'>): string | null {
  if (plan.workload === 'Team chat') return 'backupTeamChat';
  if (plan.itemIds !== null) return 'backupItemBrowsing';
  return unsupportedTarget(plan);
}

function unsupportedTarget(
  plan: Pick<CloudRestorePlan, 'targetKind' | 'crossTenant' | 'conflictPolicy'>,
): string | null {
  if (plan.targetKind !== 'Original location' || plan.crossTenant) return 'backupRestoreElsewhere';
  if (plan.conflictPolicy === 'Skip') return 'backupSkipConflicts';
  return null;
}

function destinationOf(request: CloudRestoreRequest): DestinationType {
  return request.conflictPolicy === 'Overwrite' ? 'inPlace' : 'new';
}

/**
 * The session this restore created earlier, if any: a session of the unit's kind created since the restore
 * was accepted whose artifact is the same restore point and destination. A retried or resumed run therefore
 * follows the session it started instead of starting a second restore.
 */
async function ourSession(
  graph: GraphTenantClient,
  kind: UnitKind,
  request: CloudRestoreRequest,
  restorePointId: string,
): Promise<RestoreSessionBase | null> {
  const since = Date.parse(request.requestedAt) - CLOCK_SKEW_MS;
  const { path } = SESSIONS[kind];
  for await (const page of graph.pages<RestoreSessionBase>(path))
    for (const session of page.value) {
      if (!session.id || Date.parse(session.createdDateTime ?? '') < since) continue;
      const held = await artifactsOf(graph, kind, session.id);
      if (
        held.some(
          (artifact) =>
            artifact.restorePoint?.id === restorePointId &&
            artifact.destinationType === destinationOf(request),
        )
      )
        return session;
    }
  return null;
}

function artifactsOf(graph: GraphTenantClient, kind: UnitKind, sessionId: string): Promise<Artifact[]> {
  const { path, artifacts } = SESSIONS[kind];
  return graph.all<Artifact>(`${path}/${encodeURIComponent(sessionId)}/${artifacts}`, {
    query: { $expand: 'restorePoint' },
  });
}

const activate = (graph: GraphTenantClient, sessionId: string) =>
  graph.post<RestoreSessionBase>(
    `${BACKUP_ROOT}/restoreSessions/${encodeURIComponent(sessionId)}/activate`,
    {},
  );

/** Where Graph put the unit: the new folder (Exchange) or the site's URL (OneDrive, SharePoint). */
function placeOf(artifact: Artifact): string | null {
  return artifact.restoredFolderName ?? artifact.restoredSiteWebUrl ?? artifact.restoredSiteName ?? null;
}

function resultOf(
  itemId: string,
  session: RestoreSessionBase,
  artifact: Artifact | undefined,
): CloudRestoreItemResult {
  const base = { itemId, restoredTo: null, exported: null };
  const status = artifact?.status;
  if (status === 'succeeded')
    return {
      ...base,
      outcome: 'Restored',
      restoredTo: placeOf(artifact!),
      detail:
        artifact!.destinationType === 'inPlace'
          ? 'Restored in place by Microsoft 365 Backup (the current content was overwritten)'
          : 'Restored beside the current content, in a new location named by Microsoft 365 Backup',
    };
  const failure = artifact?.error?.message ?? session.error?.message;
  if (status === 'failed' || session.status === 'failed')
    return {
      ...base,
      outcome: 'Failed',
      detail: failure ?? 'Microsoft 365 Backup reported the restore failed',
    };
  if (session.status === 'completed' || session.status === 'completedWithError')
    return {
      ...base,
      outcome: 'Failed',
      detail: failure ?? `The restore session ended ${session.status} without restoring this point`,
    };
  return { ...base, outcome: 'InProgress', detail: `Restore session ${session.id} is ${session.status}` };
}

/**
 * One restore of ours = one restore session: found again (ourSession) or created with its artifact, activated
 * while it is a draft, then read. The answer is InProgress until Graph reports the artifact finished; the
 * restore job asks again later with the same request.
 */
export async function restoreThroughSession(
  graph: GraphTenantClient,
  request: CloudRestoreRequest,
): Promise<CloudRestoreItemResult[]> {
  const ref = parseSnapshotId(request.snapshotExternalId);
  // Checked before the job was written (checkRestore); checked again, since nothing may be restored wrongly.
  const unsupported = unsupportedTarget({
    targetKind: request.target.kind,
    crossTenant: request.target.tenantExternalId !== graph.tenantId,
    conflictPolicy: request.conflictPolicy,
  });
  if (unsupported) return unsupportedCall(unsupported);
  const failed = (detail: string) =>
    request.itemIds.map((itemId) => ({
      itemId,
      outcome: 'Failed' as const,
      detail,
      restoredTo: null,
      exported: null,
    }));
  if (!ref) return failed('Not a Microsoft 365 Backup restore point');
  // The one item of a restore point is the whole resource (findBackupItems): nothing else is restored.
  if (!request.itemIds.includes(ref.restorePointId))
    return failed('Microsoft 365 Backup restores the whole restore point only');
  const { path, artifacts } = SESSIONS[ref.kind];
  let session = await ourSession(graph, ref.kind, request, ref.restorePointId);
  if (!session)
    session = await graph.post<RestoreSessionBase>(path, {
      [artifacts]: [{ restorePoint: { id: ref.restorePointId }, destinationType: destinationOf(request) }],
    });
  if (session.status === 'draft') session = await activate(graph, session.id!);
  const current = await graph.get<RestoreSessionBase>(`${path}/${encodeURIComponent(session.id!)}`);
  const artifact = (await artifactsOf(graph, ref.kind, session.id!)).find(
    (candidate) => candidate.restorePoint?.id === ref.restorePointId,
  );
  return request.itemIds.map((itemId) =>
    itemId === ref.restorePointId
      ? resultOf(itemId, current, artifact)
      : {
          itemId,
          outcome: 'Failed' as const,
          detail: 'Microsoft 365 Backup restores the whole restore point only',
          restoredTo: null,
          exported: null,
        },
  );
}
