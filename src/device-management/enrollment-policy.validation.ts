import { type FieldProblem, invalid } from '../core/errors.js';
import {
  EnrollmentPlatform,
  MANUFACTURER_BLOCK_PLATFORMS,
  MAX_DEVICE_LIMIT,
  MIN_DEVICE_LIMIT,
  RestrictionType,
} from './enrollment.enums.js';
import type {
  DeviceLimitGroupOverride,
  PlatformDeviceLimit,
  PlatformRestriction,
} from './enrollment-policy.settings.js';
import { compareVersions, POLICY_VERSION_FORMAT } from './os-version.js';

/** A policy's settings as they will be stored, checked as a whole (create, or an update merged in). */
export interface PolicyDraft {
  name: string;
  description: string | null;
  restrictionType: RestrictionType;
  isDefault: boolean;
  assignedToAllUsers: boolean;
  groupIds: string[];
  platformRestrictions: PlatformRestriction[];
  deviceLimit: number | null;
  platformLimits: PlatformDeviceLimit[];
  groupOverrides: DeviceLimitGroupOverride[];
}

const MAX_NAME = 128;
const MAX_DESCRIPTION = 1024;
const MAX_LIST = 100;
const MAX_MANUFACTURER = 64;

function limitProblem(field: string, value: number, problems: FieldProblem[]) {
  if (!Number.isInteger(value) || value < MIN_DEVICE_LIMIT || value > MAX_DEVICE_LIMIT)
    problems.push({
      field,
      problem: `must be a whole number from ${MIN_DEVICE_LIMIT} to ${MAX_DEVICE_LIMIT}`,
    });
}

function duplicates<T>(items: T[], key: (item: T) => string, field: (i: number) => string): FieldProblem[] {
  const seen = new Set<string>();
  return items.flatMap((item, i) => {
    const k = key(item);
    if (seen.has(k)) return [{ field: field(i), problem: `names ${k} more than once` }];
    seen.add(k);
    return [];
  });
}

function platformProblems(rows: PlatformRestriction[]): FieldProblem[] {
  const problems = duplicates(
    rows,
    (row) => row.platform,
    (i) => `platformRestrictions[${i}].platform`,
  );
  rows.forEach((row, i) => {
    const at = `platformRestrictions[${i}]`;
    for (const bound of ['minOsVersion', 'maxOsVersion'] as const) {
      const value = row[bound];
      if (value != null && !POLICY_VERSION_FORMAT.test(value))
        problems.push({ field: `${at}.${bound}`, problem: 'must be a version such as 10.0.19045 or 17.4' });
    }
    if (
      row.minOsVersion != null &&
      row.maxOsVersion != null &&
      POLICY_VERSION_FORMAT.test(row.minOsVersion) &&
      POLICY_VERSION_FORMAT.test(row.maxOsVersion) &&
      compareVersions(row.minOsVersion, row.maxOsVersion) > 0
    )
      problems.push({ field: `${at}.minOsVersion`, problem: `is above maxOsVersion ${row.maxOsVersion}` });
    const makers = row.blockedManufacturers ?? [];
    if (makers.length > 0 && !MANUFACTURER_BLOCK_PLATFORMS.has(row.platform))
      problems.push({
        field: `${at}.blockedManufacturers`,
        problem: `applies to Android only (Android Enterprise, Android Device Admin), not ${row.platform}`,
      });
    if (makers.length > MAX_LIST)
      problems.push({ field: `${at}.blockedManufacturers`, problem: `may list at most ${MAX_LIST}` });
    makers.forEach((maker, j) => {
      if (maker.trim() === '' || maker.length > MAX_MANUFACTURER)
        problems.push({
          field: `${at}.blockedManufacturers[${j}]`,
          problem: `must be 1 to ${MAX_MANUFACTURER} characters`,
        });
    });
  });
  return problems;
}

