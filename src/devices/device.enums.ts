import { registerEnumType } from 'type-graphql';

/** SPEC 2.6 "Device": the five OS platforms. */
export enum OsPlatform {
  WINDOWS = 'Windows',
  MACOS = 'macOS',
  LINUX = 'Linux',
  IOS = 'iOS',
  ANDROID = 'Android',
}
registerEnumType(OsPlatform, { name: 'OsPlatform', description: 'Windows, macOS, Linux, iOS or Android' });

export enum DeviceRiskLevel {
  HIGH = 'High',
  MEDIUM = 'Medium',
  LOW = 'Low',
  NO_DATA = 'No data',
}
registerEnumType(DeviceRiskLevel, { name: 'DeviceRiskLevel', description: 'High, Medium, Low or No data' });

/** Sort weight of a risk level (riskiest devices first). */
export const RISK_RANK: Record<DeviceRiskLevel, number> = {
  [DeviceRiskLevel.HIGH]: 3,
  [DeviceRiskLevel.MEDIUM]: 2,
  [DeviceRiskLevel.LOW]: 1,
  [DeviceRiskLevel.NO_DATA]: 0,
};

export enum DeviceHealthState {
  ACTIVE = 'Active',
  INACTIVE = 'Inactive',
  MISCONFIGURED = 'Misconfigured',
}
registerEnumType(DeviceHealthState, {
  name: 'DeviceHealthState',
  description: 'Active, Inactive or Misconfigured',
});

/** SPEC 3.2 onboarding states. */
export enum OnboardingStatus {
  ONBOARDED = 'Onboarded',
  PENDING = 'Pending',
  CAN_BE_ONBOARDED = 'Can be Onboarded',
  UNSUPPORTED = 'Unsupported',
  FAILED = 'Failed',
}
registerEnumType(OnboardingStatus, {
  name: 'OnboardingStatus',
  description: 'Onboarded, Pending (first check-in within 24 h), Can be Onboarded, Unsupported, Failed',
});

export enum DeviceOwnership {
  CORPORATE = 'Corporate',
  PERSONAL = 'Personal',
}
registerEnumType(DeviceOwnership, { name: 'DeviceOwnership', description: 'Corporate or Personal' });

/** SPEC 3.3 device compliance. */
export enum ComplianceState {
  COMPLIANT = 'Compliant',
  NON_COMPLIANT = 'Non-Compliant',
  IN_GRACE_PERIOD = 'In Grace Period',
  NOT_EVALUATED = 'Not Evaluated',
}
registerEnumType(ComplianceState, {
  name: 'ComplianceState',
  description:
    'Compliant, Non-Compliant, In Grace Period (non-compliant inside the remediation window), Not Evaluated',
});

export enum IsolationState {
  NOT_ISOLATED = 'Not isolated',
  ISOLATED = 'Isolated',
}
registerEnumType(IsolationState, { name: 'IsolationState', description: 'Not isolated or Isolated' });

/** SPEC 2.6 "Isolation": type, with SPEC's spelling on REST. */
export enum IsolationType {
  FULL = 'Full isolation',
  SELECTIVE = 'Selective isolation',
}
registerEnumType(IsolationType, {
  name: 'IsolationType',
  description:
    'FULL (REST "Full isolation": all traffic blocked but the management channel) or SELECTIVE (REST "Selective isolation")',
});

export enum ScanType {
  QUICK = 'quick',
  FULL = 'full',
}
registerEnumType(ScanType, { name: 'ScanType', description: 'quick or full antivirus scan' });

export enum DeviceActionKind {
  ISOLATE = 'Isolate',
  RELEASE = 'Release',
  SCAN = 'Scan',
}
registerEnumType(DeviceActionKind, { name: 'DeviceActionKind', description: 'Isolate, Release or Scan' });

/** DECISIONS "Device isolation": Pending → InProgress → Succeeded | Failed (scans too). */
export enum DeviceActionStatus {
  PENDING = 'Pending',
  IN_PROGRESS = 'InProgress',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
}
registerEnumType(DeviceActionStatus, {
  name: 'DeviceActionStatus',
  description: 'Pending (queued), InProgress (sent to the cloud), Succeeded or Failed (with a reason)',
});

export const ACTIVE_ACTION_STATUSES = [DeviceActionStatus.PENDING, DeviceActionStatus.IN_PROGRESS] as const;
