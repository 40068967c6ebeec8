import {
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from '../core/perf/class-validator-rules.js';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { PageInfo, PageOf, type Page } from '../core/pagination.js';
import { RECOVERY_WINDOW_DAYS } from './deleted-user.types.js';
import { AccountStatus, GuestSource, InvitationStatus, UserType } from './user.enums.js';
import { USER_FIELD_MAX_LENGTH } from './user.types.js';
import './user.graphql-enums.js';

/** SPEC 2.6 "Guest user": a guest of a tenant as the guest routes show it. */
@ObjectType({ description: 'A guest user of a tenant (SPEC 2.6 "Guest user")' })
export class GuestUser {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field()
  displayName!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The address the guest was invited at (lower-case); null when the cloud knows none',
  })
  email!: string | null;

  @Field({ description: "The guest's sign-in name in the tenant: name_domain#EXT#@<initial domain>" })
  userPrincipalName!: string;

  @Field(() => UserType)
  userType!: UserType;

  @Field(() => GuestSource)
  source!: GuestSource;

  @Field(() => InvitationStatus)
  invitationStatus!: InvitationStatus;

  @Field(() => AccountStatus)
  accountStatus!: AccountStatus;

  @Field(() => GraphQLDateTime)
  createdAt!: Date;

  @Field(() => GraphQLDateTime, { nullable: true })
  lastSignInAt!: Date | null;

  @Field(() => Actor, {
    nullable: true,
    description:
      'Who invited the guest: an API key, a member, or the inviter the cloud names; null when not known',
  })
  invitedBy!: string | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  invitedAt!: Date | null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'When the invitation mail last went out; null when the guest was created without mail',
  })
  invitationSentAt!: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the guest redeemed the invitation' })
  invitationAcceptedAt!: Date | null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: `Set once the guest is removed (soft delete: restorable for ${RECOVERY_WINDOW_DAYS} days)`,
  })
  deletedAt!: Date | null;
}

export const GuestUserPage = PageOf(GuestUser, 'GuestUser');

/** Which users GET /api/identity/users lists (SPEC 4.2 `?type=guest`); members have their own lists. */
export enum IdentityUserListType {
  GUEST = 'guest',
}
registerEnumType(IdentityUserListType, {
  name: 'IdentityUserListType',
  description: 'Which users to list: guest (members: the users query)',
});

/** SPEC 8 "Stale guest threshold": 90 days without sign-in, read from the injectable clock. */
export const STALE_GUEST_DAYS = 90;

/** SPEC 4.2 "Stale guest criteria", each with 90 days of inactivity by the clock. */
export enum StaleGuestReason {
  NO_SIGN_IN_FOR_90_DAYS = 'No sign-in for 90 days',
  ACCEPTED_NEVER_SIGNED_IN = 'Accepted but never signed in',
  PENDING_INVITATION_NOT_REDEEMED = 'Pending invitation not redeemed',
}
registerEnumType(StaleGuestReason, {
  name: 'StaleGuestReason',
  description: 'Why a guest is stale (SPEC 4.2 stale guest criteria)',
});

@ObjectType({
  description: `A guest with no sign-in for ${STALE_GUEST_DAYS} days or more, and why (SPEC 4.2)`,
})
export class StaleGuest extends GuestUser {
  @Field(() => StaleGuestReason)
  reason!: StaleGuestReason;

  @Field(() => GraphQLDateTime, {
    description: `Where the ${STALE_GUEST_DAYS} days count from: the last sign-in, or for a guest that never signed in its invitation (or creation)`,
  })
  inactiveSince!: Date;

  @Field(() => Int, {
    description: `Whole days since inactiveSince (rounded down), at least ${STALE_GUEST_DAYS}`,
  })
  daysInactive!: number;
}

/**
 * Stale guests, and whether the tenant's cloud gave sign-in data at its last sync: without it (Microsoft 365
 * without Entra ID P1, or AuditLog.Read.All not granted) only pending invitations can be judged, and the
 * answer says so rather than guess from sign-in times nobody knows.
 */
@ObjectType('StaleGuestPage', {
  description: 'Stale guests, and whether sign-in data was available to judge them',
})
export class StaleGuestPage implements Page<StaleGuest> {
  @Field(() => [StaleGuest])
  items!: StaleGuest[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field({
    description:
      'False when the cloud gave no sign-in data at the last sync: then only pending invitations are listed (guests that accepted cannot be judged), and signInDataUnavailableReason says why',
  })
  signInDataAvailable!: boolean;

  @Field(() => String, {
    nullable: true,
    description: "Why sign-in data is unavailable (the cloud's reason); null when available",
  })
  signInDataUnavailableReason!: string | null;
}

export const GUEST_FIELD_MAX_LENGTH = {
  /** RFC 5321: a forward path is at most 254 characters. */
  email: 254,
  displayName: USER_FIELD_MAX_LENGTH.displayName,
  personalMessage: 1000,
  redirectUrl: 2048,
} as const;

/** local@domain.tld with no spaces and a local part of at most 64 characters. */
const EMAIL_FORMAT = /^[^@\s"(),:;<>[\\\]]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

export function isEmailAddress(value: unknown): boolean {
  return typeof value === 'string' && EMAIL_FORMAT.test(value.trim());
}

function IsEmailAddress() {
  return ValidateBy({
    name: 'isEmailAddress',
    validator: {
      validate: isEmailAddress,
      defaultMessage: () => 'must be an email address such as name@example.com',
    },
  });
}

export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function IsHttpUrl() {
  return ValidateBy({
    name: 'isHttpUrl',
    validator: {
      validate: isHttpUrl,
      defaultMessage: () => 'must be an absolute http(s) URL',
    },
  });
}

const maxLength = (field: keyof typeof GUEST_FIELD_MAX_LENGTH) =>
  MaxLength(GUEST_FIELD_MAX_LENGTH[field], {
    message: `must be at most ${GUEST_FIELD_MAX_LENGTH[field]} characters long`,
  });

/** SPEC 2.6 "Guest invitation (input)". */
@InputType({ description: 'An invitation of a guest (SPEC 2.6 "Guest invitation")' })
export class InviteGuestInput {
  @Field({ description: 'The address the invitation goes to (required)' })
  @maxLength('email')
  @IsEmailAddress()
  email!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Defaults to a name made from the address: jane.doe@example.com gives "Jane Doe"',
  })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @maxLength('displayName')
  displayName?: string | null;

  @Field(() => String, {
    nullable: true,
    description: `Added to the invitation mail (at most ${GUEST_FIELD_MAX_LENGTH.personalMessage} characters)`,
  })
  @IsOptional()
  @IsString()
  @maxLength('personalMessage')
  personalMessage?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Where the guest lands after redeeming (http or https); the cloud's default if not given",
  })
  @IsOptional()
  @maxLength('redirectUrl')
  @IsHttpUrl()
  redirectUrl?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Send the invitation mail now (default true); false creates the guest without mail',
  })
  @IsOptional()
  @IsBoolean()
  sendInvitation?: boolean | null;
}
