import { Max, Min } from 'class-validator';
import { GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { CursorPageInfo, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';
import { AccountStatus, UserType } from '../users/user.enums.js';

/** Shortest search term: trigram matching needs three characters to use its index. */
export const MIN_SEARCH_LENGTH = 3;
export const MAX_SEARCH_LENGTH = 200;

@ArgsType()
export class UserDirectorySearchArgs {
  @Field({
    description: `Part of a display name, UPN or mail (${MIN_SEARCH_LENGTH}+ characters; case and accents ignored)`,
  })
  q!: string;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Only tenants of this tenant group' })
  tenantGroupId?: string | null;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}` })
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;

  @Field(() => String, { nullable: true, description: 'The nextCursor of the previous page' })
  after?: string | null;
}

@ObjectType({ description: 'A user found in one of the organization’s tenants' })
export class DirectoryUser {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  tenantId!: string;

  @Field()
  tenantName!: string;

  @Field()
  displayName!: string;

  @Field()
  userPrincipalName!: string;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => AccountStatus)
  accountStatus!: AccountStatus;

  @Field(() => UserType)
  userType!: UserType;
}

@ObjectType()
export class DirectoryUserPage {
  @Field(() => [DirectoryUser])
  items!: DirectoryUser[];

  @Field(() => CursorPageInfo)
  pageInfo!: CursorPageInfo;
}
