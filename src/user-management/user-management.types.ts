import { IsBoolean, IsOptional, IsString } from '../core/perf/class-validator-rules.js';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { User } from '../users/user.entity.js';
import { NamedProfileInput } from '../users/user.types.js';

export const ManagedUserPage = PageOf(User, 'ManagedUser');

@InputType({
  description:
    'The whole editable profile of a user (PUT): an optional field left out is cleared; accountStatus and mfaStatus stay as they are unless given. Synced users: only fields whose value changes are checked against the read-only set.',
})
export class ReplaceUserInput extends NamedProfileInput {}

@InputType({ description: 'A password reset (issue #14 item 3)' })
export class ResetPasswordInput {
  @Field(() => String, {
    nullable: true,
    description: "Must meet the tenant's password policy; when left out, one is generated and returned once",
  })
  @IsOptional()
  @IsString()
  password?: string | null;

  @Field(() => Boolean, { nullable: true, defaultValue: true })
  @IsOptional()
  @IsBoolean()
  forceChangeAtNextSignIn?: boolean | null;
}

@ObjectType({ description: 'The outcome of a password reset' })
export class PasswordReset {
  @Field(() => User)
  user!: User;

  @Field(() => String, {
    nullable: true,
    description: 'The generated password, shown this once (null when the caller supplied one)',
  })
  temporaryPassword!: string | null;

  @Field()
  forceChangeAtNextSignIn!: boolean;

  @Field(() => GraphQLDateTime, { description: 'Sessions and refresh tokens issued before this are revoked' })
  sessionsRevokedAt!: Date;
}

@ObjectType({ description: 'A license a user holds, with its SKU names' })
export class UserLicenseDetail {
  @Field(() => ID)
  skuId!: string;

  @Field()
  skuPartNumber!: string;

  @Field()
  name!: string;

  @Field(() => GraphQLDateTime)
  assignedAt!: Date;
}

@ObjectType({ description: 'A group a user is a member of' })
export class UserGroupMembership {
  @Field(() => ID)
  id!: string;

  @Field()
  displayName!: string;
}
