import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { EndpointDlpService } from './dlp.service.js';
import { DlpAlertFilter, DlpPolicyFilter, EndpointDlpAlertPage, EndpointDlpPolicyPage } from './dlp.types.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);

/** Endpoint DLP of SPEC 2.6, 4.2, read-only (REST: /api/security/endpoint-dlp/...). */
@Resolver()
export class EndpointDlpResolver {
  @Query(() => EndpointDlpPolicyPage, {
    description: 'Endpoint DLP policies of a tenant (read-only), by name',
  })
  @RequirePermission(FEATURES.security.read)
  endpointDlpPolicies(
    @tenantIdArg() tenantId: string,
    @Arg('filter', () => DlpPolicyFilter, { nullable: true }) filter: DlpPolicyFilter | null,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new EndpointDlpService(ctx).policies(tenantId, filter ?? {}, page);
  }

  @Query(() => EndpointDlpAlertPage, {
    description: 'Activities endpoint DLP policies matched, newest first',
  })
  @RequirePermission(FEATURES.security.read)
  endpointDlpAlerts(
    @tenantIdArg() tenantId: string,
    @Arg('filter', () => DlpAlertFilter, { nullable: true }) filter: DlpAlertFilter | null,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new EndpointDlpService(ctx).alerts(tenantId, filter ?? {}, page);
  }
}
