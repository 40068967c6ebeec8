import { GraphQLUUID } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Info, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { selectedItemFields } from '../core/lean-selection.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { LicenseAssignment, TenantLicense } from './license.entity.js';
import { LicenseAssignmentInput, LicenseAssignmentListArgs, LicenseRemoval } from './license.types.js';
import { LicenseService } from './license.service.js';

const LicensePage = PageOf(TenantLicense, 'License');
const LicenseAssignmentPage = PageOf(LicenseAssignment, 'LicenseAssignment');

@Resolver(() => TenantLicense)
export class LicenseResolver {
  @Query(() => LicensePage, { description: 'License SKUs of a tenant with their seats, by name' })
  @RequirePermission(FEATURES.licenses.read)
  licenses(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // Only the columns of the fields asked are read (REST's route document arrives here the same way).
    return new LicenseService(ctx).listLicenses(tenantId, page, selectedItemFields(info));
  }

  @Query(() => LicenseAssignmentPage, { description: 'Who holds which license in a tenant, newest first' })
  @RequirePermission(FEATURES.licenses.read)
  licenseAssignments(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Args() { userId, skuId, page, limit }: LicenseAssignmentListArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new LicenseService(ctx).listAssignments(tenantId, { userId, skuId }, { page, limit });
  }

  @Mutation(() => LicenseAssignment, {
    description:
      'Assigns a license seat to a user (usage location required). Idempotent: a license already held returns its assignment.',
  })
  @RequirePermission(FEATURES.licenses.write)
  assignLicense(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Arg('input') input: LicenseAssignmentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new LicenseService(ctx).assign(tenantId, input);
  }

  @Mutation(() => LicenseRemoval, {
    description:
      'Removes a license from a user and returns the seat. Idempotent: not held gives removed: false.',
  })
  @RequirePermission(FEATURES.licenses.write)
  removeLicense(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Arg('input') input: LicenseAssignmentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new LicenseService(ctx).remove(tenantId, input);
  }
}
