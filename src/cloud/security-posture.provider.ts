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

export interface SecurityPostureProvider {
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
