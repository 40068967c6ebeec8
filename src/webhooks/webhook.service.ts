import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError, NotFoundError } from '../core/errors.js';
import { WEBHOOK_TEST_EVENT } from '../core/events/event-kinds.js';
import { writeEventRow } from '../core/events/record-event.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity.js';
import { QUEUE_ATTEMPT_SQL } from './webhook-delivery.queue.js';
import { generateSigningSecret } from './webhook-signing.js';
import { checkWebhookFields, type CheckedWebhookFields, type CheckOptions } from './webhook.validation.js';
import { Webhook, WebhookFormat } from './webhook.entity.js';
import type { CreateWebhookInput, UpdateWebhookInput, WebhookFields } from './webhook.types.js';
import { MAX_DELIVERY_ATTEMPTS, webhookSettingsOf, type WebhookSettings } from './webhook.settings.js';

/**
 * A secret we generated, kept only on the object the create or rotate mutation returns (the GraphQL field
 * `secret` reads it): shown once, never returned again.
 */
const revealedSecrets = new WeakMap<Webhook, string>();

export function revealedSecretOf(webhook: Webhook): string | null {
  return revealedSecrets.get(webhook) ?? null;
}

/**
 * Webhooks of the caller's organization and environment (SPEC 4.1, DECISIONS "Events"). /v1/webhooks shows
 * the `standard` ones; the Slack and Teams integrations keep theirs (IntegrationService).
 */
export class WebhookService {
  private readonly settings: WebhookSettings;

  constructor(private readonly ctx: ServiceContext) {
    this.settings = webhookSettingsOf(ctx);
  }

  list(args: PageArgs): Promise<Page<Webhook>> {
    return findLeanPage(this.ctx, Webhook, { format: WebhookFormat.STANDARD }, args, {
      createdAt: 'desc',
      id: 'desc',
    });
  }

  /** Header values often carry the receiver's credentials: sealed at rest like the signing secret. */
  private sealHeaders(checked: CheckedWebhookFields): void {
    if (checked.headers) checked.headers = this.settings.secretBox.sealValues(checked.headers);
  }

  /** A webhook's headers as sent (values opened). */
  headersOf(webhook: Webhook): Record<string, string> {
    return this.settings.secretBox.openValues(webhook.headers ?? {});
  }

  async get(id: string, format: WebhookFormat = WebhookFormat.STANDARD): Promise<Webhook> {
    const webhook = await this.ctx.em.findOne(Webhook, { id, format });
    if (!webhook) throw new NotFoundError('Webhook', id);
    return webhook;
  }

  create(input: CreateWebhookInput): Promise<Webhook> {
    return this.createWithFormat(input, WebhookFormat.STANDARD);
  }

  /** Also for integrations (chat formats, their own URL rule), on the context's EntityManager. */
  async createWithFormat(
    input: WebhookFields,
    format: WebhookFormat,
    urlRule?: CheckOptions['urlRule'],
  ): Promise<Webhook> {
    const checked = await checkWebhookFields(this.ctx, input, { settings: this.settings, urlRule });
    this.sealHeaders(checked);
    const secret = generateSigningSecret();
    const webhook = new Webhook(this.ctx.scope, {
      // Both are required by the input types (GraphQL refuses their absence before we get here).
      url: checked.url!,
      events: checked.events!,
      signingSecret: this.settings.secretBox.seal(secret),
      format,
      now: this.ctx.clock.now(),
    });
    this.ctx.em.assign(webhook, checked);
    await this.ctx.em.persist(webhook).flush();
    revealedSecrets.set(webhook, secret);
    return webhook;
  }

  async update(id: string, input: UpdateWebhookInput): Promise<Webhook> {
    await this.get(id);
    const checked = await checkWebhookFields(this.ctx, input, { settings: this.settings });
    this.sealHeaders(checked);
    // Read–modify–write under the row's lock: two PATCHes at once both end up in effect.
    return this.ctx.em.transactional(async (em) => {
      const webhook = await this.lockedForChange(em, id);
      em.assign(webhook, checked);
      if (checked.enabled === true && webhook.disabledAt) {
        // Re-enabled by a person: a fresh start for the 5-day rule.
        webhook.disabledAt = null;
        webhook.disabledReason = null;
        webhook.failingSince = null;
      }
      webhook.updatedAt = this.ctx.clock.now();
      await em.flush();
      return webhook;
    });
  }

  /** The webhook, locked (FOR UPDATE) until the transaction ends, read fresh from the database. */
  private async lockedForChange(em: EntityManager, id: string): Promise<Webhook> {
    const webhook = await em.findOne(
      Webhook,
      { id, format: WebhookFormat.STANDARD },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!webhook) throw new NotFoundError('Webhook', id);
    return webhook;
  }

  /** Deletes the webhook with its deliveries and attempts (pending jobs then find nothing to do). */
  async delete(id: string, format: WebhookFormat = WebhookFormat.STANDARD): Promise<Webhook> {
    const webhook = await this.get(id, format);
    await this.ctx.em.remove(webhook).flush();
    return webhook;
  }

