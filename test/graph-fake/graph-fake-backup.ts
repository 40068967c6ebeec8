import { randomUUID } from 'node:crypto';
import type {
  ArtifactRestoreStatus,
  MailboxRestoreArtifact,
  ProtectionUnitBase,
  RestorePoint,
  RestoreSessionBase,
  ServiceStatus,
  SiteRestoreArtifact,
} from '@microsoft/microsoft-graph-types';
import { searchRestorePoints } from './graph-fake-backup-search.js';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant, type GraphFakeState, type IssuedToken } from './graph-fake-state.js';

/**
 * Microsoft 365 Backup (Backup Storage) on Graph v1.0 as the fake serves it (learn.microsoft.com, "Get
 * backupRestoreRoot", "List mailboxProtectionUnits" and its drive/site twins, "List restorePoints", "Create
 * exchangeRestoreSession" and its OneDrive/SharePoint twins, "restoreSessionBase: activate"): the service
 * status, protection units in pages, a unit's five newest restore points before the `$filter` time (both
 * `$expand` and `$filter` required, as documented), restore sessions created with their artifacts as drafts,
 * activated, then moving draft → activating → active → completed | completedWithError over the reads of the
 * session (the artifact added → scheduled → inProgress → succeeded | failed).
 */
export type FakeUnitKind = 'mailbox' | 'drive' | 'site';

type Artifact = MailboxRestoreArtifact & SiteRestoreArtifact;
export type FakeUnit = ProtectionUnitBase & Record<string, unknown>;

export interface FakeRestoreSession {
  kind: FakeUnitKind;
  session: RestoreSessionBase;
  artifacts: Artifact[];
  /** Reads of the session since it was activated: its state moves one step a read. */
  reads: number;
}

export interface FakeBackup {
  serviceStatus: ServiceStatus;
  units: Record<FakeUnitKind, FakeUnit[]>;
  restorePoints: Array<RestorePoint & { unitId: string }>;
  sessions: FakeRestoreSession[];
  /** Reads of an active session before it completes. */
  readsToComplete: number;
  /** Restore points whose restore fails (the artifact ends failed with this message). */
  failing: Map<string, string>;
}

const backups = tenantSlot<FakeBackup>('backup');

export function fakeBackup(tenant: FakeTenant): FakeBackup {
  let backup = backups.get(tenant);
  if (!backup) {
    backup = {
      serviceStatus: { status: 'enabled', disableReason: 'none' },
      units: { mailbox: [], drive: [], site: [] },
      restorePoints: [],
      sessions: [],
      readsToComplete: 2,
      failing: new Map(),
    };
    backups.set(tenant, backup);
  }
  return backup;
}

const ROOT = '/solutions/backupRestore';
const UNIT_PATHS: Record<string, FakeUnitKind> = {
  mailboxProtectionUnits: 'mailbox',
  driveProtectionUnits: 'drive',
  siteProtectionUnits: 'site',
};
const SESSION_PATHS: Record<string, { kind: FakeUnitKind; artifacts: string }> = {
  exchangeRestoreSessions: { kind: 'mailbox', artifacts: 'mailboxRestoreArtifacts' },
  oneDriveForBusinessRestoreSessions: { kind: 'drive', artifacts: 'driveRestoreArtifacts' },
  sharePointRestoreSessions: { kind: 'site', artifacts: 'siteRestoreArtifacts' },
};

/** Graph's permission reference for each part, least privileged first. */
const ROLES = {
  control: ['BackupRestore-Control.Read.All', 'BackupRestore-Control.ReadWrite.All'],
  configuration: ['BackupRestore-Configuration.Read.All', 'BackupRestore-Configuration.ReadWrite.All'],
  search: ['BackupRestore-Search.Read.All'],
  restoreRead: ['BackupRestore-Restore.Read.All', 'BackupRestore-Restore.ReadWrite.All'],
  restoreWrite: ['BackupRestore-Restore.ReadWrite.All'],
};

function pageOf(items: object[], path: string, state: GraphFakeState, base: string, call: GraphCall) {
  const skip = Number(call.query.get('$skip') ?? 0);
  const more = skip + state.pageSize < items.length;
  return {
    status: 200,
    body: {
      '@odata.context': `${base}/v1.0/$metadata#${path.slice(1)}`,
      value: items.slice(skip, skip + state.pageSize),
      ...(more ? { '@odata.nextLink': `${base}/v1.0${path}?$skip=${skip + state.pageSize}` } : {}),
    },
  };
}

