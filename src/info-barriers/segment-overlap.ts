import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudUserRecord } from '../cloud/provider.js';
import { ConflictError } from '../core/errors.js';
import { User } from '../users/user.entity.js';
import {
  OVERLAP_LIST_LIMIT,
  segmentMembers,
  type SegmentDefinition,
  type SegmentDirectory,
} from './segment-membership.js';

/** A segment as the overlap rule sees it: its definition and how a 409 names it. */
export interface NamedSegment extends SegmentDefinition {
  id: string;
  name: string;
}

/** One membership of a user who is in more than one segment (SPEC 2.6: a user belongs to one segment only). */
export interface SegmentOverlap {
  user: CloudUserRecord;
  segment: NamedSegment;
}

/**
 * A user in more than one segment. A ConflictError (409, the DECISIONS envelope) whose details are
 * `{overlapCount, overlappingUsers: [{userId, userPrincipalName, displayName, segmentId, segmentName}]}`;
 * its own class so the apply job can tell it from a cloud hiccup (it is not retried: it will not pass by waiting).
 */
export class SegmentOverlapError extends ConflictError {}

/**
 * The overlapping memberships, against the directory as it is now:
 * - with a `candidate` (a segment about to be created): each existing segment a candidate member is already in;
 * - without one (the set about to be applied): every membership of each user who is in two segments or more,
 *   a user's memberships next to each other, segments in the given order.
 */
export function segmentOverlaps(
  directory: SegmentDirectory,
  segments: readonly NamedSegment[],
  candidate?: SegmentDefinition,
): SegmentOverlap[] {
  const membersOf = segments.map((segment) => segmentMembers(directory, segment));
  if (candidate) {
    const candidateIds = new Set(segmentMembers(directory, candidate).map((user) => user.externalId));
    return segments.flatMap((segment, i) =>
      membersOf[i].filter((user) => candidateIds.has(user.externalId)).map((user) => ({ user, segment })),
    );
  }
  const byUser = new Map<string, SegmentOverlap[]>();
  segments.forEach((segment, i) => {
    for (const user of membersOf[i]) {
      byUser.set(user.externalId, [...(byUser.get(user.externalId) ?? []), { user, segment }]);
    }
  });
  return [...byUser.values()].filter((memberships) => memberships.length > 1).flat();
}

/**
 * The one overlap check (segment creation, apply, and the apply job before it pushes): throws
 * SegmentOverlapError naming the first OVERLAP_LIST_LIMIT memberships (the count is always complete), with
 * our user ids where we hold the user. `message` says what was refused, given how many users overlap.
 */
export async function assertNoSegmentOverlap(
  em: EntityManager,
  tenantId: string,
  overlaps: readonly SegmentOverlap[],
  message: (userCount: number, overlaps: readonly SegmentOverlap[]) => string,
): Promise<void> {
  if (overlaps.length === 0) return;
  const named = overlaps.slice(0, OVERLAP_LIST_LIMIT);
  const ours = await em.find(
    User,
    { tenantId, externalId: { $in: [...new Set(named.map(({ user }) => user.externalId))] } },
    { fields: ['id', 'externalId'] },
  );
  const userIdOf = new Map(ours.map((user) => [user.externalId, user.id]));
  const userCount = new Set(overlaps.map(({ user }) => user.externalId)).size;
  throw new SegmentOverlapError(message(userCount, overlaps), {
    overlapCount: overlaps.length,
    overlappingUsers: named.map(({ user, segment }) => ({
      userId: userIdOf.get(user.externalId) ?? null,
      userPrincipalName: user.userPrincipalName,
      displayName: user.displayName,
      segmentId: segment.id,
      segmentName: segment.name,
    })),
  });
}

/** A few of the overlapping users and their segments, for a failure reason that has no details field. */
export function describeOverlaps(overlaps: readonly SegmentOverlap[], limit = 5): string {
  const segmentsOf = new Map<string, string[]>();
  for (const { user, segment } of overlaps) {
    const key = user.userPrincipalName;
    segmentsOf.set(key, [...(segmentsOf.get(key) ?? []), `"${segment.name}"`]);
  }
  const users = [...segmentsOf.entries()];
  const shown = users.slice(0, limit).map(([upn, names]) => `${upn} in ${names.join(' and ')}`);
  const more = users.length > limit ? `, and ${users.length - limit} more` : '';
  return `${shown.join('; ')}${more}`;
}
