import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { OAuthClient } from './oauth-client.entity.js';
import { CreatedOAuthClient, CreateOAuthClientInput } from './oauth-client.types.js';
import { OAuthClientService } from './oauth-client.service.js';

const OAuthClientPage = PageOf(OAuthClient, 'OAuthClient');

/** Client registration is Admin only; a client belongs to the caller's environment. */
@Resolver(() => OAuthClient)
export class OAuthClientResolver {
  @Query(() => OAuthClientPage, { description: 'OAuth clients of this organization and environment' })
  @RequirePermission(FEATURES.oauthClients.admin)
  oauthClients(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new OAuthClientService(ctx).list(page);
  }

  @Mutation(() => CreatedOAuthClient)
  @RequirePermission(FEATURES.oauthClients.admin)
  async createOAuthClient(
    @Arg('input') input: CreateOAuthClientInput,
    @Ctx() ctx: RequestContext,
  ): Promise<CreatedOAuthClient> {
    const { client, clientSecret } = await new OAuthClientService(ctx).create(input);
    return { client, clientId: client.clientId, clientSecret };
  }

  @Mutation(() => OAuthClient, { description: 'Revokes a client and every token it holds' })
  @RequirePermission(FEATURES.oauthClients.admin)
  revokeOAuthClient(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new OAuthClientService(ctx).revoke(id);
  }
}
