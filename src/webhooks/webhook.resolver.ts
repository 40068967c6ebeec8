import { GraphQLJSONObject, GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import type { EventPayload } from '../core/events/event-filter.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { FEATURES, readRequirementOfEvent } from '../core/permissions.js';
import { meetsRequirement } from '../core/viewer.js';
import { EventPayloadType } from '../subscriptions/event-payload.types.js';
import { WebhookAttempt, WebhookDelivery } from './webhook-delivery.entity.js';
import { CreateWebhookInput, UpdateWebhookInput } from './webhook.types.js';
import { deliveryAttemptsLoader, eventPayloadLoader } from './webhook.loaders.js';
import { revealedSecretOf, WebhookService } from './webhook.service.js';
import { Webhook } from './webhook.entity.js';
import { SECRET_ROTATION_OVERLAP_HOURS } from './webhook.settings.js';

const WebhookPage = PageOf(Webhook, 'Webhook');
const WebhookDeliveryPage = PageOf(WebhookDelivery, 'WebhookDelivery');

const idArg = () => Arg('id', () => GraphQLUUID);
const webhookIdArg = () => Arg('webhookId', () => GraphQLUUID);

/** Header values often hold the receiver's credentials: only Admin callers (secret management) see them. */
export const REDACTED = '[redacted]';

/**
 * Webhooks belong to the organization. Reading them needs read:tenants (every Read key); creating,
 * changing, rotating and deleting need Admin (DECISIONS: webhook secret management is Admin); a test ping
 * and a re-send need write:tenants (every Write key).
 */
@Resolver(() => Webhook)
export class WebhookResolver {
  @Query(() => WebhookPage, { description: 'Webhooks of this organization and environment, newest first' })
  @RequirePermission(FEATURES.webhooks.read)
  webhooks(@Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).list(page);
  }

  @Query(() => Webhook)
  @RequirePermission(FEATURES.webhooks.read)
  webhook(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).get(id);
  }

  @Mutation(() => Webhook, { description: 'Creates a webhook; the response carries its secret, this once' })
  @RequirePermission(FEATURES.webhooks.admin)
  createWebhook(
    @Arg('input', () => CreateWebhookInput) input: CreateWebhookInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new WebhookService(ctx).create(input);
  }

  @Mutation(() => Webhook, {
    description: 'Changes the given fields; enabled: true re-enables a disabled webhook',
  })
  @RequirePermission(FEATURES.webhooks.admin)
  updateWebhook(
    @idArg() id: string,
    @Arg('input', () => UpdateWebhookInput) input: UpdateWebhookInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new WebhookService(ctx).update(id, input);
  }

  @Mutation(() => Webhook, { description: 'Deletes a webhook with its delivery log' })
  @RequirePermission(FEATURES.webhooks.admin)
  deleteWebhook(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).delete(id);
  }

  @Mutation(() => Webhook, {
    description: `A new signing secret (returned this once); the old one keeps signing beside it for ${SECRET_ROTATION_OVERLAP_HOURS} hours`,
  })
  @RequirePermission(FEATURES.webhooks.admin)
  rotateWebhookSecret(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).rotateSecret(id);
  }

  @Mutation(() => WebhookDelivery, { description: 'Sends a webhook.test event to this webhook alone' })
  @RequirePermission(FEATURES.webhooks.write)
  sendWebhookTest(@idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).sendTest(id);
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The signing secret (whsec_...): only in the responses of createWebhook and rotateWebhookSecret',
  })
  secret(@Root() webhook: Webhook): string | null {
    return revealedSecretOf(webhook);
  }

  @FieldResolver(() => GraphQLJSONObject, {
    description: `Headers sent with every delivery; values read "${REDACTED}" without the Admin permission`,
  })
  headers(@Root() webhook: Webhook, @Ctx() ctx: RequestContext): Record<string, string> {
    // What the field shows, not whether it answers: the row of administering webhooks (Admin).
    if (meetsRequirement(ctx.viewer, FEATURES.webhooks.admin))
      return new WebhookService(ctx).headersOf(webhook);
    return Object.fromEntries(Object.keys(webhook.headers ?? {}).map((name) => [name, REDACTED]));
  }
}

@Resolver(() => WebhookDelivery)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryPage, { description: 'The delivery log of a webhook, newest first' })
  @RequirePermission(FEATURES.webhooks.read)
  webhookDeliveries(@webhookIdArg() webhookId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).listDeliveries(webhookId, page);
  }

  @Query(() => WebhookDelivery)
  @RequirePermission(FEATURES.webhooks.read)
  webhookDelivery(@webhookIdArg() webhookId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).getDelivery(webhookId, id);
  }

  @Mutation(() => WebhookDelivery, { description: 'Sends a delivery again now, with the same event id' })
  @RequirePermission(FEATURES.webhooks.write)
  resendWebhookDelivery(@webhookIdArg() webhookId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new WebhookService(ctx).resend(webhookId, id);
  }

  @FieldResolver(() => [WebhookAttempt], { description: 'Every attempt, first first' })
  attempts(@Root() delivery: WebhookDelivery, @Ctx() ctx: RequestContext): Promise<WebhookAttempt[]> {
    return ctx.loaders.get(deliveryAttemptsLoader).load(delivery.id);
  }

  /**
   * The event's body shows what a query of its subject would (the rule of subscriptions): a credential
   * without that subject's read permission (read:users for user.*, read:licenses for license.*, ...) sees
   * the delivery and its attempts, not the event's contents.
   */
  @FieldResolver(() => EventPayloadType, {
    nullable: true,
    description:
      "The event the delivery carries. Null when the caller lacks the read permission of the event's subject " +
      '(read:users for user.*, guest.*, restricted_user.*; read:licenses for license.*; read:tenants otherwise)',
  })
  payload(@Root() delivery: WebhookDelivery, @Ctx() ctx: RequestContext): Promise<EventPayload | null> {
    if (!meetsRequirement(ctx.viewer, readRequirementOfEvent(delivery.event))) return Promise.resolve(null);
    return ctx.loaders.get(eventPayloadLoader).load(delivery.eventId);
  }
}
