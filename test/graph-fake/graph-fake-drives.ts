import { randomUUID } from 'node:crypto';
import type { DriveItem } from '@microsoft/microsoft-graph-types';
import { graphError, type GraphCall } from './graph-fake-graph.js';
import type { FakeReply } from './graph-fake-login.js';
import { tenantSlot, type FakeTenant } from './graph-fake-state.js';

/** An item of a fake OneDrive: a file or a folder, under `parentId` (the drive's root id at the top). */
export type FakeDriveItem = DriveItem & { id: string; name: string; parentId: string };

export interface FakeDrive {
  id: string;
  rootId: string;
  items: FakeDriveItem[];
}

/** OneDrives by user id, and the copy monitors (`/monitor/{id}`) with the polls each answers inProgress. */
interface FakeDrives {
  byUser: Map<string, FakeDrive>;
}

const drivesOf = tenantSlot<FakeDrives>('drives');
const monitors = new Map<string, { pendingPolls: number }>();

function drives(tenant: FakeTenant): FakeDrives {
  let found = drivesOf.get(tenant);
  if (!found) drivesOf.set(tenant, (found = { byUser: new Map() }));
  return found;
}

/** The user's OneDrive (made on first use, as OneDrive provisions one per licensed user). */
export function fakeDrive(tenant: FakeTenant, userId: string): FakeDrive {
  const all = drives(tenant).byUser;
  let drive = all.get(userId);
  if (!drive) all.set(userId, (drive = { id: `b!${randomUUID()}`, rootId: randomUUID(), items: [] }));
  return drive;
}

/** Puts a file (or, with `folder`, a folder) in a drive, under its root unless `parentId` says. */
export function putDriveItem(
  drive: FakeDrive,
  name: string,
  fields: Partial<FakeDriveItem> = {},
): FakeDriveItem {
  const item: FakeDriveItem = {
    id: randomUUID(),
    name,
    parentId: drive.rootId,
    file: {},
    size: 1024,
    ...fields,
  };
  drive.items.push(item);
  return item;
}

let copyPendingPolls = 0;

/** How many polls every copy monitor made from now on answers `inProgress` before `completed`. */
export function setCopyPendingPolls(polls: number): void {
  copyPendingPolls = polls;
}

/** GET /monitor/{id} (no token, like Graph's monitor URLs). */
export function handleMonitor(id: string): FakeReply {
  const monitor = monitors.get(id);
  if (!monitor)
    return { status: 404, body: { error: { code: 'itemNotFound', message: 'No such monitor.' } } };
  if (monitor.pendingPolls > 0) {
    monitor.pendingPolls--;
    return { status: 202, body: { status: 'inProgress', percentageComplete: 50 } };
  }
  return { status: 200, body: { status: 'completed', percentageComplete: 100 } };
}

function descendants(drive: FakeDrive, id: string): FakeDriveItem[] {
  const children = drive.items.filter((item) => item.parentId === id);
  return children.flatMap((child) => [child, ...descendants(drive, child.id)]);
}

function driveById(tenant: FakeTenant, driveId: string): FakeDrive | undefined {
  return [...drives(tenant).byUser.values()].find((drive) => drive.id === driveId);
}

const itemNotFound = (call: GraphCall) =>
  graphError(404, 'itemNotFound', 'The resource could not be found.', call.clientRequestId);

/** A copy of `item` and what it holds into `target` under `parentId`, replacing a same-named item. */
function copyInto(
  source: FakeDrive,
  item: FakeDriveItem,
  target: FakeDrive,
  parentId: string,
  name: string,
): void {
  const existing = target.items.find(
    (candidate) => candidate.parentId === parentId && candidate.name === name,
  );
  if (existing) {
    const gone = new Set([existing.id, ...descendants(target, existing.id).map((child) => child.id)]);
    target.items = target.items.filter((candidate) => !gone.has(candidate.id));
  }
  const copy = { ...item, id: randomUUID(), name, parentId };
  target.items.push(copy);
  for (const child of source.items.filter((candidate) => candidate.parentId === item.id))
    copyInto(source, child, target, copy.id, child.name);
}

