import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';

/**
 * What the reads of Graph's security alerts share (graph-security.ts: every alert; graph-dlp-alerts.ts: the
 * data loss prevention ones): the path, the evolvable-enum header, the incremental filter, evidence by type.
 */

/** An alert of Graph's security API (v1.0 `microsoft.graph.security.alert`, learn.microsoft.com "alert"). */
export type GraphSecurityAlert = SecurityNamespace.Alert;
/** Evidence comes typed by `@odata.type` (userEvidence, deviceEvidence, mailboxEvidence…). */
export type Evidence = SecurityNamespace.AlertEvidence & { '@odata.type'?: string };

export const ALERTS = '/security/alerts_v2';
/**
 * Without it Graph sends the members its evolvable enums gained later (serviceSource microsoftSentinel,
 * microsoftDefenderForCloud…) as `unknownFutureValue` (learn.microsoft.com, "evolvable enums").
 */
export const EVOLVABLE = { headers: { Prefer: 'include-unknown-enum-members' } };

export function ofType<T extends Evidence>(evidence: readonly Evidence[], type: string): T[] {
  return evidence.filter((item) => item['@odata.type'] === `#microsoft.graph.security.${type}`) as T[];
}

/**
 * Changes are read from an hour before the previous sync ended: its end (`lastSyncedAt`) is stamped when it
 * writes, after every step has read, so an alert updated upstream while a long sync read, or stamped by a
 * clock behind ours, is read again rather than missed (upserting it twice changes nothing).
 */
const CHANGES_OVERLAP_MS = 60 * 60_000;

/** The `$filter` clause of the alerts changed since the previous sync (with the overlap), or none. */
export function changedSinceClause(changedSince?: Date | null): string | null {
  if (!changedSince) return null;
  return `lastUpdateDateTime ge ${new Date(changedSince.getTime() - CHANGES_OVERLAP_MS).toISOString()}`;
}
