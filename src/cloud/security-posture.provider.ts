import type { CloudPages } from './pages.js';

/**
 * The security-posture part of the upstream cloud (a tenant's client has it as `securityPosture`, tenant-cloud.ts): the state of each
 * security control of a tenant (what recommendations are made of), applying a control ("Fix Now"),
 * and pushing a tenant's information-barrier policy set.
 */

/** One security control of a tenant as the cloud reports it. */
export interface CloudSecurityControlRecord {
  /** The control's id, shared by every tenant (the recommendation catalog's id). */
  controlId: string;
  /** The tenant already meets the control. */
  compliant: boolean;
  /** The cloud can switch the control on by itself (else the admin follows the implementation guide). */
  applySupported: boolean;
}

/** What applying a control did (or, for a preview, would do) in one tenant. */
export type CloudControlApplyOutcome = 'applied' | 'already compliant' | 'not supported';

export interface CloudBarrierSegment {
  id: string;
  name: string;
  attribute: string;
  value: string;
  memberExternalIds: string[];
}

export interface CloudBarrierPolicy {
  id: string;
  type: 'Block' | 'Allow';
  sourceSegmentId: string;
  targetSegmentIds: string[];
}

/** A tenant's whole information-barrier configuration, replacing the previous one when pushed. */
export interface CloudBarrierPolicySet {
  segments: CloudBarrierSegment[];
  policies: CloudBarrierPolicy[];
}

/** The secure score's categories (the wire keys of our byCategory, src/secure-score/secure-score.ts). */
export type CloudScoreCategory =
  | 'identityAndAccess'
  | 'dataProtection'
  | 'emailSecurity'
  | 'deviceSecurity'
  | 'threatProtection'
  | 'auditAndCompliance';

/** One day of a cloud's own secure score, on that cloud's points scale (Microsoft's are decimals). */
export interface CloudSecureScoreDay {
  /** YYYY-MM-DD (UTC): the day the cloud computed it. */
  day: string;
  score: number;
  maxScore: number;
}

/** A cloud's own secure score of a tenant (Microsoft Secure Score), newest day first. */
export interface CloudSecureScores {
  /** At most the days asked for, newest first; empty before the cloud computed a first score. */
  days: CloudSecureScoreDay[];
  /** The newest day's points by our categories, as far as the cloud's categories map to them. */
  byCategory: Record<CloudScoreCategory, { score: number; maxScore: number }>;
  /** The newest day's averages of comparable tenants, on the same scale (basis: AllTenants, TotalSeats…). */
  averages: Array<{ basis: string; averageScore: number }>;
}

export interface SecurityPostureProvider {
  /**
   * The cloud's own secure score and its daily history, `days` of them at most (1 to 90). Absent on a cloud
   * that keeps no score of its own (the simulated cloud): the score is then computed from the
   * recommendations (src/secure-score/), never presented as the cloud's.
   */
  readonly readSecureScores?: (days: number) => Promise<CloudSecureScores>;
  /** Every security control of the tenant with its current state. */
  listSecurityControls(): CloudPages<CloudSecurityControlRecord>;
  /** What applying the control would do, changing nothing. */
  previewSecurityControl(controlId: string): Promise<CloudControlApplyOutcome>;
  /**
   * Switches the control on. Idempotent: a control already met answers 'already compliant'.
   * Rejects with a Refused CloudError when the cloud refuses (its message is kept per tenant).
   * `requestKey` (derived from the job item, e.g. `recommendation-apply:<operation>:<tenant>`): a repeated
   * key answers what the first call did ('applied' stays 'applied'), so a run resumed after a crash between
   * the call and its save records the truth (docs/reliability.md).
   */
  applySecurityControl(controlId: string, requestKey?: string): Promise<CloudControlApplyOutcome>;
  /**
   * Replaces the tenant's information-barrier segments and policies; the cloud then takes up to 24 hours
   * to enforce them across its services (SPEC 4.4, 8.3). Idempotent.
   */
  applyInformationBarriers(policySet: CloudBarrierPolicySet): Promise<void>;
}
