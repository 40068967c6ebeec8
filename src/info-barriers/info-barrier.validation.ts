import { InvalidRequestError } from '../core/errors.js';
import type { BarrierPolicy } from './info-barrier.entity.js';
import { BarrierPolicyType } from './info-barrier.enums.js';

/** A name or value: trimmed, 1 to `max` characters; 400 naming the field otherwise. */
export function requiredText(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > max)
    throw InvalidRequestError.field(field, `is required: 1 to ${max} characters`);
  return trimmed;
}

/** Segment pairs are unordered: a Block between A and B restricts both ways (SPEC 4.4). */
export const pairKey = (a: string, b: string) => [a, b].sort().join('|');

export function pairsOf(policy: Pick<BarrierPolicy, 'sourceSegmentId' | 'targetSegmentIds'>): string[] {
  return policy.targetSegmentIds.map((target) => pairKey(policy.sourceSegmentId, target));
}

export interface PolicyConflict {
  policyId: string;
  policyName: string;
  type: BarrierPolicyType;
  sourceSegmentId: string;
  targetSegmentId: string;
  problem: string;
}

/**
 * The contradictions of a policy set (apply refuses them with 409): an Allow is an exception to a Block
 * (SPEC 4.4), so an Allow for a pair of segments that no Block restricts contradicts the set. Each such
 * Allow is named with the pair. (Duplicate and self-targeting policies are refused when created.)
 */
export function policyConflicts(policies: readonly BarrierPolicy[]): PolicyConflict[] {
  const blockedBy = new Map<string, string[]>();
  for (const policy of policies.filter((p) => p.type === BarrierPolicyType.BLOCK)) {
    for (const pair of pairsOf(policy)) blockedBy.set(pair, [...(blockedBy.get(pair) ?? []), policy.id]);
  }
  const conflicts: PolicyConflict[] = [];
  for (const policy of policies.filter((p) => p.type === BarrierPolicyType.ALLOW)) {
    for (const target of policy.targetSegmentIds) {
      if (blockedBy.has(pairKey(policy.sourceSegmentId, target))) continue;
      conflicts.push({
        policyId: policy.id,
        policyName: policy.name,
        type: policy.type,
        sourceSegmentId: policy.sourceSegmentId,
        targetSegmentId: target,
        problem:
          'allows a pair of segments that no Block policy restricts (an Allow is an exception to a Block)',
      });
    }
  }
  return conflicts;
}
