import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { IntegrationType } from './integration.entity.js';
import { IntegrationService } from './integration.service.js';
import { ConnectIntegrationInput, IntegrationView } from './integration.types.js';

const IntegrationPage = PageOf(IntegrationView, 'Integration');

const typeArg = () => Arg('type', () => IntegrationType);

/** Reading needs read:tenants; connecting and disconnecting manage webhooks and their secrets: Admin. */
@Resolver(() => IntegrationView)
export class IntegrationResolver {
  @Query(() => IntegrationPage, { description: 'Every integration type, connected or not, with its state' })
  @RequirePermission(FEATURES.integrations.read)
  integrations(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new IntegrationService(ctx).list(page);
  }

  @Query(() => IntegrationView)
  @RequirePermission(FEATURES.integrations.read)
  integration(@typeArg() type: IntegrationType, @Ctx() ctx: RequestContext) {
    return new IntegrationService(ctx).get(type);
  }

  @Mutation(() => IntegrationView, {
    description:
      'Connects an integration (its configuration is checked first); 409 when it is already connected',
  })
  @RequirePermission(FEATURES.integrations.admin)
  connectIntegration(
    @typeArg() type: IntegrationType,
    @Arg('input', () => ConnectIntegrationInput) input: ConnectIntegrationInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new IntegrationService(ctx).connect(type, input);
  }

  @Mutation(() => IntegrationView, {
    description: 'Disconnects an integration, deleting its webhook and delivery log',
  })
  @RequirePermission(FEATURES.integrations.admin)
  disconnectIntegration(@typeArg() type: IntegrationType, @Ctx() ctx: RequestContext) {
    return new IntegrationService(ctx).disconnect(type);
  }
}
