/**
 * The event catalog of DECISIONS "Events", plus `webhook.disabled` (emitted when delivery gives up on
 * an endpoint, see docs/webhooks.md). Webhook subscriptions are validated against it and subscription
 * fields are generated from it, so neither can drift; kinds whose features do not exist yet are
 * declared all the same.
 */
export const EVENT_KINDS = [
  'tenant.synced',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.restored',
  'user.purged',
  'license.assigned',
  'license.removed',
  'alert.created',
  'alert.updated',
  'device.isolated',
  'device.released',
  'device.scan_completed',
  'restore.completed',
  'restore.failed',
  'connector.status_changed',
  'restricted_user.unblocked',
  'guest.invited',
  'recommendation.applied',
  'security.risky_signin',
  'webhook.test',
  'webhook.disabled',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

export const WEBHOOK_TEST_EVENT: EventKind = 'webhook.test';
export const WEBHOOK_DISABLED_EVENT: EventKind = 'webhook.disabled';

/** `webhook.test` is a ping addressed to one webhook, not news about the organization: subscribers never see it. */
export const WEBHOOK_ONLY_KINDS: ReadonlySet<string> = new Set<string>([WEBHOOK_TEST_EVENT]);

/** `user.created` → `user`: the subject whose feature area decides who may read the event (core/permissions.ts). */
export type EventSubject = EventKind extends `${infer Subject}.${string}` ? Subject : never;
