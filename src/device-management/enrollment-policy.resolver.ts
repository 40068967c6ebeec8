import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import { EnrollmentAttemptsService } from './enrollment-attempts.service.js';
import { EnrollmentOrderService } from './enrollment-order.service.js';
import { EnrollmentPolicyService } from './enrollment-policy.service.js';
import {
  BlockedAttemptArgs,
  BlockedEnrollmentAttemptPage,
  CreateEnrollmentRestrictionInput,
  EnrollmentDecisionResult,
  EnrollmentRestrictionPage,
  EvaluateEnrollmentInput,
  UpdateEnrollmentRestrictionInput,
} from './enrollment-policy.types.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);

/** Enrollment restrictions of SPEC 4.2 (REST: /api/devices/enrollment-restrictions...). */
@Resolver(() => EnrollmentRestriction)
export class EnrollmentRestrictionResolver {
  @Query(() => EnrollmentRestrictionPage, {
    description: "The tenant's enrollment restriction policies in priority order, the built-in default last",
  })
  @RequirePermission(FEATURES.devices.read)
  enrollmentRestrictions(
    @tenantIdArg() tenantId: string,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new EnrollmentPolicyService(ctx).list(tenantId, page);
  }

  @Mutation(() => EnrollmentRestriction, { description: 'Creates a policy, placed just above the default' })
  @RequirePermission(FEATURES.devices.write)
  createEnrollmentRestriction(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => CreateEnrollmentRestrictionInput) input: CreateEnrollmentRestrictionInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new EnrollmentPolicyService(ctx).create(tenantId, input);
  }

  @Mutation(() => EnrollmentRestriction, {
    description:
      'Changes a policy; with ifMatch (its version, REST If-Match) only if unchanged since (else 412)',
  })
  @RequirePermission(FEATURES.devices.write)
  updateEnrollmentRestriction(
    @tenantIdArg() tenantId: string,
    @Arg('id', () => GraphQLUUID) id: string,
    @Arg('input', () => UpdateEnrollmentRestrictionInput) input: UpdateEnrollmentRestrictionInput,
    @Arg('ifMatch', () => String, { nullable: true }) ifMatch: string | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new EnrollmentPolicyService(ctx).update(tenantId, id, input, ifMatch ?? null);
  }

  @Mutation(() => [EnrollmentRestriction], {
    description:
      'Sets the priority order: every non-default policy id of the tenant exactly once (partial or stale: 409)',
  })
  @RequirePermission(FEATURES.devices.write)
  reorderEnrollmentRestrictions(
    @tenantIdArg() tenantId: string,
    @Arg('policyIds', () => [GraphQLUUID]) policyIds: string[],
    @Ctx() ctx: RequestContext,
  ) {
    return new EnrollmentOrderService(ctx).reorder(tenantId, policyIds);
  }

  @Mutation(() => EnrollmentDecisionResult, {
    description: "Decides an enrollment attempt with the tenant's policies as sync would; records nothing",
  })
  @RequirePermission(FEATURES.devices.read)
  evaluateEnrollment(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => EvaluateEnrollmentInput) input: EvaluateEnrollmentInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new EnrollmentAttemptsService(ctx).evaluate(tenantId, input);
  }

  @Query(() => BlockedEnrollmentAttemptPage, {
    description: 'Enrollment attempts the restrictions blocked (recorded by sync), newest first',
  })
  @RequirePermission(FEATURES.devices.read)
  blockedEnrollmentAttempts(
    @tenantIdArg() tenantId: string,
    @Args() args: BlockedAttemptArgs,
    @Ctx() ctx: RequestContext,
  ) {
    const { reason, platform, from, to, page, limit } = args;
    return new EnrollmentAttemptsService(ctx).blocked(
      tenantId,
      { reason, platform, from, to },
      { page, limit },
    );
  }
}