  /**
   * A new secret, returned once; the one it replaces keeps signing beside it for 24 hours (business clock),
   * so receivers can switch without missing a delivery. A second rotation within the 24 hours drops the
   * oldest secret.
   */
  async rotateSecret(id: string): Promise<Webhook> {
    await this.get(id);
    const secret = generateSigningSecret();
    // Under the row's lock: two rotations at once chain (the second keeps the first's secret as the
    // previous one) instead of both replacing the same old secret, which lost one of them.
    const webhook = await this.ctx.em.transactional(async (em) => {
      const locked = await this.lockedForChange(em, id);
      const now = this.ctx.clock.now();
      locked.previousSigningSecret = locked.signingSecret;
      locked.previousSecretExpiresAt = new Date(now.getTime() + this.settings.rotationOverlapMs);
      locked.signingSecret = this.settings.secretBox.seal(secret);
      locked.updatedAt = now;
      await em.flush();
      return locked;
    });
    revealedSecrets.set(webhook, secret);
    return webhook;
  }

  /** A `webhook.test` event to this webhook alone (other webhooks and subscribers never see it). */
  async sendTest(id: string): Promise<WebhookDelivery> {
    const webhook = await this.get(id);
    this.assertEnabled(webhook);
    return this.ctx.em.transactional(async (em) => {
      const event = await writeEventRow(em, this.ctx.scope, this.ctx.clock, this.ctx.publicUrl, {
        kind: WEBHOOK_TEST_EVENT,
        severity: 'informational',
        tenant: null,
        details: {
          webhookId: webhook.id,
          message: 'A test event: your endpoint receives and verifies deliveries',
        },
        actionPath: `/webhooks/${webhook.id}`,
      });
      const delivery = new WebhookDelivery(this.ctx.scope, {
        webhookId: webhook.id,
        eventId: event.id,
        event: WEBHOOK_TEST_EVENT,
        now: this.ctx.clock.now(),
      });
      await em.persist(delivery).flush();
      await em.execute(QUEUE_ATTEMPT_SQL, [delivery.id, 0]);
      return delivery;
    });
  }

  async listDeliveries(webhookId: string, args: PageArgs): Promise<Page<WebhookDelivery>> {
    await this.get(webhookId);
    return findLeanPage(this.ctx, WebhookDelivery, { webhookId }, args, { createdAt: 'desc', id: 'desc' });
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.get(webhookId);
    const delivery = await this.ctx.em.findOne(WebhookDelivery, { id: deliveryId, webhookId });
    if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
    return delivery;
  }

  /**
   * Sends a delivery again now, whatever its state, with the same event id (receivers that already have it
   * can tell). A finished delivery (Succeeded, Failed, Cancelled) gets one attempt: if it fails, it is Failed
   * again. A pending one is sent now instead of at its next retry, and keeps its schedule if this fails.
   */
  async resend(webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
    const webhook = await this.get(webhookId);
    this.assertEnabled(webhook);
    return this.ctx.em.transactional(async (em) => {
      const delivery = await em.findOne(WebhookDelivery, { id: deliveryId, webhookId });
      if (!delivery) throw new NotFoundError('Webhook delivery', deliveryId);
      // Re-sends are bounded so a delivery's attempts stay within MAX_DELIVERY_ATTEMPTS, which its log
      // (`attempts`) is costed at: the attempts so far, this one, and the automatic ones a Pending one may still make.
      const resendable = MAX_DELIVERY_ATTEMPTS - this.settings.retryScheduleMs.length - 1;
      if (delivery.attemptCount >= resendable)
        throw new ConflictError(
          `Delivery ${deliveryId} has had ${delivery.attemptCount} attempts; it may not be re-sent again ` +
            `(at most ${MAX_DELIVERY_ATTEMPTS} attempts per delivery)`,
          { reason: 'ATTEMPT_LIMIT', attemptCount: delivery.attemptCount, maximum: MAX_DELIVERY_ATTEMPTS },
        );
      // A pending delivery keeps its schedule if this attempt fails; a finished one gets this attempt only.
      delivery.manualAttempt = delivery.status !== DeliveryStatus.PENDING;
      // A finished delivery has no attempt in flight: a claim left on it (its webhook disabled during a batch)
      // must not keep this re-send's job from claiming it. A pending one's claim stands (its attempt is running).
      if (delivery.manualAttempt) Object.assign(delivery, { claimedBy: null, claimedUntil: null });
      delivery.status = DeliveryStatus.PENDING;
      delivery.nextAttemptAt = this.ctx.clock.now();
      delivery.completedAt = null;
      await em.flush();
      await em.execute(QUEUE_ATTEMPT_SQL, [delivery.id, 0]);
      return delivery;
    });
  }

  private assertEnabled(webhook: Webhook): void {
    if (!webhook.enabled)
      throw new ConflictError('The webhook is disabled; enable it first (PATCH enabled: true)', {
        webhookId: webhook.id,
        disabledReason: webhook.disabledReason,
      });
  }
}
