import type { SecurityNamespace } from '@microsoft/microsoft-graph-types';
import type { CloudPages } from '../pages.js';
import type { CloudDlpActionTaken, CloudDlpAlertRecord } from '../security.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import {
  ALERTS,
  changedSinceClause,
  EVOLVABLE,
  ofType,
  type Evidence,
  type GraphSecurityAlert,
} from './graph-alert-queries.js';

/**
 * Data loss prevention alerts: Graph's security alerts whose `serviceSource` is `dataLossPrevention` (the
 * serviceSource enum's member; `microsoftDataLossPrevention` is a detectionSource). Graph has no DLP policy
 * API, so the policy is only its id (`alertPolicyId`, "the ID of the policy that generated the alert"), and
 * the alert does not say which activity (copy to USB, print…) matched: null, never guessed.
 */
const DLP_SOURCE = "serviceSource eq 'dataLossPrevention'";

/**
 * What the policy did, from the file evidence's `detectionStatus`: blocked or prevented → Blocked, detected
 * → Audited. Overridden (a block the user overrode) is not told by Graph; no file evidence → null.
 */
const ACTIONS: Partial<Record<SecurityNamespace.DetectionStatus, CloudDlpActionTaken>> = {
  blocked: 'Blocked',
  prevented: 'Blocked',
  detected: 'Audited',
};

export function dlpAlertRecordOf(alert: GraphSecurityAlert): CloudDlpAlertRecord {
  const evidence = (alert.evidence ?? []) as Evidence[];
  const device = ofType<SecurityNamespace.DeviceEvidence & Evidence>(evidence, 'deviceEvidence').find(
    (item) => item.azureAdDeviceId,
  );
  const account = ofType<SecurityNamespace.UserEvidence & Evidence>(evidence, 'userEvidence').find(
    (item) => item.userAccount,
  )?.userAccount;
  const file = ofType<SecurityNamespace.FileEvidence & Evidence>(evidence, 'fileEvidence').find(
    (item) => item.fileDetails,
  );
  return {
    externalId: alert.id ?? '',
    policyExternalId: alert.alertPolicyId ?? null,
    activity: null,
    deviceExternalId: device?.azureAdDeviceId ?? null,
    userExternalId: account?.azureAdUserId ?? null,
    userPrincipalName: account?.userPrincipalName ?? '',
    fileName: file?.fileDetails?.fileName ?? '',
    actionTaken: (file?.detectionStatus && ACTIONS[file.detectionStatus]) || null,
    occurredAt: alert.firstActivityDateTime ?? alert.createdDateTime ?? '',
  };
}

/** `GET /security/alerts_v2?$filter=serviceSource eq 'dataLossPrevention'` (and changed since), every page. */
export function dlpAlertPages(
  graph: GraphTenantClient,
  changedSince?: Date | null,
): CloudPages<CloudDlpAlertRecord> {
  const clause = changedSinceClause(changedSince);
  const $filter = clause ? `${DLP_SOURCE} and ${clause}` : DLP_SOURCE;
  return {
    async *[Symbol.asyncIterator]() {
      for await (const page of graph.pages<GraphSecurityAlert>(ALERTS, { ...EVOLVABLE, query: { $filter } }))
        yield page.value.map(dlpAlertRecordOf);
    },
  };
}
