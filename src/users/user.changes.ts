import type { FieldProblem } from '../core/errors.js';
import { EDITABLE_PROFILE_FIELDS, type EditableProfileField, type User } from './user.entity.js';

/** Every field PATCH accepts (SPEC 2.3 attributes a client may change). */
export const UPDATABLE_FIELDS = [
  ...EDITABLE_PROFILE_FIELDS,
  'userPrincipalName',
  'usageLocation',
  'accountStatus',
  'mfaStatus',
  'managerId',
] as const;
export type UpdatableField = (typeof UPDATABLE_FIELDS)[number];

export type UserChanges = { -readonly [F in UpdatableField]?: User[F] };

/** Optional details: null (or a blank string) clears them. */
export const PROFILE_DETAIL_FIELDS = [
  'jobTitle',
  'department',
  'companyName',
  'officeLocation',
  'businessPhone',
  'mobilePhone',
  'employeeId',
  'employeeType',
] as const satisfies readonly EditableProfileField[];
type ProfileDetailField = (typeof PROFILE_DETAIL_FIELDS)[number];

const NOT_CLEARABLE: ReadonlySet<UpdatableField> = new Set<UpdatableField>([
  'displayName',
  'firstName',
  'lastName',
  'userPrincipalName',
  'accountStatus',
  'mfaStatus',
]);

/**
 * What an on-premises directory owns for a synced user (SPEC 2.3: synced attributes are read-only):
 * the profile, the sign-in name, the manager and whether the account is enabled. usageLocation and
 * mfaStatus stay editable: they exist only in the cloud, and licensing and MFA are managed there.
 */
const SYNCED_READ_ONLY: ReadonlySet<UpdatableField> = new Set<UpdatableField>([
  ...EDITABLE_PROFILE_FIELDS,
  'userPrincipalName',
  'accountStatus',
  'managerId',
]);

type ChangeInput = { [F in UpdatableField]?: User[F] | null };

export function presentFields(input: ChangeInput): UpdatableField[] {
  return UPDATABLE_FIELDS.filter((field) => input[field] !== undefined);
}

export function syncedReadOnlyFields(input: ChangeInput): UpdatableField[] {
  return presentFields(input).filter((field) => SYNCED_READ_ONLY.has(field));
}

/**
 * The fields given, strings trimmed and blank ones turned into null, plus a problem for each null
 * given to a field that cannot be cleared (the caller decides whether that matters: on create, a
 * null display name or status just means "use the default").
 */
export function normalizedChanges(input: ChangeInput): { changes: UserChanges; cleared: FieldProblem[] } {
  const changes: Record<string, unknown> = {};
  const cleared: FieldProblem[] = [];
  for (const field of presentFields(input)) {
    const given = input[field];
    const value = typeof given === 'string' ? given.trim() || null : given;
    if (value === null && NOT_CLEARABLE.has(field)) {
      cleared.push({ field, problem: 'cannot be cleared' });
      continue;
    }
    changes[field] = value;
  }
  return { changes: changes as UserChanges, cleared };
}

/** Only the requested values that differ from the user's current ones. */
export function changedFields(user: User, requested: UserChanges): UserChanges {
  return Object.fromEntries(
    Object.entries(requested).filter(([field, value]) => user[field as UpdatableField] !== value),
  ) as UserChanges;
}

/** Every optional detail, null where not given: the shape the cloud wants on create. */
export function profileDetailsOf(changes: UserChanges): Record<ProfileDetailField, string | null> {
  return Object.fromEntries(PROFILE_DETAIL_FIELDS.map((field) => [field, changes[field] ?? null])) as Record<
    ProfileDetailField,
    string | null
  >;
}
