import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { isPrivilegedRoles } from './privileged-account.js';
import {
  AccountStatus,
  GuestSource,
  InvitationStatus,
  MfaStatus,
  UserSource,
  UserType,
} from './user.enums.js';
import './user.graphql-enums.js';

/** Profile attributes a client may set; synced users cannot change these (SPEC 2.3). */
export const EDITABLE_PROFILE_FIELDS = [
  'displayName',
  'firstName',
  'lastName',
  'jobTitle',
  'department',
  'companyName',
  'officeLocation',
  'businessPhone',
  'mobilePhone',
  'employeeId',
  'employeeType',
] as const;
export type EditableProfileField = (typeof EDITABLE_PROFILE_FIELDS)[number];

/** A directory user of a tenant. Deleting is a soft delete (deletedAt), purged after 30 days. */
@ObjectType({ description: 'A directory user of a customer tenant' })
@Entity({ tableName: 'users' })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'createdAt', 'id'] })
// UPNs are unique among users that are not deleted: a soft-deleted user's UPN may be taken again (SPEC 3.4).
// On the folded column, not lower(...): see userPrincipalNameFolded.
@Index({
  name: 'users_active_upn_unique',
  expression:
    'create unique index "users_active_upn_unique" on "users" ("organization_id", "environment", "user_principal_name_folded") where "deleted_at" is null',
})
// The recycle bin of a tenant, newest deletion first (GET /api/identity/users/deleted).
@Index({
  name: 'users_deleted_index',
  expression:
    'create index "users_deleted_index" on "users" ("organization_id", "environment", "tenant_id", "deleted_at" desc, "id" desc) where "deleted_at" is not null',
})
// Guests of a tenant (GET /api/identity/users?type=guest), newest first.
@Index({
  name: 'users_guests_index',
  expression:
    'create index "users_guests_index" on "users" ("organization_id", "environment", "tenant_id", "created_at" desc, "id" desc) where "user_type" = \'Guest\' and "deleted_at" is null',
})
// An invitation to an address already in the tenant is refused (409): looked up by the folded email.
@Index({
  name: 'users_active_email_index',
  expression:
    'create index "users_active_email_index" on "users" ("organization_id", "environment", "tenant_id", "email_folded") where "deleted_at" is null',
})
// The managed-user list's department filter (src/user-management/user-search.ts), by the folded department.
@Index({
  name: 'users_department_index',
  expression:
    'create index "users_department_index" on "users" ("organization_id", "environment", "tenant_id", "department_folded") where "deleted_at" is null',
})
// User-management search (src/user-management/user-search.ts): trigram indexes serve LIKE on lower(...)
// for contains and prefix patterns; the display-name index serves the default A-to-Z order.
@Index({
  name: 'users_search_display_name_trgm',
  expression:
    'create index "users_search_display_name_trgm" on "users" using gin (lower("display_name") gin_trgm_ops) where "deleted_at" is null',
})
@Index({
  name: 'users_search_upn_trgm',
  expression:
    'create index "users_search_upn_trgm" on "users" using gin (lower("user_principal_name") gin_trgm_ops) where "deleted_at" is null',
})
@Index({
  name: 'users_search_email_trgm',
  expression:
    'create index "users_search_email_trgm" on "users" using gin (lower("email") gin_trgm_ops) where "deleted_at" is null',
})
// The portal recount's users by last activity (src/portal/portal-aggregates.ts): those of the day the 30-day
// line falls in, and each tenant's next to cross it.
@Index({
  name: 'users_activity_index',
  expression:
    'create index "users_activity_index" on "users" ("tenant_id", (coalesce("last_sign_in_at", "created_at"))) include ("id", "account_status", "last_sign_in_at", "created_at") where "deleted_at" is null',
})
// Cross-tenant user search (src/user-directory): trigram index on the stored case- and accent-folded key.
@Index({
  name: 'users_directory_search_trgm',
  expression:
    'create index "users_directory_search_trgm" on "users" using gin ("directory_search_key" gin_trgm_ops) where "deleted_at" is null',
})
@Index({
  name: 'users_display_name_order',
  expression:
    'create index "users_display_name_order" on "users" ("organization_id", "environment", "tenant_id", lower("display_name"), "id") where "deleted_at" is null',
})
// Stale guests of a tenant, longest inactive first (GuestService.stale), on the stored guestInactiveSince.
@Index({
  name: 'users_stale_guests_index',
  expression:
    'create index "users_stale_guests_index" on "users" ("organization_id", "environment", "tenant_id", "guest_inactive_since", "id") where "guest_inactive_since" is not null',
})
export class User extends ScopedEntity {
  [OptionalProps]?:
    | 'createdAt'
    | 'updatedAt'
    | 'accountStatus'
    | 'mfaStatus'
    | 'userType'
    | 'source'
    | 'isServiceAccount'
    | 'directoryRoles'
    | 'privileged'
    | 'lastSignInAt'
    | 'deletedAt'
    | 'deletedBy'
    | 'hadLicenses'
    | 'accountStatusAtDeletion'
    | 'sessionsRevokedAt'
    | 'managerId'
    | 'usageLocation'
    | 'email'
    | 'guestSource'
    | 'invitationStatus'
    | 'invitedBy'
    | 'invitedAt'
    | 'invitationSentAt'
    | 'invitationAcceptedAt'
    | EditableProfileField;

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The user's object id in the upstream cloud; preserved by soft delete and restore. */
  @Property()
  externalId!: string;

