import { GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';
import { Arg, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { OffboardingStep, UserOffboarding } from './offboarding.entity.js';
import { OffboardingService } from './offboarding.service.js';
import { OffboardUserInput } from './offboarding.types.js';
import { StartsJob } from '../core/job-charges.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const userIdArg = () => Arg('userId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Offboarding (REST: /api/user-management-identity/users/:userId/offboard...). */
@Resolver(() => UserOffboarding)
export class OffboardingResolver {
  @StartsJob()
  @Mutation(() => UserOffboarding, {
    description:
      'Starts the offboarding job of a user (ordered, recorded steps); 409 while another one of the user is queued or running',
  })
  // Deleting the user at the end is a deletion: an Admin API key (or write:users on an access token).
  @RequirePermission(FEATURES.identity.write, {
    when: [{ argument: 'input.deleteUser', requires: FEATURES.identity.admin }],
  })
  offboardUser(
    @tenantIdArg() tenantId: string,
    @userIdArg() userId: string,
    @Arg('input', () => OffboardUserInput, { nullable: true }) input: OffboardUserInput | null,
    @Ctx() ctx: RequestContext,
  ) {
    return new OffboardingService(ctx).start(tenantId, userId, input ?? {});
  }

  @Query(() => UserOffboarding, { description: 'An offboarding of a user with the status of every step' })
  @RequirePermission(FEATURES.identity.read)
  userOffboarding(
    @tenantIdArg() tenantId: string,
    @userIdArg() userId: string,
    @idArg() id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new OffboardingService(ctx).get(tenantId, userId, id);
  }

  @StartsJob()
  @Mutation(() => UserOffboarding, {
    description: 'Runs a Failed offboarding again from its failed step (409 unless Failed)',
  })
  @RequirePermission(FEATURES.identity.write)
  retryUserOffboarding(
    @tenantIdArg() tenantId: string,
    @userIdArg() userId: string,
    @idArg() id: string,
    @Ctx() ctx: RequestContext,
  ) {
    return new OffboardingService(ctx).retry(tenantId, userId, id);
  }

  @FieldResolver(() => Actor, { description: 'Who started the offboarding' })
  createdBy(@Root() offboarding: UserOffboarding): string {
    return offboarding.createdBy;
  }

  @FieldResolver(() => [OffboardingStep], { description: 'In the order they run' })
  steps(@Root() offboarding: UserOffboarding): OffboardingStep[] {
    return offboarding.steps.map((step) => ({
      ...step,
      startedAt: step.startedAt ? new Date(step.startedAt) : null,
      finishedAt: step.finishedAt ? new Date(step.finishedAt) : null,
      retryAt: step.retryAt ? new Date(step.retryAt) : null,
    }));
  }

  @FieldResolver(() => GraphQLJSONObject, {
    description: 'The options, with the people resolved to user ids',
  })
  options(@Root() offboarding: UserOffboarding): Record<string, unknown> {
    return { ...offboarding.options };
  }
}
