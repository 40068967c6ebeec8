import { BackupWorkload } from './backup.enums.js';

/**
 * Where a "Different location" may point for each workload (docs/backup.md "Targets"): the shape, checked by the
 * restore request, and the owner it names (the first group: the mailbox or drive owner, the site or the team),
 * checked against the receiving tenant by restore-target.ts.
 */
export const LOCATION_PATTERNS: Record<BackupWorkload, { pattern: RegExp; shape: string }> = {
  [BackupWorkload.MAILBOX]: {
    pattern: /^([^\s/@]+@[^\s/@]+\.[^\s/@]+)(\/[^\0]+)?$/,
    shape: 'user@domain[/folder]',
  },
  [BackupWorkload.PERSONAL_FILE_STORAGE]: {
    pattern: /^([^\s/@]+@[^\s/@]+\.[^\s/@]+)(\/[^\0]+)?$/,
    shape: 'user@domain[/folder]',
  },
  [BackupWorkload.SITE_COLLABORATION]: {
    pattern: /^(\/sites\/[a-z0-9-]+)(\/[^\0]+)?$/,
    shape: '/sites/<name>[/library]',
  },
  [BackupWorkload.TEAM_CHAT]: {
    pattern: /^(\/teams\/[a-z0-9-]+)(\/[^\0]+)?$/,
    shape: '/teams/<name>[/channel]',
  },
};

/** The owner a location of `workload` names (user@domain, /sites/<name>, /teams/<name>); null for a bad shape. */
export function locationOwner(workload: BackupWorkload, location: string): string | null {
  return LOCATION_PATTERNS[workload].pattern.exec(location)?.[1] ?? null;
}

/** What a folder, library or channel name below the owner may hold (issue #32 item 6). */
const SEGMENT = /^[\p{L}\p{M}\p{N} _\-.'(),&+#]+$/u;
const CONTROL = /[\p{Cc}\p{Cf}]/u;
const MAX_LOCATION_LENGTH = 400;

/** The form a location is checked and stored in: Unicode NFC, no surrounding spaces. */
export function normalizedLocation(location: string): string {
  return location.normalize('NFC').trim();
}

/**
 * Why a (normalized) location of `workload` cannot be restored to, or null. Besides the shape, every segment
 * below the owner is a plain name: `owner@tenant/../../ceo@gmail.com/Loot` and
 * `/sites/intranet/../../../sites/hr` passed the shape and wrote items outside the owner checked
 * (restore-target.ts), so `.` and `..` segments, empty segments, `@`, `\` and control characters are refused.
 */
export function locationProblem(workload: BackupWorkload, location: string): string | null {
  const { pattern, shape } = LOCATION_PATTERNS[workload];
  const match = location.length <= MAX_LOCATION_LENGTH ? pattern.exec(location) : null;
  if (!match) return `a ${workload} restore goes to ${shape}`;
  if (CONTROL.test(location)) return 'must not contain control characters';
  const below = match[2];
  if (!below) return null;
  for (const segment of below.slice(1).split('/')) {
    if (!segment) return 'a folder name must not be empty (no "//", no "/" at the end)';
    if (/^\.+$/.test(segment)) return 'no "." or ".." folder: a location cannot leave its owner';
    if (!SEGMENT.test(segment))
      return `folder names hold letters, digits, spaces and - _ . ' ( ) & , + # only (not "${segment}")`;
  }
  return null;
}
