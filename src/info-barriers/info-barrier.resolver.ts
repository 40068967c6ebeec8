import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { BarrierApplicationService } from './barrier-application.service.js';
import { BarrierPolicyService } from './barrier-policy.service.js';
import { BarrierApplication, BarrierPolicy, BarrierSegment } from './info-barrier.entity.js';
import { BARRIER_APPLICATION_HOURS } from './info-barrier.enums.js';
import {
  BarrierPolicyPage,
  BarrierSegmentPage,
  CreateBarrierPolicyInput,
  CreateSegmentInput,
} from './info-barrier.types.js';
import { SegmentService } from './segment.service.js';
import { StartsJob } from '../core/job-charges.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);

/** Information barriers of a tenant (SPEC 2.6, 4.2, 4.4; REST: /api/security/info-barriers/...). */
@Resolver()
export class InfoBarrierResolver {
  @Query(() => BarrierSegmentPage, { description: "The tenant's segments, newest first" })
  @RequirePermission(FEATURES.security.read)
  barrierSegments(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new SegmentService(ctx).list(tenantId, page);
  }

  @Mutation(() => BarrierSegment, {
    description: 'Creates a segment; 409 naming the users when it would overlap another',
  })
  @RequirePermission(FEATURES.security.write)
  createBarrierSegment(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => CreateSegmentInput) input: CreateSegmentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new SegmentService(ctx).create(tenantId, input);
  }

  @Query(() => BarrierPolicyPage, { description: "The tenant's barrier policies, newest first" })
  @RequirePermission(FEATURES.security.read)
  barrierPolicies(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new BarrierPolicyService(ctx).list(tenantId, page);
  }

  @Mutation(() => BarrierPolicy, { description: 'Creates a Block or Allow policy' })
  @RequirePermission(FEATURES.security.write)
  createBarrierPolicy(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => CreateBarrierPolicyInput) input: CreateBarrierPolicyInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new BarrierPolicyService(ctx).create(tenantId, input);
  }

  @StartsJob()
  @Mutation(() => BarrierApplication, {
    description:
      `Validates the policy set and starts applying it (Applied after ${BARRIER_APPLICATION_HOURS} hours); 409 while one runs, when ` +
      'policies contradict, or when segments share a user (naming the users, as segment creation does)',
  })
  @RequirePermission(FEATURES.security.write)
  applyInformationBarriers(@tenantIdArg() tenantId: string, @Ctx() ctx: RequestContext) {
    return new BarrierApplicationService(ctx).apply(tenantId);
  }

  @Query(() => BarrierApplication, { nullable: true, description: "The tenant's latest application, if any" })
  @RequirePermission(FEATURES.security.read)
  informationBarrierApplication(@tenantIdArg() tenantId: string, @Ctx() ctx: RequestContext) {
    return new BarrierApplicationService(ctx).latest(tenantId);
  }
}
