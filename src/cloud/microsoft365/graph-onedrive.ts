import type { Drive, DriveItem } from '@microsoft/microsoft-graph-types';
import { CloudError, isCloudError } from '../cloud-error.js';
import type { GraphTenantClient } from './graph-client.js';
import { MICROSOFT365 } from './graph-errors.js';

/** How long a copy is watched before the step gives up for now (a retry copies again, replacing). */
export interface CopyWatch {
  pollMs: number;
  deadlineMs: number;
}

// A big folder copies for minutes; a retry restarts its copy (replace), so the watch is long rather than short.
const DEFAULT_WATCH: CopyWatch = { pollMs: 1_000, deadlineMs: 15 * 60_000 };
const MONITOR_TIMEOUT_MS = 30_000;

const segment = encodeURIComponent;

interface CopyStatus {
  status?: 'notStarted' | 'inProgress' | 'completed' | 'failed' | 'waiting' | string;
  error?: { code?: string; message?: string };
}

/** One answer of a copy's monitor URL (no token: the URL itself is the credential, as Graph documents). */
async function copyStatus(location: string): Promise<CopyStatus> {
  let response: Response;
  try {
    response = await fetch(location, { redirect: 'manual', signal: AbortSignal.timeout(MONITOR_TIMEOUT_MS) });
  } catch (error) {
    throw new CloudError('Transient', 'The OneDrive copy monitor could not be reached', {
      provider: MICROSOFT365,
      retryAfterSeconds: 30,
      cause: error,
    });
  }
  // A finished copy may answer 303 See Other to the new item.
  if (response.status === 303) return { status: 'completed' };
  if (!response.ok && response.status !== 202)
    throw new CloudError('Transient', `The OneDrive copy monitor answered ${response.status}`, {
      provider: MICROSOFT365,
      retryAfterSeconds: 30,
    });
  return (await response.json().catch(() => ({}))) as CopyStatus;
}

/** Waits for an asynchronous copy to finish; the source is deleted only after this returns. */
async function awaitCopy(location: string | undefined, name: string, watch: CopyWatch): Promise<void> {
  if (!location)
    throw new CloudError('Transient', `Graph gave no monitor for the copy of "${name}"`, {
      provider: MICROSOFT365,
      retryAfterSeconds: 30,
    });
  const deadline = Date.now() + watch.deadlineMs;
  for (;;) {
    const { status, error } = await copyStatus(location);
    if (status === 'completed') return;
    if (status === 'failed')
      throw new CloudError(
        'Refused',
        `OneDrive could not copy "${name}": ${error?.message ?? 'copy failed'}`,
        {
          provider: MICROSOFT365,
          cloudCode: error?.code,
        },
      );
    if (Date.now() >= deadline)
      throw new CloudError(
        'Transient',
        `The copy of "${name}" is still running; the transfer resumes later`,
        {
          provider: MICROSOFT365,
          retryAfterSeconds: 60,
        },
      );
    await new Promise((resolve) => setTimeout(resolve, watch.pollMs));
  }
}

/** The folder `name` at the root of the drive, made when missing. */
async function ensureFolder(graph: GraphTenantClient, driveId: string, name: string): Promise<string> {
  const drive = `/drives/${segment(driveId)}`;
  try {
    const made = await graph.post<DriveItem>(`${drive}/root/children`, {
      name,
      folder: {},
      '@microsoft.graph.conflictBehavior': 'fail',
    });
    return made.id!;
  } catch (error) {
    // An earlier, interrupted transfer made it already (409 nameAlreadyExists).
    if (!isCloudError(error, 'Refused') || error.cloudCode !== 'nameAlreadyExists') throw error;
    const found = await graph.get<DriveItem>(`${drive}/root:/${segment(name)}`, { query: { $select: 'id' } });
    return found.id!;
  }
}

/**
 * Moves every item at the root of one user's OneDrive into the folder "Transferred from <name>" of another's
 * (learn.microsoft.com, "Copy a DriveItem"): Graph moves only within a drive, so each item is copied across
 * (`POST /users/{from}/drive/items/{id}/copy`, replacing an earlier partial copy), its monitor watched until
 * the copy completes, and only then deleted from the source (to its recycle bin). Idempotent: a second call
 * finds nothing left to move. Returns how many items (files and folders at the root) moved.
 */
export async function transferDriveItems(
  graph: GraphTenantClient,
  fromExternalId: string,
  toExternalId: string,
  watch: CopyWatch = DEFAULT_WATCH,
): Promise<number> {
  const from = `/users/${segment(fromExternalId)}`;
  const items = await graph.all<DriveItem>(`${from}/drive/root/children`, { query: { $select: 'id,name' } });
  if (items.length === 0) return 0;
  // The drive's owner names the folder ("Transferred from Adele Vance"), as the user's own name would.
  const source = await graph.get<Drive>(`${from}/drive`, { query: { $select: 'id,owner' } });
  const target = await graph.get<Drive>(`/users/${segment(toExternalId)}/drive`, {
    query: { $select: 'id' },
  });
  const folderId = await ensureFolder(
    graph,
    target.id!,
    `Transferred from ${source.owner?.user?.displayName ?? fromExternalId}`,
  );
  let moved = 0;
  for (const item of items) {
    const location = await graph.postAccepted(
      `${from}/drive/items/${segment(item.id!)}/copy`,
      { parentReference: { driveId: target.id, id: folderId }, name: item.name },
      { query: { '@microsoft.graph.conflictBehavior': 'replace' } },
    );
    await awaitCopy(location, item.name ?? item.id!, watch);
    await graph.delete(`${from}/drive/items/${segment(item.id!)}`);
    moved++;
  }
  return moved;
}
