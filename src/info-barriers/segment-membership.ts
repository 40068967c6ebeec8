import type { CloudGroupRecord, CloudUserRecord } from '../cloud/provider.js';
import type { TenantCloud } from '../cloud/tenant-cloud.js';
import { SegmentAttribute } from './info-barrier.enums.js';
import { allPages } from '../cloud/pages.js';

/** The tenant's directory as segments read it: the cloud's active users and its groups. */
export interface SegmentDirectory {
  users: CloudUserRecord[];
  groups: CloudGroupRecord[];
}

export interface SegmentDefinition {
  attribute: SegmentAttribute;
  value: string;
}

/**
 * Segments are evaluated against the upstream cloud's directory, as the cloud itself enforces them: it is
 * the only place that holds every attribute (extension attributes and group membership included) as it is
 * now. Read once per segment creation or apply, never on a list.
 */
export async function readSegmentDirectory(cloud: TenantCloud): Promise<SegmentDirectory> {
  const [users, groups] = await Promise.all([
    allPages(cloud.directory.listUsers()),
    allPages(cloud.directory.listGroups()),
  ]);
  return { users: users.filter((user) => !user.deletedAt), groups };
}

const same = (a: string | null | undefined, b: string) =>
  typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The users of the segment: attribute equal to the value (trimmed, case-insensitive); memberOf by group name or id. */
export function segmentMembers(directory: SegmentDirectory, segment: SegmentDefinition): CloudUserRecord[] {
  if (segment.attribute === SegmentAttribute.MEMBER_OF) {
    const members = new Set(
      directory.groups
        .filter((group) => same(group.displayName, segment.value) || same(group.externalId, segment.value))
        .flatMap((group) => group.memberExternalIds),
    );
    return directory.users.filter((user) => members.has(user.externalId));
  }
  return directory.users.filter((user) => same(attributeOf(user, segment.attribute), segment.value));
}

function attributeOf(user: CloudUserRecord, attribute: SegmentAttribute): string | null | undefined {
  switch (attribute) {
    case SegmentAttribute.DEPARTMENT:
      return user.department;
    case SegmentAttribute.JOB_TITLE:
      return user.jobTitle;
    case SegmentAttribute.OFFICE:
      return user.officeLocation;
    case SegmentAttribute.COMPANY:
      return user.companyName;
    case SegmentAttribute.MEMBER_OF:
      return null;
    default:
      return user.extensionAttributes?.[attribute];
  }
}

/** How many overlapping users a 409 names (the count is always complete). */
export const OVERLAP_LIST_LIMIT = 50;