/**
 * OneDrive on Graph v1.0, as the offboarding transfer uses it: a user's drive and its root's children, a
 * folder made at a drive's root, `root:/{name}` lookups, the asynchronous copy (202 + a monitor Location) and
 * the delete. Undefined: not one of these routes.
 */
export function handleDrives(tenant: FakeTenant, base: string, call: GraphCall): FakeReply | undefined {
  const path = call.path.split('/').map(decodeURIComponent);
  const userDrive = () =>
    tenant.users.some((record) => record.user.id === path[2] && !record.deleted)
      ? fakeDrive(tenant, path[2])
      : undefined;
  // /users/{id}/drive…
  if (path[1] === 'users' && path[3] === 'drive') {
    const drive = userDrive();
    if (!drive) return graphError(404, 'itemNotFound', 'The user has no OneDrive.', call.clientRequestId);
    const rest = path.slice(4).join('/');
    if (call.method === 'GET' && rest === '') {
      const owner = tenant.users.find((record) => record.user.id === path[2])!.user;
      return {
        status: 200,
        body: {
          id: drive.id,
          driveType: 'business',
          owner: { user: { id: owner.id, displayName: owner.displayName } },
        },
      };
    }
    if (call.method === 'GET' && rest === 'root/children')
      return {
        status: 200,
        body: {
          value: drive.items
            .filter((item) => item.parentId === drive.rootId)
            .map(({ parentId: _p, ...item }) => item),
        },
      };
    const item = drive.items.find((candidate) => candidate.id === path[5]);
    if (path[4] === 'items' && !item) return itemNotFound(call);
    if (call.method === 'DELETE' && path[4] === 'items' && path.length === 6) {
      const gone = new Set([item!.id, ...descendants(drive, item!.id).map((child) => child.id)]);
      drive.items = drive.items.filter((candidate) => !gone.has(candidate.id));
      return { status: 204, body: undefined };
    }
    if (call.method === 'POST' && path[4] === 'items' && path[6] === 'copy') {
      const body = call.body as { parentReference?: { driveId?: string; id?: string }; name?: string };
      const target = driveById(tenant, body.parentReference?.driveId ?? '');
      if (!target) return itemNotFound(call);
      copyInto(drive, item!, target, body.parentReference?.id ?? target.rootId, body.name ?? item!.name);
      const monitorId = randomUUID();
      monitors.set(monitorId, { pendingPolls: copyPendingPolls });
      return { status: 202, headers: { location: `${base}/monitor/${monitorId}` }, body: undefined };
    }
    return undefined;
  }
  // /drives/{id}/root/children and /drives/{id}/root:/{name}
  if (path[1] === 'drives') {
    const drive = driveById(tenant, path[2]);
    if (!drive) return itemNotFound(call);
    if (call.method === 'POST' && path[3] === 'root' && path[4] === 'children') {
      const body = call.body as { name: string; '@microsoft.graph.conflictBehavior'?: string };
      if (drive.items.some((item) => item.parentId === drive.rootId && item.name === body.name))
        return graphError(
          409,
          'nameAlreadyExists',
          'An item with the same name already exists under the parent',
          call.clientRequestId,
        );
      const folder = putDriveItem(drive, body.name, { folder: { childCount: 0 }, file: undefined, size: 0 });
      return { status: 201, body: { id: folder.id, name: folder.name, folder: {} } };
    }
    if (call.method === 'GET' && path[3] === 'root:') {
      const name = path.slice(4).join('/');
      const found = drive.items.find((item) => item.parentId === drive.rootId && item.name === name);
      return found ? { status: 200, body: { id: found.id, name: found.name } } : itemNotFound(call);
    }
  }
  return undefined;
}