  @Field()
  @Property()
  displayName!: string;

  @Field()
  @Property()
  firstName!: string;

  @Field()
  @Property()
  lastName!: string;

  @Field({ description: 'Sign-in address, username@domain' })
  @Property()
  userPrincipalName!: string;

  /**
   * lower(userPrincipalName), kept by PostgreSQL. The UPN checks compare it with a plain `=`, which stays an index
   * condition under the row-level security policies (`lower(...) = ?` does not: it is not leakproof).
   */
  @Property({ type: 'text', generated: '(lower(user_principal_name)) stored', nullable: true })
  readonly userPrincipalNameFolded?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  jobTitle: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  department: string | null = null;

  /** lower(department), kept by PostgreSQL: the list's department filter, an index condition under the policies. */
  @Property({ type: 'text', generated: '(lower(department)) stored', nullable: true })
  readonly departmentFolded?: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  companyName: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  officeLocation: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  businessPhone: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  mobilePhone: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  employeeId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  employeeType: string | null = null;

  @Field(() => ID, { nullable: true })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'users_manager_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'manager_id', nullable: true, deleteRule: 'set null' })
  managerId: string | null = null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 3166-1 alpha-2; required before a license is assigned',
  })
  @Property({ type: 'varchar(2)', nullable: true })
  usageLocation: string | null = null;

  @Field(() => AccountStatus)
  @Enum({ items: () => AccountStatus })
  accountStatus: AccountStatus = AccountStatus.ENABLED;

  @Field(() => MfaStatus)
  @Enum({ items: () => MfaStatus })
  mfaStatus: MfaStatus = MfaStatus.DISABLED;

  @Field(() => UserType)
  @Enum({ items: () => UserType })
  userType: UserType = UserType.MEMBER;

  @Field(() => UserSource)
  @Enum({ items: () => UserSource })
  source: UserSource = UserSource.CLOUD;

  @Field({
    description: 'A non-human member: interactive sign-in should be blocked and it should hold no licenses',
  })
  @Property({ type: 'boolean' })
  isServiceAccount: boolean = false;

  /** The customer directory's roles the user holds, as the cloud says (tenant sync); sorted. */
  @Field(() => [String], {
    description:
      "Roles of the customer's directory the user holds, from the cloud (e.g. Global Administrator); synced",
  })
  @Property({ type: 'text[]', defaultRaw: "'{}'" })
  directoryRoles: string[] = [];

  @Field({
    description:
      'Holds an administrator role of the directory: password reset, offboarding and delete need the Admin ' +
      'level, a reset always forces a change at next sign-in, MFA cannot be turned off (docs/security-model.md)',
  })
  get privileged(): boolean {
    return isPrivilegedRoles(this.directoryRoles);
  }

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null = null;

  /** Set when sessions and refresh tokens were revoked (delete, offboard, password reset). */
  @Property({ type: 'timestamptz', nullable: true })
  sessionsRevokedAt: Date | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true, index: true })
  deletedAt: Date | null = null;

  @Field(() => Actor, { nullable: true, description: 'Who deleted it (stored as a principal string)' })
  @Property({ type: 'text', nullable: true })
  deletedBy: string | null = null;

  /** Whether the user held licenses when it was deleted (SPEC 2.6 "had licenses"); licenses are not restored. */
  @Property({ type: 'boolean' })
  hadLicenses: boolean = false;

  /** The mail address of a guest (lower-case); null for members (they sign in with their UPN). */
  @Property({ type: 'text', nullable: true })
  email: string | null = null;

  /**
   * The cross-tenant search's key and order (src/user-directory; docs/user-directory.md "Index"): name, UPN and
   * mail folded for case and accents, and the folded display name, kept by PostgreSQL so a search's recheck and
   * sort read columns instead of calling unaccent on every match.
   */
  @Property({
    type: 'text',
    generated: '(user_search_key(display_name, user_principal_name, email)) stored',
    nullable: true,
  })
  readonly directorySearchKey?: string;

  @Property({ type: 'text', generated: '(user_search_fold(display_name)) stored', nullable: true })
  readonly directorySortName?: string;

  /** lower(email), kept by PostgreSQL (synced guests' addresses may not be): the invitation's address check. */
  @Property({ type: 'text', generated: '(lower(email)) stored', nullable: true })
  readonly emailFolded?: string;

  /** Guests only (SPEC 2.6 "Guest user" source); members: null. */
  @Enum({ items: () => GuestSource, nullable: true })
  guestSource: GuestSource | null = null;

  /** Guests only: Pending until redeemed, Accepted, or N/A (no invitation); members: null. */
  @Enum({ items: () => InvitationStatus, nullable: true })
  invitationStatus: InvitationStatus | null = null;

  /** Who invited the guest: a principal string (api_key:<id>, member:<id>:<client id>) or the upstream inviter. */
  @Property({ type: 'text', nullable: true })
  invitedBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  invitedAt: Date | null = null;

  /** When the invitation mail last went out; null when the guest was created silently (not mailed). */
  @Property({ type: 'timestamptz', nullable: true })
  invitationSentAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  invitationAcceptedAt: Date | null = null;

  /**
   * When a guest that is not removed went inactive (SPEC 4.2 stale guest criteria): the last sign-in, else the
   * pending invitation's last sending or the acceptance, else the invitation or creation; null for members and
   * removed guests. Kept by PostgreSQL so the stale list compares and orders a plain column, which stays an index
   * condition under the row-level security policies (the expression does not: COALESCE and GREATEST are not
   * leakproof). Migration 20261225090100 says why it is null for the other rows.
   */
  @Property({
    type: 'timestamptz',
    generated:
      "(case when user_type = 'Guest' and deleted_at is null then coalesce(last_sign_in_at, case when invitation_status = 'Pending' then greatest(invited_at, invitation_sent_at) else invitation_accepted_at end, invited_at, created_at) else null end) stored",
    nullable: true,
  })
  readonly guestInactiveSince?: Date;

  /** The account status before the delete disabled sign-in: what a restore gives back (null: keep as is). */
  @Enum({ items: () => AccountStatus, nullable: true })
  accountStatusAtDeletion: AccountStatus | null = null;
}
