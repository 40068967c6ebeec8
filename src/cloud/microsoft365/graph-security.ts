import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import { isCloudError } from '../cloud-error.js';
import type { CloudPages } from '../pages.js';
import type {
  CloudAlertChange,
  CloudAlertCommentInput,
  CloudAlertRecord,
  CloudAlertSeverity,
  CloudAlertStatus,
  CloudSecurityProvider,
} from '../security.provider.js';
import { defenderMachineActions } from './defender-machine-actions.js';
import type { GraphTenantClient } from './graph-client.js';
import {
  ALERTS,
  changedSinceClause,
  EVOLVABLE,
  ofType,
  type Evidence,
  type GraphSecurityAlert,
} from './graph-alert-queries.js';
import { dlpAlertPages } from './graph-dlp-alerts.js';
import { graphDevices } from './graph-devices.js';
import { unsupportedCall as unsupported } from './graph-unsupported.js';

const SEVERITIES: Partial<Record<SecurityNamespace.AlertSeverity, CloudAlertSeverity>> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  informational: 'Informational',
};

/** The products Graph names in `serviceSource`, by the names Microsoft's portals show. */
const SOURCES: Partial<Record<SecurityNamespace.ServiceSource, string>> = {
  microsoftDefenderForEndpoint: 'Defender for Endpoint',
  microsoftDefenderForIdentity: 'Defender for Identity',
  microsoftDefenderForCloudApps: 'Defender for Cloud Apps',
  microsoftDefenderForOffice365: 'Defender for Office 365',
  microsoft365Defender: 'Microsoft Defender XDR',
  azureAdIdentityProtection: 'Identity Protection',
  microsoftAppGovernance: 'App Governance',
  dataLossPrevention: 'Data Loss Prevention',
  microsoftDefenderForCloud: 'Defender for Cloud',
  microsoftSentinel: 'Microsoft Sentinel',
  microsoftInsiderRiskManagement: 'Insider Risk Management',
  microsoftThreatIntelligence: 'Threat Intelligence',
};

/**
 * Graph has three statuses (new, inProgress, resolved); our fourth, Dismissed ("false positive or not
 * actionable"), is Graph's resolved with a classification saying the alert was no real threat.
 */
const DISMISSING: ReadonlySet<SecurityNamespace.AlertClassification> = new Set([
  'falsePositive',
  'informationalExpectedActivity',
]);

/** What PATCH /security/alerts_v2/{id} is sent for each of our statuses. */
const STATUS_PATCH: Record<CloudAlertStatus, Partial<GraphSecurityAlert>> = {
  New: { status: 'new' },
  'In Progress': { status: 'inProgress' },
  Resolved: { status: 'resolved' },
  Dismissed: { status: 'resolved', classification: 'falsePositive', determination: 'notMalicious' },
};

export function alertStatusOf(alert: GraphSecurityAlert): CloudAlertStatus {
  if (alert.status === 'inProgress') return 'In Progress';
  if (alert.status === 'resolved')
    return alert.classification && DISMISSING.has(alert.classification) ? 'Dismissed' : 'Resolved';
  // new, and unknown (Graph's default for an alert nobody looked at).
  return 'New';
}

/** `InitialAccess` → `Initial access`: Graph's categories are MITRE tactics in Pascal case. */
function categoryOf(category: string | null | undefined): string {
  if (!category) return 'Uncategorized';
  const words = category.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(' ');
  return [words[0], ...words.slice(1).map((word) => word.toLowerCase())].join(' ');
}

/** The writer of a comment Graph names nobody for. */
const UNNAMED_COMMENT_AUTHOR = 'Microsoft Defender';

/** Graph's alert as our record: the evidence names the device, user or mailbox it is about. */
export function alertRecordOf(alert: GraphSecurityAlert): CloudAlertRecord {
  const evidence = (alert.evidence ?? []) as Evidence[];
  const devices = ofType<SecurityNamespace.DeviceEvidence & Evidence>(evidence, 'deviceEvidence');
  const users = ofType<SecurityNamespace.UserEvidence & Evidence>(evidence, 'userEvidence');
  const mailboxes = ofType<SecurityNamespace.MailboxEvidence & Evidence>(evidence, 'mailboxEvidence');
  const device = devices.find((item) => item.deviceDnsName || item.hostName || item.azureAdDeviceId);
  const account =
    users.find((item) => item.userAccount)?.userAccount ??
    mailboxes.find((item) => item.userAccount)?.userAccount;
  const affectedEntity =
    device?.deviceDnsName ??
    device?.hostName ??
    account?.userPrincipalName ??
    mailboxes.find((item) => item.primaryAddress)?.primaryAddress ??
    account?.accountName ??
    '';
  return {
    externalId: alert.id ?? '',
    title: alert.title ?? '',
    description: alert.description ?? '',
    severity: (alert.severity && SEVERITIES[alert.severity]) || 'Informational',
    status: alertStatusOf(alert),
    category: categoryOf(alert.category),
    source: (alert.serviceSource && SOURCES[alert.serviceSource]) || 'Unknown',
    affectedEntity,
    userExternalId: account?.azureAdUserId ?? null,
    // The Entra ID device id: the one id Intune's managed devices and Defender's machines both carry.
    deviceExternalId: device?.azureAdDeviceId ?? null,
    createdAt: alert.createdDateTime ?? alert.firstActivityDateTime ?? alert.lastUpdateDateTime ?? '',
    comments: (alert.comments ?? []).flatMap((comment) =>
      comment.comment
        ? [
            {
              text: comment.comment,
              author: comment.createdByDisplayName || UNNAMED_COMMENT_AUTHOR,
              createdAt: comment.createdDateTime ?? alert.lastUpdateDateTime ?? '',
            },
          ]
        : [],
    ),
  };
}

