/**
 * The GraphQL names and descriptions of the enums of device.enums.ts, apart from them: a module that needs only
 * an enum (a test, the CLI, a service) loads it without type-graphql. The types and entities that use these
 * enums in a field import this module for its registrations.
 */
import { registerEnumType } from 'type-graphql';
import {
  OsPlatform,
  DeviceRiskLevel,
  DeviceHealthState,
  OnboardingStatus,
  DeviceOwnership,
  ComplianceState,
  IsolationState,
  IsolationType,
  ScanType,
  DeviceActionKind,
  DeviceActionStatus,
} from './device.enums.js';

registerEnumType(OsPlatform, { name: 'OsPlatform', description: 'Windows, macOS, Linux, iOS or Android' });

registerEnumType(DeviceRiskLevel, { name: 'DeviceRiskLevel', description: 'High, Medium, Low or No data' });

registerEnumType(DeviceHealthState, {
  name: 'DeviceHealthState',
  description: 'Active, Inactive or Misconfigured',
});

registerEnumType(OnboardingStatus, {
  name: 'OnboardingStatus',
  description: 'Onboarded, Pending (first check-in within 24 h), Can be Onboarded, Unsupported, Failed',
});

registerEnumType(DeviceOwnership, { name: 'DeviceOwnership', description: 'Corporate or Personal' });

registerEnumType(ComplianceState, {
  name: 'ComplianceState',
  description:
    'Compliant, Non-Compliant, In Grace Period (non-compliant inside the remediation window), Not Evaluated',
});

registerEnumType(IsolationState, { name: 'IsolationState', description: 'Not isolated or Isolated' });

registerEnumType(IsolationType, {
  name: 'IsolationType',
  description:
    'FULL (REST "Full isolation": all traffic blocked but the management channel) or SELECTIVE (REST "Selective isolation")',
});

registerEnumType(ScanType, { name: 'ScanType', description: 'quick or full antivirus scan' });

registerEnumType(DeviceActionKind, { name: 'DeviceActionKind', description: 'Isolate, Release or Scan' });

registerEnumType(DeviceActionStatus, {
  name: 'DeviceActionStatus',
  description: 'Pending (queued), InProgress (sent to the cloud), Succeeded or Failed (with a reason)',
});
