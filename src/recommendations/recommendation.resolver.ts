import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { RecommendationApplyService } from './recommendation-apply.service.js';
import { RecommendationStatus, SNOOZE_DAYS } from './recommendation.enums.js';
import { RecommendationService } from './recommendation.service.js';
import {
  RecommendationApplyOperationView,
  RecommendationListArgs,
  SecurityRecommendation,
  SecurityRecommendationPage,
} from './recommendation.types.js';
import { StartsJob } from '../core/job-charges.js';
import { MAX_TENANTS_PER_ORGANIZATION } from '../tenants/tenant-limits.js';

const idArg = () => Arg('id', () => String, { description: 'The recommendation id, e.g. mfa-admin-roles' });
const tenantIdsArg = () => Arg('tenantIds', () => [GraphQLUUID]);

/** Security recommendations across tenants (SPEC 2.6, 3.3, 4.2, 4.3; REST: /api/security/recommendations...). */
@Resolver(() => SecurityRecommendation)
export class RecommendationResolver {
  @Query(() => SecurityRecommendationPage, {
    description:
      'Recommendations affecting at least one tenant (within the filters), by severity then points',
  })
  @RequirePermission(FEATURES.security.read)
  securityRecommendations(@Args() args: RecommendationListArgs, @Ctx() ctx: RequestContext) {
    return new RecommendationService(ctx).list(args);
  }

  @Query(() => SecurityRecommendation, { description: 'One recommendation with its affected tenants' })
  @RequirePermission(FEATURES.security.read)
  securityRecommendation(
    @idArg() id: string,
    @Arg('tenantIds', () => [GraphQLUUID], { nullable: true }) tenantIds: string[] | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return new RecommendationService(ctx).get(id, tenantIds ?? undefined);
  }

  @Query(() => RecommendationApplyOperationView, {
    description: 'An apply operation: progress and per-tenant results',
  })
  @RequirePermission(FEATURES.security.read)
  recommendationApplyOperation(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new RecommendationApplyService(ctx).get(id);
  }

  @StartsJob({ units: 'tenantIds', unitsWhenAbsent: MAX_TENANTS_PER_ORGANIZATION, perUnit: 10 })
  @Mutation(() => RecommendationApplyOperationView, {
    description:
      'Applies the recommendation in the tenants (all Open ones when tenantIds is left out) as a job; with dryRun the job only previews it and changes nothing',
  })
  @RequirePermission(FEATURES.security.write)
  applySecurityRecommendation(
    @idArg() id: string,
    @Arg('tenantIds', () => [GraphQLUUID], { nullable: true }) tenantIds: string[] | undefined,
    @Arg('dryRun', { defaultValue: false }) dryRun: boolean,
    @Arg('notifyAdmins', { defaultValue: false }) notifyAdmins: boolean,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | undefined,
    @Ctx() ctx: RequestContext,
  ) {
    return new RecommendationApplyService(ctx).apply(id, { tenantIds, dryRun, notifyAdmins, idempotencyKey });
  }

  @Mutation(() => SecurityRecommendation, {
    description: 'Open → Dismissed in each tenant, with a reason kept for audit',
  })
  @RequirePermission(FEATURES.security.write)
  dismissSecurityRecommendation(
    @idArg() id: string,
    @tenantIdsArg() tenantIds: string[],
    @Arg('reason') reason: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new RecommendationService(ctx).move(id, tenantIds, { to: RecommendationStatus.DISMISSED, reason });
  }

  @Mutation(() => SecurityRecommendation, {
    description: `Open → Snoozed for ${SNOOZE_DAYS.slice(0, -1).join(', ')} or ${SNOOZE_DAYS[SNOOZE_DAYS.length - 1]} days; Open again when it ends`,
  })
  @RequirePermission(FEATURES.security.write)
  snoozeSecurityRecommendation(
    @idArg() id: string,
    @tenantIdsArg() tenantIds: string[],
    @Arg('days', () => Int) days: number,
    @Ctx() ctx: RequestContext,
  ) {
    return new RecommendationService(ctx).move(id, tenantIds, { to: RecommendationStatus.SNOOZED, days });
  }

  @Mutation(() => SecurityRecommendation, { description: 'Dismissed or Snoozed → Open' })
  @RequirePermission(FEATURES.security.write)
  reopenSecurityRecommendation(
    @idArg() id: string,
    @tenantIdsArg() tenantIds: string[],
    @Ctx() ctx: RequestContext,
  ) {
    return new RecommendationService(ctx).move(id, tenantIds, { to: RecommendationStatus.OPEN });
  }
}
