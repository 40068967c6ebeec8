import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { Member } from './member.entity.js';
import { CreateMemberInput, UpdateMemberInput } from './member.types.js';
import { MemberService } from './member.service.js';

const MemberPage = PageOf(Member, 'Member');

/**
 * Member management is Admin only, like API keys (DECISIONS: settings area); changing members also needs
 * a live credential, since a member signs in to both environments (issue #9 item 4).
 */
@Resolver(() => Member)
export class MemberResolver {
  @Query(() => MemberPage, { description: 'People of this organization who may sign in, newest first' })
  @RequirePermission(FEATURES.members.read)
  members(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new MemberService(ctx).list(page);
  }

  @Mutation(() => Member, {
    description:
      'Adds a member (409 when the email is taken). Only an owner (OAuth) or the CLI may add an owner',
  })
  @RequirePermission(FEATURES.members.admin)
  createMember(@Arg('input') input: CreateMemberInput, @Ctx() ctx: RequestContext) {
    return new MemberService(ctx).create(input);
  }

  @Mutation(() => Member, {
    description:
      "Changes a member's role; their tokens keep only what the new role may grant (409 for the last owner)",
  })
  @RequirePermission(FEATURES.members.admin)
  updateMember(
    @Arg('id', () => GraphQLUUID) id: string,
    @Arg('input') input: UpdateMemberInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new MemberService(ctx).updateRole(id, input.role);
  }

  @Mutation(() => Member, {
    description: 'Removes a member and every token they granted (409 for the last owner)',
  })
  @RequirePermission(FEATURES.members.admin)
  removeMember(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new MemberService(ctx).remove(id);
  }
}