/**
 * Security alerts of one tenant on Graph v1.0 (application permission SecurityAlert.ReadWrite.All):
 * `GET /security/alerts_v2` page by page (those changed since the previous sync, by lastUpdateDateTime), status
 * moves and assignment by `PATCH /security/alerts_v2/{id}`, notes by `POST /security/alerts_v2/{id}/comments`. Devices and
 * their actions are Intune's and Defender's (graph-devices.ts, defender-*.ts), DLP alerts are alerts_v2 of the
 * DLP service (graph-dlp-alerts.ts); endpoint DLP policies have no Graph API and answer Unsupported, naming the
 * capability (never an empty list that would pass for "none").
 */
export function graphSecurity(graph: GraphTenantClient): CloudSecurityProvider {
  return {
    listAlerts: (changedSince) => alertPages(graph, changedSince),
    updateAlert: (alertExternalId, change) => updateAlert(graph, alertExternalId, change),
    addAlertComment: (alertExternalId, comment) => addAlertComment(graph, alertExternalId, comment),
    listDevices: () => graphDevices(graph),
    startDeviceAction: (device, request) => defenderMachineActions(graph).startDeviceAction(device, request),
    getDeviceAction: (actionExternalId) => defenderMachineActions(graph).getDeviceAction(actionExternalId),
    listDlpPolicies: () => unsupported('endpointDlp'),
    listDlpAlerts: (changedSince) => dlpAlertPages(graph, changedSince),
  };
}

function alertPages(graph: GraphTenantClient, changedSince?: Date | null): CloudPages<CloudAlertRecord> {
  const clause = changedSinceClause(changedSince);
  const options = clause ? { ...EVOLVABLE, query: { $filter: clause } } : EVOLVABLE;
  return {
    async *[Symbol.asyncIterator]() {
      // No $top: Graph's own page size (up to 2,000 alerts), following @odata.nextLink.
      for await (const page of graph.pages<GraphSecurityAlert>(ALERTS, options))
        yield page.value.map(alertRecordOf);
    },
  };
}

const alertPath = (id: string) => `${ALERTS}/${encodeURIComponent(id)}`;

async function patchAlert(
  graph: GraphTenantClient,
  id: string,
  patch: Partial<GraphSecurityAlert>,
): Promise<GraphSecurityAlert> {
  const answer = await graph.patch<GraphSecurityAlert | undefined>(alertPath(id), patch, EVOLVABLE);
  // Graph answers the updated alert; should it answer 204 one day, read it back.
  return answer?.id ? answer : graph.get<GraphSecurityAlert>(alertPath(id), EVOLVABLE);
}

/** Graph's PATCH body of a change: the status's fields (STATUS_PATCH) and `assignedTo` when given. */
function patchOf(change: CloudAlertChange): Partial<GraphSecurityAlert> {
  return {
    ...(change.status ? STATUS_PATCH[change.status] : {}),
    ...(change.assignedTo !== undefined ? { assignedTo: change.assignedTo } : {}),
  };
}

async function updateAlert(
  graph: GraphTenantClient,
  id: string,
  change: CloudAlertChange,
): Promise<CloudAlertRecord | null> {
  try {
    let alert = await patchAlert(graph, id, patchOf(change));
    // Resolving an alert once dismissed (then reopened): its false-positive classification would still read
    // as Dismissed, so it is cleared.
    if (change.status === 'Resolved' && alertStatusOf(alert) === 'Dismissed')
      alert = await patchAlert(graph, id, { classification: 'unknown', determination: 'unknown' });
    return alertRecordOf(alert);
  } catch (error) {
    if (isCloudError(error, 'NotFound')) return null;
    throw error;
  }
}

/**
 * `POST /security/alerts_v2/{id}/comments` (Graph has no idempotency key, and answers the whole comment
 * collection): the alert is read first, and a note whose text Graph already holds more often than we do was
 * posted by a try that did not get stored here, so it is not posted again.
 */
async function addAlertComment(
  graph: GraphTenantClient,
  id: string,
  { text, storedCopies }: CloudAlertCommentInput,
): Promise<boolean> {
  try {
    const alert = await graph.get<GraphSecurityAlert>(alertPath(id), EVOLVABLE);
    const copies = (alert.comments ?? []).filter((comment) => comment.comment === text).length;
    if (copies > storedCopies) return true;
    await graph.post<{ value?: SecurityNamespace.AlertComment[] }>(`${alertPath(id)}/comments`, {
      '@odata.type': 'microsoft.graph.security.alertComment',
      comment: text,
    });
    return true;
  } catch (error) {
    if (isCloudError(error, 'NotFound')) return false;
    throw error;
  }
}
