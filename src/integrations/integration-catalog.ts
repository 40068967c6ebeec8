import { WebhookFormat } from '../webhooks/webhook.entity.js';
import { IntegrationType } from './integration.entity.js';

/** What one integration type is: its name, its webhook format, its default events, its URL rule. */
export interface IntegrationDefinition {
  type: IntegrationType;
  name: string;
  description: string;
  format: WebhookFormat;
  /** Events when the connect request names none. */
  defaultEvents: string[];
  /** Custom headers make sense for a receiver of ours, not for a chat service's incoming webhook. */
  acceptsHeaders: boolean;
  /** The URL must be one the chat service hands out; returns the problem, or null. */
  urlRule?: (url: URL) => string | null;
}

/** Events a channel of people wants by default: security news and trouble, not every directory change. */
const CHAT_DEFAULT_EVENTS = ['security.*', 'alert.*', 'restore.failed', 'webhook.disabled'];

const SLACK_HOSTS = new Set(['hooks.slack.com', 'hooks.slack-gov.com']);
/**
 * The paths Slack hands out: an incoming webhook `/services/T<team>/B<bot>/<token>`, a Workflow Builder
 * webhook `/workflows/T<team>/A<app>/<number>/<token>`, a trigger `/triggers/T<team>/<number>/<token>`
 * (E<enterprise> for Enterprise Grid).
 */
const SLACK_PATHS = [
  /^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+\/?$/,
  /^\/workflows\/[TE][A-Z0-9]+\/A[A-Z0-9]+\/\d+\/[A-Za-z0-9]+\/?$/,
  /^\/triggers\/[TE][A-Z0-9]+\/\d+\/[A-Za-z0-9]+\/?$/,
];
/** Office 365 connector webhooks, and Teams workflow (Power Automate) webhooks. */
const TEAMS_HOST_SUFFIXES = ['.webhook.office.com', '.logic.azure.com', '.api.powerplatform.com'];

export const INTEGRATIONS: Record<IntegrationType, IntegrationDefinition> = {
  [IntegrationType.WEBHOOK]: {
    type: IntegrationType.WEBHOOK,
    name: 'Webhook',
    description: 'Signed JSON deliveries of the chosen events to your endpoint (Standard Webhooks)',
    format: WebhookFormat.STANDARD,
    defaultEvents: ['*'],
    acceptsHeaders: true,
  },
  [IntegrationType.SLACK]: {
    type: IntegrationType.SLACK,
    name: 'Slack',
    description: 'Readable messages in a Slack channel, through an incoming webhook',
    format: WebhookFormat.SLACK,
    defaultEvents: CHAT_DEFAULT_EVENTS,
    acceptsHeaders: false,
    urlRule: (url) =>
      url.protocol === 'https:' &&
      SLACK_HOSTS.has(url.hostname) &&
      SLACK_PATHS.some((path) => path.test(url.pathname))
        ? null
        : 'must be a Slack incoming-webhook URL (https://hooks.slack.com/services/T.../B.../<token>, or a workflow or trigger URL)',
  },
  [IntegrationType.TEAMS]: {
    type: IntegrationType.TEAMS,
    name: 'Microsoft Teams',
    description: 'Adaptive Card messages in a Teams channel, through an incoming webhook or a workflow',
    format: WebhookFormat.TEAMS,
    defaultEvents: CHAT_DEFAULT_EVENTS,
    acceptsHeaders: false,
    urlRule: (url) =>
      url.protocol === 'https:' && TEAMS_HOST_SUFFIXES.some((suffix) => url.hostname.endsWith(suffix))
        ? null
        : 'must be a Microsoft Teams incoming-webhook URL (https://<tenant>.webhook.office.com/... or a workflow URL)',
  },
};

export const INTEGRATION_ORDER: readonly IntegrationType[] = [
  IntegrationType.WEBHOOK,
  IntegrationType.SLACK,
  IntegrationType.TEAMS,
];

/** Chat URLs carry their credential in the path: listings show the host and the last characters only. */
export function displayUrl(definition: IntegrationDefinition, url: string): string {
  if (definition.format === WebhookFormat.STANDARD) return url;
  const parsed = new URL(url);
  const tail = parsed.pathname.replace(/\/+$/, '').slice(-4);
  return `${parsed.protocol}//${parsed.host}/…${tail}`;
}
