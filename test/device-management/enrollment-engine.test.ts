import { DeviceOwnership, OsPlatform } from '../../src/devices/device.enums.js';
import {
  BlockReason,
  DEFAULT_DEVICE_LIMIT,
  EnrollmentPlatform,
  RestrictionType,
} from '../../src/device-management/enrollment.enums.js';
import {
  evaluateEnrollment,
  type EnrollmentAttempt,
} from '../../src/device-management/enrollment-evaluation.js';
import type { EnrollmentRestriction } from '../../src/device-management/enrollment-policy.entity.js';
import { withEveryPlatform } from '../../src/device-management/enrollment-policy.validation.js';
import { compareVersions, versionWithin } from '../../src/device-management/os-version.js';

describe('compareVersions', () => {
  it.each([
    ['10.0.19045', '10.0.22631', -1],
    ['10.0.22631', '10.0.19045', 1],
    ['17.4', '17.10', -1],
    ['17.10', '17.9', 1],
    ['14', '14.0', 0],
    ['14.0.0', '14', 0],
    ['9', '10', -1],
    ['1.2.3.4', '1.2.3.10', -1],
    ['17.4.1 (21E236)', '17.4.1', 0],
    ['17.4.1 (21E236)', '17.4.2', -1],
    ['v13', '12.9', 1],
    ['', '1', -1],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it('bounds are inclusive at both ends', () => {
    expect(versionWithin('17.4', '17.4', '17.10')).toBe(true);
    expect(versionWithin('17.10', '17.4', '17.10')).toBe(true);
    expect(versionWithin('17.3.9', '17.4', null)).toBe(false);
    expect(versionWithin('17.10.1', null, '17.10')).toBe(false);
    expect(versionWithin('99', null, null)).toBe(true);
  });
});

type Policy = Parameters<typeof evaluateEnrollment>[0][number];

let counter = 0;
function policy(fields: Partial<Policy> & Pick<Policy, 'restrictionType'>): Policy {
  counter += 1;
  return {
    id: `p${counter}`,
    name: `Policy ${counter}`,
    isDefault: false,
    priority: counter,
    assignedToAllUsers: true,
    groupIds: [],
    platformRestrictions: [],
    deviceLimit: null,
    platformLimits: [],
    groupOverrides: [],
    ...fields,
  } satisfies Partial<EnrollmentRestriction>;
}

const DEFAULT = policy({
  restrictionType: RestrictionType.DEVICE_LIMIT,
  isDefault: true,
  priority: 99,
  name: 'Default',
  deviceLimit: DEFAULT_DEVICE_LIMIT,
  platformLimits: [
    { platform: OsPlatform.WINDOWS, limit: 5 },
    { platform: OsPlatform.IOS, limit: 5 },
    { platform: OsPlatform.ANDROID, limit: 5 },
  ],
});

const nobody = { groupIds: new Set<string>(), deviceCounts: new Map<OsPlatform, number>() };
const attempt = (fields: Partial<EnrollmentAttempt> = {}): EnrollmentAttempt => ({
  platform: EnrollmentPlatform.WINDOWS,
  osVersion: '10.0.22631',
  ownership: DeviceOwnership.CORPORATE,
  manufacturer: 'Dell',
  ...fields,
});
const deviceType = (rows: Parameters<typeof withEveryPlatform>[0], fields: Partial<Policy> = {}) =>
  policy({
    restrictionType: RestrictionType.DEVICE_TYPE,
    platformRestrictions: withEveryPlatform(rows),
    ...fields,
  });
const row = (
  platform: EnrollmentPlatform,
  fields: Partial<Parameters<typeof withEveryPlatform>[0][number]> = {},
) => ({
  platform,
  allowed: true,
  corporateAllowed: true,
  personalAllowed: true,
  minOsVersion: null,
  maxOsVersion: null,
  blockedManufacturers: [],
  ...fields,
});

describe('evaluateEnrollment', () => {
  it('with only the default: everything is allowed up to 15 devices and 5 per Windows/iOS/Android', () => {
    expect(evaluateEnrollment([DEFAULT], attempt(), nobody)).toMatchObject({
      allowed: true,
      decidedBy: { id: DEFAULT.id },
      deviceTypePolicyId: null,
      deviceLimitPolicyId: DEFAULT.id,
    });
    const fiveWindows = { groupIds: new Set<string>(), deviceCounts: new Map([[OsPlatform.WINDOWS, 5]]) };
    expect(evaluateEnrollment([DEFAULT], attempt(), fiveWindows)).toMatchObject({
      allowed: false,
      reason: BlockReason.DEVICE_LIMIT,
      decidedBy: { id: DEFAULT.id },
    });
    // macOS has no platform limit in the default: only the 15 per user.
    const many = new Map([
      [OsPlatform.WINDOWS, 4],
      [OsPlatform.MACOS, 10],
    ]);
    expect(
      evaluateEnrollment([DEFAULT], attempt({ platform: EnrollmentPlatform.MACOS }), {
        groupIds: new Set(),
        deviceCounts: many,
      }).allowed,
    ).toBe(true);
    many.set(OsPlatform.LINUX, 1);
    expect(
      evaluateEnrollment([DEFAULT], attempt({ platform: EnrollmentPlatform.MACOS }), {
        groupIds: new Set(),
        deviceCounts: many,
      }),
    ).toMatchObject({ allowed: false, reason: BlockReason.DEVICE_LIMIT });
  });

  it('overlapping policies: the first applicable by priority decides, whatever the array order', () => {
    const blocksWindows = deviceType([row(EnrollmentPlatform.WINDOWS, { allowed: false })], { priority: 2 });
    const allowsAll = deviceType([], { priority: 1, assignedToAllUsers: false, groupIds: ['engineers'] });
    const engineer = { groupIds: new Set(['engineers']), deviceCounts: new Map() };
    expect(evaluateEnrollment([DEFAULT, blocksWindows, allowsAll], attempt(), engineer)).toMatchObject({
      allowed: true,
      deviceTypePolicyId: allowsAll.id,
    });
    // Not in the group: the group's policy does not apply, the next one blocks.
    expect(evaluateEnrollment([blocksWindows, allowsAll, DEFAULT], attempt(), nobody)).toMatchObject({
      allowed: false,
      reason: BlockReason.PLATFORM_BLOCKED,
      decidedBy: { id: blocksWindows.id },
    });
  });

  it('personal devices, corporate ownership and OS versions at their edges', () => {
    const rules = deviceType([
      row(EnrollmentPlatform.IOS, { personalAllowed: false, minOsVersion: '17.4', maxOsVersion: '17.10' }),
      row(EnrollmentPlatform.WINDOWS, { corporateAllowed: false, minOsVersion: '10.0.22631' }),
    ]);
    const ios = (fields: Partial<EnrollmentAttempt>) =>
      evaluateEnrollment([rules, DEFAULT], attempt({ platform: EnrollmentPlatform.IOS, ...fields }), nobody);
    expect(ios({ ownership: DeviceOwnership.PERSONAL, osVersion: '17.5' }).reason).toBe(
      BlockReason.PERSONAL_DEVICE,
    );
    expect(ios({ osVersion: '17.4' }).allowed).toBe(true);
    expect(ios({ osVersion: '17.10' }).allowed).toBe(true);
    expect(ios({ osVersion: '17.9' }).allowed).toBe(true);
    expect(ios({ osVersion: '17.3.1' }).reason).toBe(BlockReason.OS_VERSION);
    expect(ios({ osVersion: '17.10.1' }).reason).toBe(BlockReason.OS_VERSION);
    expect(ios({ osVersion: '17.11' }).reason).toBe(BlockReason.OS_VERSION);
    const windows = evaluateEnrollment([rules, DEFAULT], attempt({ osVersion: '10.0.19045' }), nobody);
    expect(windows.reason).toBe(BlockReason.PLATFORM_BLOCKED); // corporate Windows blocked before the version
    const personalOld = evaluateEnrollment(
      [rules, DEFAULT],
      attempt({ ownership: DeviceOwnership.PERSONAL, osVersion: '10.0.19045' }),
      nobody,
    );
    expect(personalOld).toMatchObject({ allowed: false, reason: BlockReason.OS_VERSION });
  });

  it('blocks a manufacturer on Android only (case and spaces ignored)', () => {
    const rules = deviceType([
      row(EnrollmentPlatform.ANDROID_ENTERPRISE, { blockedManufacturers: ['Huawei'] }),
      row(EnrollmentPlatform.ANDROID_DEVICE_ADMIN, { blockedManufacturers: ['Xiaomi'] }),
    ]);
    const android = (platform: EnrollmentPlatform, manufacturer: string) =>
      evaluateEnrollment([rules, DEFAULT], attempt({ platform, manufacturer, osVersion: '14' }), nobody);
    expect(android(EnrollmentPlatform.ANDROID_ENTERPRISE, ' huawei ')).toMatchObject({
      allowed: false,
      reason: BlockReason.PLATFORM_BLOCKED,
    });
    expect(android(EnrollmentPlatform.ANDROID_ENTERPRISE, 'Samsung').allowed).toBe(true);
    expect(android(EnrollmentPlatform.ANDROID_DEVICE_ADMIN, 'Xiaomi').allowed).toBe(false);
    expect(android(EnrollmentPlatform.ANDROID_DEVICE_ADMIN, 'Huawei').allowed).toBe(true);
  });

  it('device limits: per user, per platform, and a group override before the per-user limit', () => {
    const limits = policy({
      restrictionType: RestrictionType.DEVICE_LIMIT,
      deviceLimit: 2,
      platformLimits: [{ platform: OsPlatform.ANDROID, limit: 1 }],
      groupOverrides: [
        { groupId: 'execs', deviceLimit: 4 },
        { groupId: 'staff', deviceLimit: 3 },
      ],
    });
    const user = (groups: string[], counts: Array<[OsPlatform, number]>) => ({
      groupIds: new Set(groups),
      deviceCounts: new Map(counts),
    });
    expect(
      evaluateEnrollment([limits, DEFAULT], attempt(), user([], [[OsPlatform.WINDOWS, 1]])).allowed,
    ).toBe(true);
    expect(
      evaluateEnrollment([limits, DEFAULT], attempt(), user([], [[OsPlatform.WINDOWS, 2]])),
    ).toMatchObject({
      allowed: false,
      reason: BlockReason.DEVICE_LIMIT,
      decidedBy: { id: limits.id },
    });
    // The first override the user's groups match: execs (4), though staff (3) is listed too.
    const exec = user(['staff', 'execs'], [[OsPlatform.WINDOWS, 3]]);
    expect(evaluateEnrollment([limits, DEFAULT], attempt(), exec).allowed).toBe(true);
    const staff = user(['staff'], [[OsPlatform.WINDOWS, 3]]);
    expect(evaluateEnrollment([limits, DEFAULT], attempt(), staff).allowed).toBe(false);
    // The per-platform limit holds even under the per-user limit.
    const android = attempt({ platform: EnrollmentPlatform.ANDROID_ENTERPRISE, osVersion: '14' });
    expect(evaluateEnrollment([limits, DEFAULT], android, user([], [[OsPlatform.ANDROID, 1]]))).toMatchObject(
      {
        allowed: false,
        reason: BlockReason.DEVICE_LIMIT,
      },
    );
  });

  it('a device type refusal comes before a device limit refusal', () => {
    const blocksMac = deviceType([row(EnrollmentPlatform.MACOS, { allowed: false })]);
    const full = { groupIds: new Set<string>(), deviceCounts: new Map([[OsPlatform.MACOS, 20]]) };
    expect(
      evaluateEnrollment([DEFAULT, blocksMac], attempt({ platform: EnrollmentPlatform.MACOS }), full),
    ).toMatchObject({
      reason: BlockReason.PLATFORM_BLOCKED,
      decidedBy: { id: blocksMac.id },
    });
  });
});
