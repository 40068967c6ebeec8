import type { CloudPages } from './pages.js';

/**
 * The security part of the upstream cloud (SPEC 2.6 "Security alert", "Device", "Endpoint DLP policy"):
 * alerts, devices and the actions run on them (isolation, release, antivirus scans), endpoint DLP.
 * A tenant's client has it as `security` (tenant-cloud.ts); records are provider-shaped (the cloud's ids).
 */
export type CloudAlertSeverity = 'High' | 'Medium' | 'Low' | 'Informational';
export type CloudAlertStatus = 'New' | 'In Progress' | 'Resolved' | 'Dismissed';

export interface CloudAlertRecord {
  externalId: string;
  title: string;
  description: string;
  severity: CloudAlertSeverity;
  status: CloudAlertStatus;
  /** e.g. Malware, Phishing, Suspicious sign-in, Data exfiltration. */
  category: string;
  /** The service that raised it, e.g. Defender for Endpoint, Office 365, Identity Protection. */
  source: string;
  /** What the alert is about, as the cloud names it (a UPN, a device name, a mailbox). */
  affectedEntity: string;
  userExternalId: string | null;
  deviceExternalId: string | null;
  createdAt: string;
  /**
   * The alert's comments as the cloud holds them, ours included (posted as "<author>: <text>"), oldest first;
   * absent when the cloud keeps no comments of its own (the simulated cloud: our notes are the only ones).
   */
  comments?: CloudAlertCommentRecord[];
}

/** A comment the cloud holds on an alert (Graph's alertComment). */
export interface CloudAlertCommentRecord {
  text: string;
  /** Who wrote it, as the cloud names them (a person, or the app that posted it). */
  author: string;
  createdAt: string;
}

/** What an alert update changes upstream; an absent field is left as it is. */
export interface CloudAlertChange {
  status?: CloudAlertStatus;
  /** The assignee's sign-in name (a member's email); null: nobody. */
  assignedTo?: string | null;
}

/** An investigation note sent to the cloud. */
export interface CloudAlertCommentInput {
  /** The note as it reads upstream. */
  text: string;
  /**
   * How many notes with this very text the alert already holds on our side. The cloud adds the note unless it
   * already holds more of them than that: a retried add whose first try reached the cloud but was not stored
   * here finds its note there and is not posted twice, while a note repeated on purpose is still added.
   */
  storedCopies: number;
}

export type CloudOsPlatform = 'Windows' | 'macOS' | 'Linux' | 'iOS' | 'Android';
export type CloudDeviceRiskLevel = 'High' | 'Medium' | 'Low' | 'No data';
export type CloudDeviceHealth = 'Active' | 'Inactive' | 'Misconfigured';
export type CloudOnboardingStatus = 'Onboarded' | 'Pending' | 'Can be Onboarded' | 'Unsupported' | 'Failed';
export type CloudComplianceState = 'Compliant' | 'Non-Compliant' | 'In Grace Period' | 'Not Evaluated';

export interface CloudDeviceRecord {
  externalId: string;
  deviceName: string;
  osPlatform: CloudOsPlatform;
  osVersion: string;
  ownership: 'Corporate' | 'Personal';
  manufacturer: string;
  model: string;
  enrolledAt: string;
  complianceState: CloudComplianceState;
  /** In Grace Period only: when the device becomes Non-Compliant unless remediated. */
  complianceGraceExpiresAt: string | null;
  /** The device's primary user. */
  userExternalId: string | null;
  riskLevel: CloudDeviceRiskLevel;
  /** Exposure score 0..100 (higher is more exposed). */
  exposureScore: number;
  healthState: CloudDeviceHealth;
  onboardingStatus: CloudOnboardingStatus;
  lastSeenAt: string;
  /** Codes of the security recommendations open on this device (src/devices/device-recommendations.ts). */
  openRecommendations: string[];
  /** Network isolation as the cloud applies it. */
  isolated: boolean;
  /**
   * The cloud's action that set `isolated` (its latest isolation or release that succeeded, whoever asked:
   * our API or the cloud's own portal), when the cloud says; absent when it does not (the simulated cloud's
   * records). Only with it does a sync take the isolation of a device it already knows from the cloud.
   */
  isolationActionId?: string | null;
  /** That action's isolation type, when it isolated: 'Full' | 'Selective'. */
  isolationType?: 'Full' | 'Selective' | null;
}

