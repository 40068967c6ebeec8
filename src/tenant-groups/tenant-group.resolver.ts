import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { TenantGroupService } from './tenant-group.service.js';
import {
  CreateTenantGroupInput,
  TenantGroupPage,
  TenantGroupView,
  UpdateTenantGroupInput,
} from './tenant-group.types.js';

const idArg = () => Arg('id', () => GraphQLUUID);
const tenantIdsArg = () => Arg('tenantIds', () => [GraphQLUUID]);

/**
 * Tenant groups (REST: /api/msp-portal/tenant-groups). Groups are about tenants, so they take the tenant
 * permissions: read:tenants reads, write:tenants (Write or Admin key) creates and changes; every DELETE (a group, its
 * members) needs an Admin key (DECISIONS: Admin = everything, including every DELETE).
 */
@Resolver(() => TenantGroupView)
export class TenantGroupResolver {
  @Query(() => TenantGroupPage, { description: 'Tenant groups of the organization, newest first' })
  @RequirePermission(FEATURES.tenants.read)
  tenantGroups(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new TenantGroupService(ctx).list(page);
  }

  @Query(() => TenantGroupView)
  @RequirePermission(FEATURES.tenants.read)
  tenantGroup(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new TenantGroupService(ctx).get(id);
  }

  @Mutation(() => TenantGroupView, { description: 'Creates a group; 409 when the name is taken' })
  @RequirePermission(FEATURES.tenants.write)
  createTenantGroup(
    @Arg('input', () => CreateTenantGroupInput) input: CreateTenantGroupInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new TenantGroupService(ctx).create(input);
  }

  @Mutation(() => TenantGroupView, {
    description: 'Renames or re-describes a group; 409 when the name is taken',
  })
  @RequirePermission(FEATURES.tenants.write)
  updateTenantGroup(
    @idArg() id: string,
    @Arg('input', () => UpdateTenantGroupInput) input: UpdateTenantGroupInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new TenantGroupService(ctx).update(id, input);
  }

  @Mutation(() => TenantGroupView, {
    description: 'Deletes a group (its tenants are untouched); answers the group as it was',
  })
  @RequirePermission(FEATURES.tenants.admin)
  deleteTenantGroup(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new TenantGroupService(ctx).delete(id);
  }

  @Mutation(() => TenantGroupView, { description: 'Adds tenants to a group (members already in it stay)' })
  @RequirePermission(FEATURES.tenants.write)
  addTenantGroupMembers(
    @idArg() id: string,
    @tenantIdsArg() tenantIds: string[],
    @Ctx() ctx: RequestContext,
  ) {
    return new TenantGroupService(ctx).addMembers(id, tenantIds);
  }

  @Mutation(() => TenantGroupView, {
    description: 'Removes tenants from a group (the tenants are untouched)',
  })
  @RequirePermission(FEATURES.tenants.admin)
  removeTenantGroupMembers(
    @idArg() id: string,
    @tenantIdsArg() tenantIds: string[],
    @Ctx() ctx: RequestContext,
  ) {
    return new TenantGroupService(ctx).removeMembers(id, tenantIds);
  }
}
