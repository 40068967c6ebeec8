import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { pageOffset } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity.js';
import { Webhook } from '../webhooks/webhook.entity.js';
import { revealedSecretOf, WebhookService } from '../webhooks/webhook.service.js';
import { displayUrl, INTEGRATION_ORDER, INTEGRATIONS } from './integration-catalog.js';
import { Integration, IntegrationType } from './integration.entity.js';
import {
  IntegrationStatus,
  type ConnectIntegrationInput,
  type IntegrationView,
} from './integration.types.js';

function statusOf(webhook: Webhook | null): IntegrationStatus {
  if (!webhook) return IntegrationStatus.NOT_CONNECTED;
  if (!webhook.enabled) return IntegrationStatus.DISABLED;
  return webhook.failingSince ? IntegrationStatus.FAILING : IntegrationStatus.CONNECTED;
}

function viewOf(
  type: IntegrationType,
  connection: { integration: Integration; webhook: Webhook; lastDelivery: WebhookDelivery | null } | null,
): IntegrationView {
  const definition = INTEGRATIONS[type];
  const webhook = connection?.webhook ?? null;
  const last = connection?.lastDelivery ?? null;
  return {
    type,
    name: definition.name,
    description: definition.description,
    connected: connection !== null,
    status: statusOf(webhook),
    connectedAt: connection?.integration.connectedAt ?? null,
    webhookId: webhook?.id ?? null,
    url: webhook ? displayUrl(definition, webhook.url) : null,
    events: webhook?.events ?? definition.defaultEvents,
    filter: webhook?.filter ?? null,
    lastDelivery: last && {
      id: last.id,
      event: last.event,
      status: last.status,
      statusCode: last.lastStatusCode,
      at: last.lastAttemptAt ?? last.createdAt,
    },
    secret: webhook && definition.acceptsHeaders ? revealedSecretOf(webhook) : null,
  };
}

/**
 * The integrations of settings (SPEC 4.2): each type is connected at most once per organization and
 * environment, and is carried by one webhook of its format (deliveries, retries, signing, the 410 and 5-day
 * rules all apply). Disconnecting deletes that webhook and its delivery log.
 */
export class IntegrationService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Every type, connected or not, in a fixed order (webhook, slack, teams). */
  async list(args: PageArgs): Promise<Page<IntegrationView>> {
    const integrations = await this.ctx.em.find(Integration, {});
    const webhookIds = integrations.map((integration) => integration.webhookId);
    const [webhooks, lastDeliveries] = await Promise.all([
      this.ctx.em.find(Webhook, { id: { $in: webhookIds } }),
      this.lastDeliveries(webhookIds),
    ]);
    const views = INTEGRATION_ORDER.map((type) => {
      const integration = integrations.find((candidate) => candidate.type === type);
      const webhook = integration && webhooks.find((candidate) => candidate.id === integration.webhookId);
      if (!integration || !webhook) return viewOf(type, null);
      return viewOf(type, { integration, webhook, lastDelivery: lastDeliveries.get(webhook.id) ?? null });
    });
    const offset = pageOffset(args);
    return {
      items: views.slice(offset, offset + args.limit),
      pageInfo: { page: args.page, limit: args.limit, total: views.length },
    };
  }

  async get(type: IntegrationType): Promise<IntegrationView> {
    const page = await this.list({ page: 1, limit: INTEGRATION_ORDER.length });
    return page.items.find((view) => view.type === type)!;
  }

  /** Checks the configuration (400 naming the field), then creates the webhook and the integration at once. */
  async connect(type: IntegrationType, input: ConnectIntegrationInput): Promise<IntegrationView> {
    const definition = INTEGRATIONS[type];
    if (!definition.acceptsHeaders && input.headers !== undefined && input.headers !== null)
      throw InvalidRequestError.field('headers', `is not used by the ${definition.name} integration`);
    try {
      return await this.ctx.em.transactional(async (em) => {
        if (await em.findOne(Integration, { type }, { fields: ['id'] }))
          throw new ConflictError(
            `The ${definition.name} integration is already connected; disconnect it first`,
            {
              type,
            },
          );
        const webhook = await new WebhookService({ ...this.ctx, em }).createWithFormat(
          {
            url: input.url,
            events: input.events ?? definition.defaultEvents,
            filter: input.filter,
            headers: input.headers,
          },
          definition.format,
          definition.urlRule,
        );
        const integration = new Integration(this.ctx.scope, {
          type,
          webhookId: webhook.id,
          connectedAt: this.ctx.clock.now(),
        });
        await em.persist(integration).flush();
        return viewOf(type, { integration, webhook, lastDelivery: null });
      });
    } catch (error) {
      // Two connects at once: the unique (organization, environment, type) settles it.
      if (error instanceof UniqueConstraintViolationException)
        throw new ConflictError(`The ${definition.name} integration is already connected`, { type });
      throw error;
    }
  }

  /** Deletes the integration's webhook (and with it the integration, deliveries and attempts). */
  async disconnect(type: IntegrationType): Promise<IntegrationView> {
    const integration = await this.ctx.em.findOne(Integration, { type });
    if (!integration) throw new NotFoundError('Connected integration', type);
    await this.ctx.em.nativeDelete(Webhook, { id: integration.webhookId });
    return viewOf(type, null);
  }

  /** The newest delivery of each webhook: one statement for ids, one for the rows. */
  private async lastDeliveries(webhookIds: string[]): Promise<Map<string, WebhookDelivery>> {
    if (webhookIds.length === 0) return new Map();
    const newest = await this.ctx.em.getConnection().execute<Array<{ id: string }>>(
      `select distinct on (webhook_id) id from webhook_deliveries
          where organization_id = ? and environment = ? and webhook_id in (?)
          order by webhook_id, created_at desc, id desc`,
      [this.ctx.scope.organizationId, this.ctx.scope.environment, webhookIds],
    );
    if (newest.length === 0) return new Map();
    const rows = await this.ctx.em.find(WebhookDelivery, { id: { $in: newest.map((row) => row.id) } });
    return new Map(rows.map((row) => [row.webhookId, row]));
  }
}
