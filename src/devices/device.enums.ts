/** SPEC 2.6 "Device": the five OS platforms. */
export enum OsPlatform {
  WINDOWS = 'Windows',
  MACOS = 'macOS',
  LINUX = 'Linux',
  IOS = 'iOS',
  ANDROID = 'Android',
}

export enum DeviceRiskLevel {
  HIGH = 'High',
  MEDIUM = 'Medium',
  LOW = 'Low',
  NO_DATA = 'No data',
}

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

/** SPEC 3.2 onboarding states. */
export enum OnboardingStatus {
  ONBOARDED = 'Onboarded',
  PENDING = 'Pending',
  CAN_BE_ONBOARDED = 'Can be Onboarded',
  UNSUPPORTED = 'Unsupported',
  FAILED = 'Failed',
}

export enum DeviceOwnership {
  CORPORATE = 'Corporate',
  PERSONAL = 'Personal',
}

/** SPEC 3.3 device compliance. */
export enum ComplianceState {
  COMPLIANT = 'Compliant',
  NON_COMPLIANT = 'Non-Compliant',
  IN_GRACE_PERIOD = 'In Grace Period',
  NOT_EVALUATED = 'Not Evaluated',
}

export enum IsolationState {
  NOT_ISOLATED = 'Not isolated',
  ISOLATED = 'Isolated',
}

/** SPEC 2.6 "Isolation": type, with SPEC's spelling on REST. */
export enum IsolationType {
  FULL = 'Full isolation',
  SELECTIVE = 'Selective isolation',
}

export enum ScanType {
  QUICK = 'quick',
  FULL = 'full',
}

export enum DeviceActionKind {
  ISOLATE = 'Isolate',
  RELEASE = 'Release',
  SCAN = 'Scan',
}

/** DECISIONS "Device isolation": Pending → InProgress → Succeeded | Failed (scans too). */
export enum DeviceActionStatus {
  PENDING = 'Pending',
  IN_PROGRESS = 'InProgress',
  SUCCEEDED = 'Succeeded',
  FAILED = 'Failed',
}

export const ACTIVE_ACTION_STATUSES = [DeviceActionStatus.PENDING, DeviceActionStatus.IN_PROGRESS] as const;
