import { GraphQLUUID } from 'graphql-scalars';
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { selectedItemFields } from '../core/lean-selection.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { AvailableTenantPage, AvailableTenantsArgs, listAvailableTenants } from './available-tenants.js';
import { TenantSync } from './sync-run.entity.js';
import { computeTenantHealth } from './tenant-health.js';
import { storedHealthSignalsLoader } from './tenant-health.loaders.js';
import { OnboardTenantInput } from './tenant-onboarding.js';
import { Tenant, TenantHealth } from './tenant.entity.js';
import { TenantService } from './tenant.service.js';
import { StartsJob } from '../core/job-charges.js';

const TenantPage = PageOf(Tenant, 'Tenant');

@Resolver(() => Tenant)
export class TenantResolver {
  @Query(() => TenantPage, { description: 'Customer tenants, newest first' })
  @RequirePermission(FEATURES.tenants.read)
  tenants(
    @Args() page: PageArgs,
    @Arg('tenantGroupId', () => GraphQLUUID, { nullable: true }) tenantGroupId: string | null,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ) {
    // Only the columns of the fields asked are read (REST's route document arrives here the same way).
    return new TenantService(ctx).list(page, tenantGroupId, selectedItemFields(info));
  }

  @Query(() => Tenant)
  @RequirePermission(FEATURES.tenants.read)
  tenant(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new TenantService(ctx).get(id);
  }

  @Query(() => AvailableTenantPage, {
    description:
      'Customer tenants of the upstream cloud that grant this organization delegated access, with the tenant ' +
      'each already is here (null: not onboarded yet, pass its externalId to onboardTenant)',
  })
  @RequirePermission(FEATURES.tenants.read)
  availableTenants(@Args() args: AvailableTenantsArgs, @Ctx() ctx: RequestContext) {
    return listAvailableTenants(ctx, args);
  }

  @Mutation(() => Tenant, {
    description:
      'Brings a tenant of the upstream cloud into this organization and environment; sync it next. ' +
      "The tenant's administrator must have granted this organization delegated access (else FORBIDDEN, " +
      'details.reason CONSENT_REQUIRED; see docs/security-model.md)',
  })
  @RequirePermission(FEATURES.tenants.write)
  onboardTenant(@Arg('input') input: OnboardTenantInput, @Ctx() ctx: RequestContext) {
    return new TenantService(ctx).onboard(input);
  }

  @StartsJob()
  @Mutation(() => TenantSync, {
    description: 'Starts a sync from the upstream cloud; poll tenantSync for progress',
  })
  @RequirePermission(FEATURES.tenants.write)
  syncTenant(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new TenantService(ctx).startSync(id);
  }

  @Query(() => TenantSync)
  @RequirePermission(FEATURES.tenants.read)
  tenantSync(
    @Arg('tenantId', () => GraphQLUUID) tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new TenantService(ctx).getSync(tenantId, id);
  }

  /**
   * docs/tenant-health.md: sync age from the record, every other signal from the tenant's stored aggregates (the
   * row the portal counts, so the two agree), batched per page.
   */
  @FieldResolver(() => TenantHealth)
  async health(@Root() tenant: Tenant, @Ctx() ctx: RequestContext): Promise<TenantHealth> {
    const stored = await ctx.loaders.get(storedHealthSignalsLoader).load(tenant.id);
    return computeTenantHealth({ lastSyncedAt: tenant.lastSyncedAt, ...stored }, ctx.clock.now());
  }
}
