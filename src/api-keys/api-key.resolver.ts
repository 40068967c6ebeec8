import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { ApiKey } from './api-key.entity.js';
import { CreateApiKeyInput, CreatedApiKey, UpdateApiKeyInput } from './api-key.types.js';
import { ApiKeyService } from './api-key.service.js';

const ApiKeyPage = PageOf(ApiKey, 'ApiKey');

/** Key management is Admin only (DECISIONS). Keys act in the environment of the caller's key. */
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => ApiKeyPage, {
    description: 'API keys of this organization and environment (revoked ones too), newest first',
  })
  @RequirePermission(FEATURES.apiKeys.admin)
  apiKeys(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new ApiKeyService(ctx).listPage(page);
  }

  @Mutation(() => CreatedApiKey)
  @RequirePermission(FEATURES.apiKeys.admin)
  createApiKey(@Arg('input') input: CreateApiKeyInput, @Ctx() ctx: RequestContext) {
    return new ApiKeyService(ctx).create(input);
  }

  @Mutation(() => ApiKey, {
    description: 'Renames a key or replaces its IP allowlist; applies to the next request',
  })
  @RequirePermission(FEATURES.apiKeys.admin)
  updateApiKey(
    @Arg('id', () => GraphQLUUID) id: string,
    @Arg('input') input: UpdateApiKeyInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new ApiKeyService(ctx).update(id, input);
  }

  @Mutation(() => ApiKey, { description: 'Revokes a key; requests with it get 401 from then on' })
  @RequirePermission(FEATURES.apiKeys.admin)
  revokeApiKey(@Arg('id', () => GraphQLUUID) id: string, @Ctx() ctx: RequestContext) {
    return new ApiKeyService(ctx).revoke(id);
  }
}
