import { Max, Min, ValidateBy } from '../core/perf/class-validator-rules.js';
import { GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { CursorPageInfo, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';
import { AccountStatus, UserType } from '../users/user.enums.js';
import '../users/user.graphql-enums.js';

/** Shortest search term: trigram matching needs three characters to use its index. */
export const MIN_SEARCH_LENGTH = 3;
export const MAX_SEARCH_LENGTH = 200;

/**
 * The term's length once trimmed, as a rule of the arguments (not only of the service), so a short term is
 * named together with the other bad fields of the request (issue #32 item 2).
 */
const TrimmedTerm = () =>
  ValidateBy({
    name: 'trimmedTerm',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        value.trim().length >= MIN_SEARCH_LENGTH &&
        value.trim().length <= MAX_SEARCH_LENGTH,
      defaultMessage: (args) =>
        typeof args?.value === 'string' && args.value.trim().length > MAX_SEARCH_LENGTH
          ? `q must be at most ${MAX_SEARCH_LENGTH} characters long`
          : `q must be at least ${MIN_SEARCH_LENGTH} characters long`,
    },
  });

@ArgsType()
export class UserDirectorySearchArgs {
  @Field({
    description: `Part of a display name, UPN or mail (${MIN_SEARCH_LENGTH}+ characters; case and accents ignored)`,
  })
  @TrimmedTerm()
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
