import type { CloudPages } from './pages.js';

/**
 * The device-management part of the upstream cloud (a tenant's client has it as `deviceManagement`, tenant-cloud.ts):
 * the enrollment attempts the cloud saw. Our restriction policies decide them at sync
 * (src/device-management/enrollment-sync.ts); device compliance comes with the devices (security.provider.ts).
 */

export type CloudEnrollmentPlatform =
  'Windows MDM' | 'macOS' | 'iOS/iPadOS' | 'Android Enterprise' | 'Android Device Admin';

/** A device trying to join the tenant, with what the restrictions look at. */
export interface CloudEnrollmentAttemptRecord {
  externalId: string;
  userExternalId: string;
  userPrincipalName: string;
  deviceName: string;
  platform: CloudEnrollmentPlatform;
  osVersion: string;
  ownership: 'Corporate' | 'Personal';
  manufacturer: string;
  attemptedAt: string;
}

export interface CloudDeviceManagementProvider {
  /** Attempts made after `since` (all of them when null), oldest first. */
  listEnrollmentAttempts(since: Date | null): CloudPages<CloudEnrollmentAttemptRecord>;
}