/** "List restorePoints": `$expand=protectionUnit($filter=id eq '…')` and `$filter=protectionDateTime lt …`. */
function restorePoints(backup: FakeBackup, call: GraphCall): FakeReply {
  const unit = /^protectionUnit\(\$filter=id eq '([^']+)'\)$/.exec(call.query.get('$expand') ?? '');
  const before = /^protectionDateTime lt (\S+)$/.exec(call.query.get('$filter') ?? '');
  if (!unit || !before)
    return graphError(400, 'BadRequest', 'The $expand and $filter query parameters are required.');
  const newest = backup.restorePoints
    .filter((point) => point.unitId === unit[1] && point.protectionDateTime! < before[1])
    .sort((a, b) => b.protectionDateTime!.localeCompare(a.protectionDateTime!))
    .slice(0, 5)
    .map(({ unitId, ...point }) => ({ ...point, protectionUnit: { id: unitId } }));
  return {
    status: 200,
    body: { '@odata.context': '$metadata#solutions/backupRestore/restorePoints', value: newest },
  };
}

function createSession(backup: FakeBackup, kind: FakeUnitKind, artifactsProp: string, call: GraphCall) {
  const requested = ((call.body ?? {}) as Record<string, Artifact[] | undefined>)[artifactsProp] ?? [];
  for (const artifact of requested) {
    const point = backup.restorePoints.find((candidate) => candidate.id === artifact.restorePoint?.id);
    const unitKind =
      point &&
      (Object.keys(backup.units) as FakeUnitKind[]).find((k) =>
        backup.units[k].some((unit) => unit.id === point.unitId),
      );
    if (!point || unitKind !== kind)
      return graphError(
        400,
        'InvalidRestorePoint',
        `Restore point ${artifact.restorePoint?.id} is not valid.`,
      );
    if (artifact.destinationType !== 'inPlace' && artifact.destinationType !== 'new')
      return graphError(400, 'InvalidDestinationType', 'destinationType must be inPlace or new.');
  }
  const now = new Date().toISOString();
  const session: RestoreSessionBase = {
    id: randomUUID(),
    status: 'draft',
    createdDateTime: now,
    lastModifiedDateTime: now,
    restoreJobType: 'standard',
    error: null,
  };
  backup.sessions.push({
    kind,
    session,
    reads: 0,
    artifacts: requested.map((artifact) => ({
      id: randomUUID(),
      restorePoint: { id: artifact.restorePoint!.id },
      destinationType: artifact.destinationType,
      status: 'added',
      startDateTime: null,
      completionDateTime: null,
      error: null,
    })),
  });
  return { status: 201, body: { '@odata.context': `$metadata#solutions/backupRestore/${kind}`, ...session } };
}

/** One read of an activated session: one step further, until it ends. */
function advance(backup: FakeBackup, held: FakeRestoreSession): void {
  const { session } = held;
  if (session.status === 'draft' || session.status === 'completed' || session.status === 'completedWithError')
    return;
  held.reads += 1;
  const now = new Date().toISOString();
  if (held.reads < backup.readsToComplete) {
    session.status = 'active';
    for (const artifact of held.artifacts)
      Object.assign(artifact, { status: 'inProgress', startDateTime: now });
    return;
  }
  let failed = false;
  for (const artifact of held.artifacts) {
    const failure = backup.failing.get(artifact.restorePoint?.id ?? '');
    failed ||= failure !== undefined;
    const status: ArtifactRestoreStatus = failure ? 'failed' : 'succeeded';
    Object.assign(artifact, {
      status,
      completionDateTime: now,
      error: failure ? { code: 'RestoreFailed', message: failure } : null,
      ...(failure ? {} : placeOf(held.kind, artifact)),
    });
  }
  Object.assign(session, { status: failed ? 'completedWithError' : 'completed', completedDateTime: now });
}

function placeOf(kind: FakeUnitKind, artifact: Artifact): Partial<Artifact> {
  if (kind === 'mailbox')
    return artifact.destinationType === 'inPlace'
      ? { restoredFolderName: null }
      : { restoredFolderName: `Restored ${artifact.restorePoint?.id}`, restoredFolderId: randomUUID() };
  const url = artifact.destinationType === 'inPlace' ? 'original' : `restored-${artifact.restorePoint?.id}`;
  return { restoredSiteWebUrl: `https://contoso.sharepoint.com/sites/${url}` };
}

