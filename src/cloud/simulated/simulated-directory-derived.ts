import type {
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudSignInRecord,
  CloudSkuRecord,
  CloudUserRecord,
} from '../provider.js';
import {
  DEPARTMENTS,
  FAMILIAR_PLACES,
  GENERIC_DEPARTMENTS,
  SKU_CATALOG,
  SUITE_SKUS,
  UNFAMILIAR_LOCATIONS,
  type SkuPartNumber,
} from './simulated-cloud.catalog.js';
import { DAY_MS, HOUR_MS, publicIpv4, type DirectoryBuilder } from './simulated-directory-builder.js';

/** What follows from a tenant's people (simulated-directory-builder.ts): licenses, groups and sign-ins. */

/**
 * Office workers hold the suite, frontline staff a mailbox-only plan, some people add-ons.
 * Only members with a usage location who are not service accounts hold licenses; a few disabled
 * accounts still do (a cost finding). Seats: the suite is nearly full (one free seat), the rest have room.
 */
export function planLicenses(b: DirectoryBuilder): {
  skus: CloudSkuRecord[];
  assignments: CloudLicenseAssignmentRecord[];
} {
  const f = b.f;
  const employees = b.spec.employees ?? 40;
  const suite: SkuPartNumber =
    b.spec.suite ??
    (employees > 100 ? 'ENTERPRISEPACK' : f.helpers.arrayElement(['SPB', 'SPB', 'O365_BUSINESS_PREMIUM']));
  const holders = new Map<SkuPartNumber, string[]>();
  const hold = (part: SkuPartNumber, userExternalId: string) =>
    holders.set(part, [...(holders.get(part) ?? []), userExternalId]);
  for (const user of b.users) {
    const facts = b.factsOf(user);
    if (user.userType !== 'Member' || user.isServiceAccount || !user.usageLocation) continue;
    if (user.deletedAt || facts.breakGlass || !facts.department) continue;
    if (!user.accountEnabled && f.datatype.boolean(0.5)) continue;
    const profile = DEPARTMENTS[facts.department];
    if (profile.frontline) hold('EXCHANGESTANDARD', user.externalId);
    else if (f.datatype.boolean(0.96)) hold(suite, user.externalId);
    for (const addOn of profile.addOns ?? []) if (f.datatype.boolean(0.35)) hold(addOn, user.externalId);
  }
  const parts = (Object.keys(SKU_CATALOG) as SkuPartNumber[]).filter((part) => holders.has(part));
  const unused = (Object.keys(SKU_CATALOG) as SkuPartNumber[]).filter(
    (part) => !holders.has(part) && !SUITE_SKUS.includes(part),
  );
  const skus = parts.map((part) => {
    const consumed = holders.get(part)!.length;
    const free = part === suite ? 1 : f.number.int({ min: 2, max: 12 });
    return { ...SKU_CATALOG[part], prepaidUnits: consumed + free };
  });
  // A subscription bought and never used: a cost finding.
  if (unused.length > 0 && f.datatype.boolean(0.5)) {
    skus.push({
      ...SKU_CATALOG[f.helpers.arrayElement(unused)],
      prepaidUnits: f.number.int({ min: 1, max: 5 }),
    });
  }
  const assignments = parts.flatMap((part) =>
    holders.get(part)!.map((userExternalId) => ({ userExternalId, skuId: SKU_CATALOG[part].skuId })),
  );
  return { skus, assignments };
}

export function buildGroups(b: DirectoryBuilder): CloudGroupRecord[] {
  const f = b.f;
  const staff = b.users.filter(
    (u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled,
  );
  const ids = (users: CloudUserRecord[]) => users.map((u) => u.externalId);
  const groups: Array<{ displayName: string; members: string[] }> = [
    { displayName: 'All Staff', members: ids(staff) },
    {
      displayName: 'Leadership',
      members: ids(staff.filter((u) => b.factsOf(u).leader)),
    },
  ];
  for (const department of b.spec.departments ?? GENERIC_DEPARTMENTS) {
    const members = staff.filter((u) => b.factsOf(u).department === department);
    if (members.length >= 2) groups.push({ displayName: `${department} Team`, members: ids(members) });
  }
  groups.push({
    displayName: 'IT Admins',
    members: ids(staff.filter((u) => b.factsOf(u).department === 'IT' || b.factsOf(u).breakGlass)),
  });
  groups.push({
    displayName: 'VPN Users',
    members: ids(f.helpers.arrayElements(staff, Math.ceil(staff.length * 0.3))),
  });
  const guests = b.users.filter((u) => u.userType === 'Guest');
  if (guests.length > 0) groups.push({ displayName: 'External Collaborators', members: ids(guests) });
  return groups.map((group) => ({
    externalId: f.string.uuid(),
    displayName: group.displayName,
    memberExternalIds: group.members,
  }));
}

/** One sign-in per user at their last sign-in, plus a few risky ones from unfamiliar places. */
export function buildSignIns(b: DirectoryBuilder): CloudSignInRecord[] {
  const f = b.f;
  const signIns: CloudSignInRecord[] = [];
  for (const user of b.users) {
    if (!user.lastSignInAt) continue;
    const office = b.factsOf(user).office;
    signIns.push({
      id: f.string.uuid(),
      userPrincipalName: user.userPrincipalName,
      riskLevel: 'none',
      location: office ? `${office.city}, ${b.country}` : f.helpers.arrayElement(FAMILIAR_PLACES),
      ipAddress: office && f.datatype.boolean(0.8) ? office.ipAddress : publicIpv4(f),
      createdAt: user.lastSignInAt,
    });
  }
  const targets = b.users.filter(
    (u) => u.userType === 'Member' && !u.isServiceAccount && !u.deletedAt && u.accountEnabled,
  );
  const riskyCount = f.number.int({ min: 2, max: 4 });
  for (let i = 0; i < riskyCount && targets.length > 0; i++) {
    const user = f.helpers.arrayElement(targets);
    const at = new Date(b.ago(HOUR_MS, 3 * DAY_MS)).toISOString();
    signIns.push({
      id: f.string.uuid(),
      userPrincipalName: user.userPrincipalName,
      riskLevel: i === 0 ? 'high' : f.helpers.arrayElement(['high', 'medium', 'low'] as const),
      location: f.helpers.arrayElement(UNFAMILIAR_LOCATIONS),
      ipAddress: publicIpv4(f),
      createdAt: at,
    });
    if (!user.lastSignInAt || user.lastSignInAt < at) user.lastSignInAt = at;
  }
  return signIns;
}
