import type { CloudPages } from './pages.js';

/**
 * The device-management part of the upstream cloud (a tenant's client has it as `deviceManagement`, tenant-cloud.ts):
 * the enrollment attempts the cloud saw, which our restriction policies decide at sync
 * (src/device-management/enrollment-sync.ts), and, on a cloud that enforces restrictions itself (Intune), its
 * enrollment configurations, which our policies are written to. Device compliance comes with the devices
 * (security.provider.ts).
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

/** What a platform restriction says of one platform (Intune's deviceEnrollmentPlatformRestriction). */
export interface CloudEnrollmentPlatformRule {
  platformBlocked: boolean;
  personalDeviceEnrollmentBlocked: boolean;
  osMinimumVersion: string | null;
  osMaximumVersion: string | null;
}

/** The platforms a cloud's platform restriction has a rule for (Graph v1.0: no Android Enterprise). */
export type CloudRestrictionPlatform = 'windows' | 'macOS' | 'ios' | 'android';

/** The settings of an enrollment configuration, as written (no id, priority or assignment). */
export type CloudEnrollmentSettings =
  | {
      kind: 'platformRestrictions';
      displayName: string;
      description: string | null;
      rules: Record<CloudRestrictionPlatform, CloudEnrollmentPlatformRule>;
    }
  | { kind: 'limit'; displayName: string; description: string | null; limit: number };

/** An enrollment configuration as the cloud holds it. */
export type CloudEnrollmentConfiguration = CloudEnrollmentSettings & {
  id: string;
  /**
   * Its place among the configurations of its own kind (Intune orders platform restrictions and device
   * limits each on their own): 1 first; 0 is the tenant's built-in default of its kind (always last, never
   * reordered).
   */
  priority: number;
};

/** Who a configuration applies to: every user, or the members of these groups (the cloud's group ids). */
export interface CloudEnrollmentTargets {
  allUsers: boolean;
  groupExternalIds: readonly string[];
}

/** A cloud's enrollment configurations (Intune's deviceEnrollmentConfigurations). */
export interface CloudEnrollmentConfigurations {
  list(): CloudPages<CloudEnrollmentConfiguration>;
  /**
   * Creates one. `requestKey` (docs/reliability.md "Request keys on cloud writes"): a keyed create first
   * looks for a configuration of the same kind and display name, and answers it instead of creating a
   * second one (Graph keeps no idempotency key).
   */
  create(
    settings: CloudEnrollmentSettings,
    requestKey?: string,
  ): Promise<
    CloudEnrollmentConfiguration & {
      /** Found (made by an earlier try), not created now. */ adopted: boolean;
    }
  >;
  update(id: string, settings: CloudEnrollmentSettings): Promise<void>;
  /**
   * Moves the configuration to `priority` among those of its kind (1..their number); the others of the kind
   * shift to make room, as in the Intune portal's "Change priority".
   */
  setPriority(id: string, priority: number): Promise<void>;
  /** Deletes one (a create our side then refused). */
  remove(id: string): Promise<void>;
  /** Replaces the configuration's assignments. */
  assign(id: string, targets: CloudEnrollmentTargets): Promise<void>;
}

export interface CloudDeviceManagementProvider {
  /** Attempts made after `since` (all of them when null), oldest first. */
  listEnrollmentAttempts(since: Date | null): CloudPages<CloudEnrollmentAttemptRecord>;
  /**
   * The cloud's own enrollment restrictions, which our policies are written to (Intune); null on a cloud
   * that enforces none (the simulated cloud), where our policies alone decide attempts at sync.
   */
  readonly enrollmentConfigurations: CloudEnrollmentConfigurations | null;
}
