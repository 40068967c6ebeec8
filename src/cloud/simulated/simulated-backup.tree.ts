import { BACKUP_RETENTION_DAYS, BACKUP_RETENTION_MS } from '../backup.provider.js';
import type { CloudBackupItemRecord, CloudBackupWorkload } from '../backup.provider.js';

/**
 * The deterministic content of the simulated backup service: which resources of a tenant are protected,
 * when their snapshots are taken, and the item tree each snapshot holds. Everything follows from ids and
 * the snapshot slot, so a snapshot browses the same way every time without storing its items.
 */
const HOUR_MS = 3_600_000;
/** A snapshot of every protected resource every 4 hours (slots aligned on UTC midnight). */
export const SNAPSHOT_INTERVAL_MS = 4 * HOUR_MS;
/** Snapshots are kept for the backup service's retention; older ones are gone (not selectable for a restore). */
export { BACKUP_RETENTION_DAYS, BACKUP_RETENTION_MS };
/** A resource seen for the first time has been protected for 3 days already (a realistic first catalog). */
export const INITIAL_PROTECTION_MS = 3 * 24 * HOUR_MS;

export interface ProtectedResource {
  resourceExternalId: string;
  workload: CloudBackupWorkload;
  name: string;
  userExternalId: string | null;
}

/** FNV-1a: a stable 32-bit hash of a string. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

interface ContainerShape {
  slug: string;
  name: string;
  containerType: string;
  itemType: string;
  itemName: (index: number) => string;
}

const SUBJECTS = ['Quarterly review', 'Invoice', 'Meeting notes', 'Travel plan', 'Contract draft', 'Status'];
const FILES = ['Budget.xlsx', 'Proposal.docx', 'Roadmap.pptx', 'Notes.txt', 'Diagram.vsdx', 'Report.pdf'];
const POSTS = ['Welcome aboard', 'Release update', 'Lunch plans', 'Incident review', 'Kick-off', 'Reminder'];

const message = (index: number) => `${SUBJECTS[index % SUBJECTS.length]} #${index + 1}`;
const file = (index: number) => {
  const name = FILES[index % FILES.length];
  return name.replace('.', ` ${index + 1}.`);
};
const post = (index: number) => `${POSTS[index % POSTS.length]} #${index + 1}`;

const CONTAINERS: Record<CloudBackupWorkload, ContainerShape[]> = {
  Mailbox: ['Inbox', 'Sent Items', 'Archive', 'Projects'].map((name) => ({
    slug: name.toLowerCase().replace(/ /g, '-'),
    name,
    containerType: 'Folder',
    itemType: 'Message',
    itemName: message,
  })),
  'Personal file storage': ['Documents', 'Desktop', 'Shared'].map((name) => ({
    slug: name.toLowerCase(),
    name,
    containerType: 'Folder',
    itemType: 'File',
    itemName: file,
  })),
  'Site collaboration': ['Documents', 'Site Assets'].map((name) => ({
    slug: name.toLowerCase().replace(/ /g, '-'),
    name,
    containerType: 'Library',
    itemType: 'File',
    itemName: file,
  })),
  'Team chat': ['General', 'Announcements', 'Project'].map((name) => ({
    slug: name.toLowerCase(),
    name,
    containerType: 'Channel',
    itemType: 'Chat message',
    itemName: post,
  })),
};

/** Items in a container at a slot: a base count per container that varies with the slot (items come and go). */
function itemCountAt(resourceExternalId: string, slug: string, slot: number): number {
  const base = 4 + (stableHash(`${resourceExternalId}/${slug}`) % 6);
  return base + (slot % 4);
}