function limitProblems(draft: PolicyDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (draft.deviceLimit === null)
    problems.push({ field: 'deviceLimit', problem: 'is required for Device Limit Restrictions' });
  else limitProblem('deviceLimit', draft.deviceLimit, problems);
  problems.push(
    ...duplicates(
      draft.platformLimits,
      (row) => row.platform,
      (i) => `platformLimits[${i}].platform`,
    ),
  );
  draft.platformLimits.forEach((row, i) => limitProblem(`platformLimits[${i}].limit`, row.limit, problems));
  problems.push(
    ...duplicates(
      draft.groupOverrides,
      (row) => row.groupId,
      (i) => `groupOverrides[${i}].groupId`,
    ),
  );
  draft.groupOverrides.forEach((row, i) =>
    limitProblem(`groupOverrides[${i}].deviceLimit`, row.deviceLimit, problems),
  );
  if (draft.groupOverrides.length > MAX_LIST)
    problems.push({ field: 'groupOverrides', problem: `may list at most ${MAX_LIST}` });
  return problems;
}

/**
 * Every rule of a policy's settings (docs/devices.md "Policy model"); the group ids are checked against the
 * tenant's groups by the caller (`unknownGroups`). Throws 400 naming each field at fault.
 */
export function assertValidPolicy(draft: PolicyDraft, unknownGroupIds: ReadonlySet<string>): void {
  const problems: FieldProblem[] = [];
  const name = draft.name.trim();
  if (name === '' || name.length > MAX_NAME)
    problems.push({ field: 'name', problem: `must be 1 to ${MAX_NAME} characters` });
  if (draft.description !== null && draft.description.length > MAX_DESCRIPTION)
    problems.push({ field: 'description', problem: `must be at most ${MAX_DESCRIPTION} characters` });
  if (draft.isDefault) {
    if (!draft.assignedToAllUsers)
      problems.push({ field: 'assignedToAllUsers', problem: 'the default policy applies to all users' });
    if (draft.groupIds.length > 0)
      problems.push({ field: 'groupIds', problem: 'the default policy applies to all users' });
  } else if (!draft.assignedToAllUsers && draft.groupIds.length === 0) {
    problems.push({ field: 'groupIds', problem: 'name at least one group, or set assignedToAllUsers' });
  }
  if (draft.groupIds.length > MAX_LIST)
    problems.push({ field: 'groupIds', problem: `may list at most ${MAX_LIST}` });
  problems.push(
    ...duplicates(
      draft.groupIds,
      (id) => id,
      (i) => `groupIds[${i}]`,
    ),
  );
  draft.groupIds.forEach((id, i) => {
    if (unknownGroupIds.has(id))
      problems.push({ field: `groupIds[${i}]`, problem: 'is not a group of the tenant' });
  });
  draft.groupOverrides.forEach((row, i) => {
    if (unknownGroupIds.has(row.groupId))
      problems.push({ field: `groupOverrides[${i}].groupId`, problem: 'is not a group of the tenant' });
  });
  if (draft.restrictionType === RestrictionType.DEVICE_TYPE) {
    problems.push(...platformProblems(draft.platformRestrictions));
    for (const field of ['platformLimits', 'groupOverrides'] as const)
      if (draft[field].length > 0) problems.push({ field, problem: 'belongs to Device Limit Restrictions' });
    if (draft.deviceLimit !== null)
      problems.push({ field: 'deviceLimit', problem: 'belongs to Device Limit Restrictions' });
  } else {
    problems.push(...limitProblems(draft));
    if (draft.platformRestrictions.length > 0)
      problems.push({ field: 'platformRestrictions', problem: 'belongs to Device Type Restrictions' });
  }
  if (problems.length > 0) {
    throw invalid(problems, 'enrollment restriction');
  }
}

/** Every platform row of a device type restriction, in a fixed order; platforms not given are allowed. */
export function withEveryPlatform(rows: PlatformRestriction[]): PlatformRestriction[] {
  return Object.values(EnrollmentPlatform).map(
    (platform) =>
      rows.find((row) => row.platform === platform) ?? {
        platform,
        allowed: true,
        corporateAllowed: true,
        personalAllowed: true,
        minOsVersion: null,
        maxOsVersion: null,
        blockedManufacturers: [],
      },
  );
}
