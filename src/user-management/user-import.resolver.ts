import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { MAX_USER_CSV_ROWS } from './user-csv.js';
import { UserImport } from './user-import.entity.js';
import { UserImportService } from './user-import.service.js';
import { UserImportRowPage, UserImportSubmission } from './user-import.types.js';
import { StartsJob } from '../core/job-charges.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);

/** Bulk user creation from CSV (REST: POST /api/user-management-identity/users/bulk). */
@Resolver(() => UserImport)
export class UserImportResolver {
  @StartsJob({ units: 'csv', perUnit: 1 })
  @Mutation(() => UserImportSubmission, {
    description: `Checks a user CSV (header UserPrincipalName, FirstName, LastName[, DisplayName, Password, ...]; at most ${MAX_USER_CSV_ROWS} rows) and queues the creation; any bad row refuses the whole file`,
  })
  @RequirePermission(FEATURES.identity.write)
  importUsers(
    @tenantIdArg() tenantId: string,
    @Arg('csv', () => String) csv: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserImportService(ctx).submit(tenantId, csv);
  }

  @Mutation(() => UserImport, {
    description:
      'Runs a Failed user import again for its remaining rows only (Pending, or sent when the import stopped); created and failed rows stay as they are. 409 unless Failed with rows remaining',
  })
  @RequirePermission(FEATURES.identity.write)
  retryUserImport(
    @tenantIdArg() tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserImportService(ctx).retry(tenantId, id);
  }

  @Query(() => UserImport, { description: 'A user import with its progress' })
  @RequirePermission(FEATURES.identity.read)
  userImport(
    @tenantIdArg() tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new UserImportService(ctx).get(tenantId, id);
  }

  @FieldResolver(() => Actor, { description: 'Who submitted the import' })
  createdBy(@Root() operation: UserImport): string {
    return operation.createdBy;
  }

  @FieldResolver(() => UserImportRowPage, { description: 'The rows and their outcome, in file order' })
  rows(@Root() operation: UserImport, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new UserImportService(ctx).rows(operation.id, page);
  }
}
