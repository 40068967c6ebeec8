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
