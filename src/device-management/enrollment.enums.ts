import { OsPlatform } from '../devices/device.enums.js';

/** SPEC 2.6 "Enrollment restriction policy": the platform rows of a device type restriction. */
export enum EnrollmentPlatform {
  WINDOWS = 'Windows MDM',
  MACOS = 'macOS',
  IOS = 'iOS/iPadOS',
  ANDROID_ENTERPRISE = 'Android Enterprise',
  ANDROID_DEVICE_ADMIN = 'Android Device Admin',
}

/** The device OS family an enrollment platform enrolls (device counts and limits are per family). */
export const OS_OF_ENROLLMENT_PLATFORM: Record<EnrollmentPlatform, OsPlatform> = {
  [EnrollmentPlatform.WINDOWS]: OsPlatform.WINDOWS,
  [EnrollmentPlatform.MACOS]: OsPlatform.MACOS,
  [EnrollmentPlatform.IOS]: OsPlatform.IOS,
  [EnrollmentPlatform.ANDROID_ENTERPRISE]: OsPlatform.ANDROID,
  [EnrollmentPlatform.ANDROID_DEVICE_ADMIN]: OsPlatform.ANDROID,
};

/** SPEC 4.4: manufacturer blocking applies to Android only. */
export const MANUFACTURER_BLOCK_PLATFORMS: ReadonlySet<EnrollmentPlatform> = new Set([
  EnrollmentPlatform.ANDROID_ENTERPRISE,
  EnrollmentPlatform.ANDROID_DEVICE_ADMIN,
]);

export enum RestrictionType {
  DEVICE_TYPE = 'Device Type Restrictions',
  DEVICE_LIMIT = 'Device Limit Restrictions',
}

/** SPEC 2.6 "Blocked enrollment attempt": why an enrollment was refused. */
export enum BlockReason {
  PLATFORM_BLOCKED = 'Platform Blocked',
  OS_VERSION = 'OS Version',
  DEVICE_LIMIT = 'Device Limit',
  PERSONAL_DEVICE = 'Personal Device',
}

/** SPEC 8.3: the built-in default policy's limits. */
export const DEFAULT_DEVICE_LIMIT = 15;
export const DEFAULT_PLATFORM_LIMIT = 5;
/** A device limit (per user, per platform or per group override) is a whole number in this range. */
export const MIN_DEVICE_LIMIT = 1;
export const MAX_DEVICE_LIMIT = 15;
/**
 * Restriction policies one tenant may hold, the default included (issue #32 item 3): every reorder answers
 * all of them, and the cost analysis counts on this many (src/http/list-bounds.ts). The next create is 409.
 */
export const MAX_ENROLLMENT_RESTRICTIONS = 50;
export const DEFAULT_POLICY_NAME = 'All users and all devices';