/** The whole tree of one snapshot: containers first, then their items in order. */
export function snapshotTree(
  resource: Pick<ProtectedResource, 'resourceExternalId' | 'workload' | 'name'>,
  slot: number,
): CloudBackupItemRecord[] {
  const takenAt = slot * SNAPSHOT_INTERVAL_MS;
  const records: CloudBackupItemRecord[] = [];
  for (const container of CONTAINERS[resource.workload]) {
    const count = itemCountAt(resource.resourceExternalId, container.slug, slot);
    const containerPath = `${resource.name}/${container.name}`;
    records.push({
      itemId: container.slug,
      parentId: null,
      name: container.name,
      kind: 'Container',
      itemType: container.containerType,
      path: containerPath,
      sizeBytes: 0,
      childCount: count,
      modifiedAt: new Date(takenAt).toISOString(),
    });
    for (let index = 0; index < count; index++) {
      const hash = stableHash(`${resource.resourceExternalId}/${container.slug}/${index}`);
      const name = container.itemName(index);
      records.push({
        itemId: `${container.slug}/${index + 1}`,
        parentId: container.slug,
        name,
        kind: 'Item',
        itemType: container.itemType,
        path: `${containerPath}/${name}`,
        sizeBytes: 1_024 + (hash % 900_000),
        childCount: 0,
        // Each item was last changed some hours before the first snapshot that holds it.
        modifiedAt: new Date(takenAt - (hash % 72) * HOUR_MS).toISOString(),
      });
    }
  }
  return records;
}

export function leafCount(tree: CloudBackupItemRecord[]): number {
  return tree.filter((record) => record.kind === 'Item').length;
}

/**
 * `leafCount(snapshotTree(resource, slot))` without building the tree: the catalog lists every 4-hour snapshot of
 * 30 days for each protected resource (some 180 a resource, a few thousand a tenant), and building each one's
 * items (names, paths, dates) only to count them was most of a demo seed's CPU.
 */
export function snapshotItemCount(
  resource: Pick<ProtectedResource, 'resourceExternalId' | 'workload'>,
  slot: number,
): number {
  let count = 0;
  for (const container of CONTAINERS[resource.workload])
    count += itemCountAt(resource.resourceExternalId, container.slug, slot);
  return count;
}

/**
 * Whether an item is still at its original place in the live tenant: about one in four was deleted since
 * (what an admin typically restores); the others exist and meet the conflict policy.
 */
export function existsInLiveTenant(resourceExternalId: string, itemId: string): boolean {
  return stableHash(`live:${resourceExternalId}/${itemId}`) % 4 !== 0;
}

/** Sites and teams every simulated tenant has (mailboxes and drives follow its users). */
export function collaborationResources(tenantExternalId: string): ProtectedResource[] {
  const variant = stableHash(tenantExternalId) % 3;
  const sites = [
    ['Intranet', 'Projects'],
    ['Intranet', 'Finance'],
    ['Intranet', 'Sales'],
  ][variant];
  const teams = [
    ['All company', 'Leadership'],
    ['All company', 'Operations'],
    ['All company', 'Marketing'],
  ][variant];
  const slug = (name: string) => name.toLowerCase().replace(/ /g, '-');
  return [
    ...sites.map((name) => ({
      resourceExternalId: `site-${slug(name)}`,
      workload: 'Site collaboration' as const,
      name: `/sites/${slug(name)}`,
      userExternalId: null,
    })),
    ...teams.map((name) => ({
      resourceExternalId: `team-${slug(name)}`,
      workload: 'Team chat' as const,
      name: `/teams/${slug(name)}`,
      userExternalId: null,
    })),
  ];
}

/** Snapshot ids carry their resource and slot: `<resource>~<slot>`. */
export function snapshotIdOf(resourceExternalId: string, slot: number): string {
  return `${resourceExternalId}~${slot}`;
}

export function parseSnapshotId(
  snapshotExternalId: string,
): { resourceExternalId: string; slot: number } | null {
  const match = /^(.+)~(\d+)$/.exec(snapshotExternalId);
  return match ? { resourceExternalId: match[1], slot: Number(match[2]) } : null;
}