/**
 * A tenant's devices, page by page. A cloud whose sources hold devices our record cannot hold truthfully
 * (Microsoft 365: Defender machines Intune does not manage, Intune devices of other systems) counts them in
 * `notListed` once the pages have been read, so the sync can say they exist.
 */
export interface CloudDevicePages extends CloudPages<CloudDeviceRecord> {
  readonly notListed?: CloudDevicesNotListed;
}

export interface CloudDevicesNotListed {
  /** Defender for Endpoint machines no Intune managed device joins (servers, unmanaged computers). */
  defenderOnly: number;
  /** Intune managed devices of systems outside our OS platforms (ChromeOS, Windows Holographic…). */
  otherSystems: number;
}

export type CloudDeviceActionKind = 'Isolate' | 'Release' | 'Scan';
export type CloudDeviceActionStatus = 'InProgress' | 'Succeeded' | 'Failed';

export interface CloudDeviceActionRequest {
  /** Our action id: the cloud keeps one action per request id, so a retried start does not run twice. */
  requestId: string;
  kind: CloudDeviceActionKind;
  /** Isolate: 'Full' | 'Selective'; Scan: 'Quick' | 'Full'; Release: null. */
  type: string | null;
  comment: string;
}

export interface CloudDeviceActionRecord {
  externalId: string;
  requestId: string;
  deviceExternalId: string;
  kind: CloudDeviceActionKind;
  type: string | null;
  status: CloudDeviceActionStatus;
  startedAt: string;
  completedAt: string | null;
  failureReason: string | null;
  /** Scans only. */
  threatsFound: number | null;
  durationSeconds: number | null;
}

export type CloudDlpAction = 'Audit only' | 'Block with override' | 'Block';
export type CloudDlpActivity =
  | 'Copy to removable media'
  | 'Copy to network share'
  | 'Upload to cloud service'
  | 'Access by unallowed apps'
  | 'Print'
  | 'Clipboard copy/paste';

export interface CloudDlpPolicyRecord {
  externalId: string;
  name: string;
  action: CloudDlpAction;
  deviceGroups: string[];
  monitoredActivities: CloudDlpActivity[];
  enabled: boolean;
  createdAt: string;
}

export type CloudDlpActionTaken = 'Audited' | 'Blocked' | 'Overridden';

/** An activity an endpoint DLP policy matched; null where the cloud does not say (Microsoft Graph's alerts). */
export interface CloudDlpAlertRecord {
  externalId: string;
  policyExternalId: string | null;
  activity: CloudDlpActivity | null;
  deviceExternalId: string | null;
  userExternalId: string | null;
  userPrincipalName: string;
  fileName: string;
  actionTaken: CloudDlpActionTaken | null;
  occurredAt: string;
}

export interface CloudSecurityProvider {
  /**
   * The tenant's alerts; with `changedSince`, a cloud that can filter gives only those changed since then (a
   * sync passes its previous end), one that cannot gives them all: the caller upserts either way.
   */
  listAlerts(changedSince?: Date | null): CloudPages<CloudAlertRecord>;
  /**
   * Changes an alert upstream: its status, its assignee, or both in one call. Idempotent. Null when the
   * cloud has no such alert.
   */
  updateAlert(alertExternalId: string, change: CloudAlertChange): Promise<CloudAlertRecord | null>;
  /** Adds an investigation note upstream, safe to repeat (CloudAlertCommentInput). False when the cloud has no such alert. */
  addAlertComment(alertExternalId: string, comment: CloudAlertCommentInput): Promise<boolean>;
  listDevices(): CloudDevicePages;
  /** Starts an action on a device; a second call with the same requestId returns the first action. */
  startDeviceAction(
    deviceExternalId: string,
    request: CloudDeviceActionRequest,
  ): Promise<CloudDeviceActionRecord>;
  /** The action as the cloud has it now; null when unknown. */
  getDeviceAction(actionExternalId: string): Promise<CloudDeviceActionRecord | null>;
  listDlpPolicies(): CloudPages<CloudDlpPolicyRecord>;
  /** With `changedSince`, a cloud that can filter gives only the alerts changed since then (as listAlerts). */
  listDlpAlerts(changedSince?: Date | null): CloudPages<CloudDlpAlertRecord>;
}
