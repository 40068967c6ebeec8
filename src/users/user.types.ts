import {
  IsBoolean,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from '../core/perf/class-validator-rules.js';
import { GraphQLUUID } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';
import { AccountStatus, MfaStatus } from './user.enums.js';
import './user.graphql-enums.js';

/**
 * Length limits follow the upstream cloud's directory (givenName 64, UPN 113, employeeId 16, ...),
 * and never exceed the 255 characters of the varchar columns, so no value reaches the database
 * that it would refuse with a 500.
 */
export const USER_FIELD_MAX_LENGTH = {
  displayName: 255,
  firstName: 64,
  lastName: 64,
  userPrincipalName: 113,
  jobTitle: 128,
  department: 64,
  companyName: 64,
  officeLocation: 128,
  businessPhone: 64,
  mobilePhone: 64,
  employeeId: 16,
  employeeType: 64,
} as const;

const NOT_BLANK = /\S/;
/** local@domain: one @, no spaces, a dotted domain; the domain must also be one of the tenant's. */
const UPN_FORMAT = /^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$/;
const UPN_LOCAL_PART_MAX = 64;
const COUNTRY_CODE_FORMAT = /^[A-Z]{2}$/;
/** CLDR regions that are not countries (European Union, Eurozone, United Nations, Outlying Oceania, Unknown). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
/** Made on the first check: Intl's region names load ICU data (~0.5 MiB resident) that only user writes need. */
let regionNames: Intl.DisplayNames | undefined;

/** ISO 3166-1 alpha-2: two upper-case letters that name a country or territory (US, DE, GB, ...). */
export function isCountryCode(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    COUNTRY_CODE_FORMAT.test(value) &&
    !NOT_COUNTRIES.has(value) &&
    (regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })).of(value) !==
      undefined
  );
}

function IsCountryCode() {
  return ValidateBy({
    name: 'isCountryCode',
    validator: {
      validate: isCountryCode,
      defaultMessage: () =>
        'must be an ISO 3166-1 alpha-2 country code: two upper-case letters such as US or DE',
    },
  });
}

export function IsUserPrincipalName() {
  return ValidateBy({
    name: 'isUserPrincipalName',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        UPN_FORMAT.test(value.trim()) &&
        value.trim().split('@')[0].length <= UPN_LOCAL_PART_MAX,
      defaultMessage: () =>
        `must have the form username@domain (username at most ${UPN_LOCAL_PART_MAX} characters)`,
    },
  });
}

export const notBlank = () => Matches(NOT_BLANK, { message: 'must not be blank' });
export const maxLength = (field: keyof typeof USER_FIELD_MAX_LENGTH) =>
  MaxLength(USER_FIELD_MAX_LENGTH[field], {
    message: `must be at most ${USER_FIELD_MAX_LENGTH[field]} characters long`,
  });

/** Optional profile details shared by create and update; null (or blank) clears them. */
@InputType()
export abstract class ProfileDetailsInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('jobTitle')
  jobTitle?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('department')
  department?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('companyName')
  companyName?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('officeLocation')
  officeLocation?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('businessPhone')
  businessPhone?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('mobilePhone')
  mobilePhone?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('employeeId')
  employeeId?: string | null;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @maxLength('employeeType')
  employeeType?: string | null;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Another (not deleted) user of the same tenant' })
  @IsOptional()
  managerId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'ISO 3166-1 alpha-2 country code; required before a license can be assigned',
  })
  @IsOptional()
  @IsCountryCode()
  usageLocation?: string | null;

  @Field(() => MfaStatus, { nullable: true })
  @IsOptional()
  mfaStatus?: MfaStatus;

  @Field(() => AccountStatus, { nullable: true, description: 'Disabled accounts cannot sign in' })
  @IsOptional()
  accountStatus?: AccountStatus;
}

/** The names of a whole profile: a new user's (POST) and a replaced one's (PUT). */
@InputType()
export abstract class NamedProfileInput extends ProfileDetailsInput {
  @Field()
  @notBlank()
  @maxLength('firstName')
  firstName!: string;

  @Field()
  @notBlank()
  @maxLength('lastName')
  lastName!: string;

  @Field({ description: "username@domain, where domain is one of the tenant's domains" })
  @IsUserPrincipalName()
  @maxLength('userPrincipalName')
  userPrincipalName!: string;

  @Field(() => String, { nullable: true, description: 'Defaults to "First Last"' })
  @IsOptional()
  @notBlank()
  @maxLength('displayName')
  displayName?: string | null;
}

@InputType({ description: 'A new cloud user of a tenant (SPEC 2.3)' })
export class CreateUserInput extends NamedProfileInput {
  @Field(() => String, {
    nullable: true,
    description:
      "Must meet the tenant's password policy. When left out, a strong one is generated and returned once, in generatedPassword.",
  })
  @IsOptional()
  @IsString()
  password?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'A non-human member (SPEC 2.3): created with sign-in blocked (accountStatus Disabled), never enabled, holds no licenses',
  })
  @IsOptional()
  @IsBoolean()
  isServiceAccount?: boolean | null;
}

@InputType({
  description:
    'Fields to change; a field left out stays as it is, null clears an optional one (names, userPrincipalName and statuses cannot be cleared). Synced users: only usageLocation and mfaStatus.',
})
export class UpdateUserInput extends ProfileDetailsInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @notBlank()
  @maxLength('firstName')
  firstName?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @notBlank()
  @maxLength('lastName')
  lastName?: string;

  @Field(() => String, { nullable: true })
  @IsOptional()
  @notBlank()
  @maxLength('displayName')
  displayName?: string;

  @Field(() => String, { nullable: true, description: 'Same rules as on create' })
  @IsOptional()
  @IsUserPrincipalName()
  @maxLength('userPrincipalName')
  userPrincipalName?: string;
}

@InputType({
  description:
    'How a deleted user comes back (SPEC 3.4). Without userPrincipalName it keeps its own, which must not have been taken by another user meanwhile.',
})
export class RestoreUserInput {
  @Field(() => String, {
    nullable: true,
    description:
      "A new sign-in address (username@domain, a domain of the tenant), needed when the user's own was reused",
  })
  @IsOptional()
  @IsUserPrincipalName()
  @maxLength('userPrincipalName')
  userPrincipalName?: string | null;
}
