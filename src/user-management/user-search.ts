import { IsOptional, MaxLength } from '../core/perf/class-validator-rules.js';
import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, registerEnumType } from 'type-graphql';
import type { Scope } from '../core/scope.js';
import { AccountStatus, MfaStatus, UserSource, UserType } from '../users/user.enums.js';
import '../users/user.graphql-enums.js';

export const MAX_SEARCH_LENGTH = 256;

export enum UserSortField {
  DISPLAY_NAME = 'displayName',
  CREATED_AT = 'createdAt',
  LAST_SIGN_IN_AT = 'lastSignInAt',
}
registerEnumType(UserSortField, { name: 'UserSortField' });

export enum SortOrder {
  ASC = 'asc',
  DESC = 'desc',
}
registerEnumType(SortOrder, { name: 'SortOrder' });

export enum SearchMode {
  CONTAINS = 'contains',
  PREFIX = 'prefix',
}
registerEnumType(SearchMode, {
  name: 'UserSearchMode',
  description: 'contains: the term anywhere in a name or address; prefix: at the start',
});

/** Filters, search and sort of the user-management list (issue #14 item 1; docs/user-management.md). */
@ArgsType()
export class UserSearchArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Matched case-insensitively against display name, UPN and mail',
  })
  @IsOptional()
  @MaxLength(MAX_SEARCH_LENGTH, { message: `must be at most ${MAX_SEARCH_LENGTH} characters long` })
  search?: string | null;

  @Field(() => SearchMode, { nullable: true, defaultValue: SearchMode.CONTAINS })
  searchMode?: SearchMode | null;

  @Field(() => AccountStatus, { nullable: true })
  accountStatus?: AccountStatus | null;

  @Field(() => MfaStatus, { nullable: true })
  mfaStatus?: MfaStatus | null;

  @Field(() => UserType, { nullable: true })
  userType?: UserType | null;

  @Field(() => UserSource, { nullable: true })
  source?: UserSource | null;

  @Field(() => String, { nullable: true, description: 'Exact department, case-insensitive' })
  @IsOptional()
  @MaxLength(64, { message: 'must be at most 64 characters long' })
  department?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'true: holds at least one license; false: none' })
  hasLicense?: boolean | null;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Holds a license of this SKU' })
  skuId?: string | null;

  @Field(() => Boolean, { nullable: true })
  isServiceAccount?: boolean | null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'Last sign-in strictly before (never: excluded)',
  })
  lastSignInBefore?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Last sign-in at or after' })
  lastSignInAfter?: Date | null;

  @Field(() => UserSortField, { nullable: true, defaultValue: UserSortField.DISPLAY_NAME })
  sortBy?: UserSortField | null;

  @Field(() => SortOrder, {
    nullable: true,
    description: 'Defaults to asc for displayName, desc for the dates (never signed in: last)',
  })
  sortOrder?: SortOrder | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The WHERE and ORDER BY of a search over the `users` table (alias u), with its parameters. The text search
 * compares lower(column) with LIKE, which the trigram GIN indexes of users_search_* serve for both prefix and
 * contains patterns (migration 20261207090000). It runs in scoped_tenant_user_search (migration 20261225090200):
 * written here, under the row-level security policies LIKE and lower() (not leakproof) could not use those
 * indexes and every search read all of the tenant's users; the function, owned by the service role, applies the
 * policy's condition itself.
 */
export function userSearchSql(
  scope: Scope,
  tenantId: string,
  args: UserSearchArgs,
): { where: string; orderBy: string; params: unknown[] } {
  const conditions = [
    'u.organization_id = ?',
    'u.environment = ?',
    'u.tenant_id = ?',
    'u.deleted_at is null',
  ];
  const params: unknown[] = [scope.organizationId, scope.environment, tenantId];
  const equal = (column: string, value: unknown) => {
    if (value === undefined || value === null) return;
    conditions.push(`${column} = ?`);
    params.push(value);
  };
  equal('u.account_status', args.accountStatus);
  equal('u.mfa_status', args.mfaStatus);
  equal('u.user_type', args.userType);
  equal('u.source', args.source);
  equal('u.is_service_account', args.isServiceAccount);
  if (args.department?.trim()) {
    // The stored lower(department) with `=`: users_department_index serves it under the policies (lower() would not).
    conditions.push('u.department_folded = ?');
    params.push(args.department.trim().toLowerCase());
  }
  if (args.hasLicense !== undefined && args.hasLicense !== null) {
    conditions.push(
      `${args.hasLicense ? '' : 'not '}exists (select 1 from license_assignments la where la.user_id = u.id)`,
    );
  }
  if (args.skuId) {
    conditions.push(
      'exists (select 1 from license_assignments la where la.user_id = u.id and la.sku_id = ?)',
    );
    params.push(args.skuId);
  }
  if (args.lastSignInBefore) {
    conditions.push('u.last_sign_in_at < ?');
    params.push(args.lastSignInBefore);
  }
  if (args.lastSignInAfter) {
    conditions.push('u.last_sign_in_at >= ?');
    params.push(args.lastSignInAfter);
  }
  const term = args.search?.trim().toLowerCase() ?? '';
  if (term !== '') {
    const pattern =
      (args.searchMode ?? SearchMode.CONTAINS) === SearchMode.PREFIX
        ? `${escapeLike(term)}%`
        : `%${escapeLike(term)}%`;
    // = any(array(...)), not in (select ...): the ids become an index condition on the primary key. As a join,
    // PostgreSQL may hash the matches and read every user of the organization to probe them.
    conditions.push('u.id = any(array(select id from scoped_tenant_user_search(?::uuid, ?, ?::uuid, ?)))');
    params.push(scope.organizationId, scope.environment, tenantId, pattern);
  }
  const sortBy = args.sortBy ?? UserSortField.DISPLAY_NAME;
  const order = args.sortOrder ?? (sortBy === UserSortField.DISPLAY_NAME ? SortOrder.ASC : SortOrder.DESC);
  const direction = order === SortOrder.ASC ? 'asc' : 'desc';
  const orderBy = {
    [UserSortField.DISPLAY_NAME]: `lower(u.display_name) ${direction}, u.id ${direction}`,
    [UserSortField.CREATED_AT]: `u.created_at ${direction}, u.id ${direction}`,
    [UserSortField.LAST_SIGN_IN_AT]: `u.last_sign_in_at ${direction} nulls last, u.id ${direction}`,
  }[sortBy];
  return { where: conditions.join(' and '), orderBy, params };
}
