import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { PortalService } from './portal.service.js';
import { LicenseIntelligenceSummary, PortalTenantStats } from './portal.types.js';

const tenantGroupIdArg = () =>
  Arg('tenantGroupId', () => GraphQLUUID, {
    nullable: true,
    description: 'Only the tenants of this tenant group',
  });

/** The provider portal (SPEC 5.3): acts across every tenant of the caller's organization and environment. */
@Resolver()
export class PortalResolver {
  @Query(() => PortalTenantStats, {
    description: "Portal tenant overview: the caller's tenants by health (docs/tenant-health.md)",
  })
  @RequirePermission(FEATURES.portal.read)
  portalTenantStats(@tenantGroupIdArg() tenantGroupId: string | null, @Ctx() ctx: RequestContext) {
    return new PortalService(ctx).tenantStats(tenantGroupId);
  }

  @Query(() => LicenseIntelligenceSummary, {
    description:
      "Aggregated license utilization across the caller's tenants: totals, per SKU, over-allocations, inactive licensed users",
  })
  @RequirePermission(FEATURES.portal.read)
  licenseIntelligenceSummary(@tenantGroupIdArg() tenantGroupId: string | null, @Ctx() ctx: RequestContext) {
    return new PortalService(ctx).licenseIntelligenceSummary(tenantGroupId);
  }
}