function sessions(
  backup: FakeBackup,
  base: string,
  state: GraphFakeState,
  call: GraphCall,
  match: RegExpExecArray,
) {
  const { kind, artifacts } = SESSION_PATHS[match[1]];
  const [id, child] = [match[3], match[4]];
  const path = `${ROOT}/${match[1]}`;
  if (!id) {
    if (call.method === 'POST') return createSession(backup, kind, artifacts, call);
    const mine = backup.sessions.filter((held) => held.kind === kind).map((held) => held.session);
    return pageOf(mine, path, state, base, call);
  }
  const held = backup.sessions.find((candidate) => candidate.kind === kind && candidate.session.id === id);
  if (!held) return graphError(404, 'itemNotFound', `Restore session ${id} was not found.`);
  if (child === artifacts) return { status: 200, body: { value: held.artifacts } };
  if (child) return graphError(400, 'BadRequest', `Resource not found for the segment '${child}'.`);
  advance(backup, held);
  return { status: 200, body: held.session };
}

function activate(backup: FakeBackup, id: string): FakeReply {
  const held = backup.sessions.find((candidate) => candidate.session.id === id);
  if (!held) return graphError(404, 'itemNotFound', `Restore session ${id} was not found.`);
  if (held.session.status !== 'draft')
    return graphError(
      400,
      'InvalidSessionState',
      `Restore session ${id} is ${held.session.status}, not draft.`,
    );
  held.session.status = 'activating';
  for (const artifact of held.artifacts) artifact.status = 'scheduled';
  return { status: 200, body: held.session };
}

/** The reply to a backupRestore request, or undefined when the call is not one (handleGraph goes on). */
export function handleBackup(
  state: GraphFakeState,
  tenant: FakeTenant,
  token: IssuedToken,
  base: string,
  call: GraphCall,
): FakeReply | undefined {
  if (call.path !== ROOT && !call.path.startsWith(`${ROOT}/`)) return undefined;
  const backup = fakeBackup(tenant);
  const rest = call.path.slice(ROOT.length);
  const sessionMatch =
    /^\/(exchangeRestoreSessions|oneDriveForBusinessRestoreSessions|sharePointRestoreSessions)(\/([^/]+))?(?:\/([^/]+))?$/.exec(
      rest,
    );
  const unitMatch =
    /^\/(mailboxProtectionUnits|driveProtectionUnits|siteProtectionUnits)(?:\/([^/]+))?$/.exec(rest);
  const activation = /^\/restoreSessions\/([^/]+)\/activate$/.exec(rest);
  const roles =
    rest === ''
      ? ROLES.control
      : unitMatch
        ? ROLES.configuration
        : rest === '/restorePoints' || rest === '/restorePoints/search'
          ? ROLES.search
          : call.method === 'GET'
            ? ROLES.restoreRead
            : ROLES.restoreWrite;
  if (!roles.some((role) => token.roles.includes(role)))
    return graphError(
      403,
      'Forbidden',
      `Missing application roles. API required roles: ${roles.join(', ')}.`,
    );
  if (rest === '' && call.method === 'GET')
    return {
      status: 200,
      body: {
        '@odata.context': '$metadata#solutions/backupRestore/$entity',
        id: tenant.id,
        serviceStatus: backup.serviceStatus,
      },
    };
  if (backup.serviceStatus.status === 'disabled')
    return graphError(400, 'ServiceNotEnabled', 'Backup Storage is not enabled for this tenant.');
  if (rest === '/restorePoints' && call.method === 'GET') return restorePoints(backup, call);
  if (rest === '/restorePoints/search' && call.method === 'POST') return searchRestorePoints(backup, call);
  if (unitMatch && call.method === 'GET') {
    const units = backup.units[UNIT_PATHS[unitMatch[1]]];
    if (!unitMatch[2]) return pageOf(units, `${ROOT}/${unitMatch[1]}`, state, base, call);
    const unit = units.find((candidate) => candidate.id === decodeURIComponent(unitMatch[2]));
    return unit ? { status: 200, body: unit } : graphError(404, 'itemNotFound', 'Protection unit not found.');
  }
  if (sessionMatch && (call.method === 'GET' || (call.method === 'POST' && !sessionMatch[3])))
    return sessions(backup, base, state, call, sessionMatch);
  if (activation && call.method === 'POST') return activate(backup, decodeURIComponent(activation[1]));
  return graphError(405, 'BadRequest', `The fake does not serve ${call.method} ${call.path}.`);
}
