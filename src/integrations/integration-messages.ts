import type { EventPayload } from '../core/events/event-filter.js';

/** Titles people read in a chat channel; other kinds are spelled out from their name. */
const TITLES: Record<string, string> = {
  'security.risky_signin': 'Risky sign-in detected',
  'tenant.synced': 'Tenant synced',
  'webhook.test': 'Test message from MSP Admin',
  'webhook.disabled': 'A webhook was disabled',
  'device.scan_completed': 'Device scan completed',
  'restricted_user.unblocked': 'Restricted user unblocked',
  'connector.status_changed': 'Compliance connector status changed',
  'alert.created': 'Security alert raised',
  'alert.updated': 'Security alert updated',
  'device.isolated': 'Device isolated',
  'device.released': 'Device released from isolation',
};

/** `license.assigned` → "License assigned". */
export function titleOf(kind: string): string {
  const known = TITLES[kind];
  if (known) return known;
  const words = kind.replace(/[._]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const MAX_FACTS = 10;
const MAX_VALUE_LENGTH = 200;

function factValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}

/** `ipAddress` → "IP address", `riskLevel` → "Risk level". */
function labelOf(key: string): string {
  const spaced = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\bip\b/, 'IP')
    .replace(/\bid\b/, 'ID');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

interface Fact {
  title: string;
  value: string;
}

/** Severity, tenant and the event's details (simple values first, at most ten), as label/value pairs. */
export function factsOf(payload: EventPayload): Fact[] {
  const facts: Fact[] = [{ title: 'Severity', value: payload.severity }];
  if (payload.tenant)
    facts.push({ title: 'Tenant', value: `${payload.tenant.name} (${payload.tenant.domain})` });
  const details = Object.entries(payload.details ?? {}).filter(
    ([, value]) => value !== null && value !== undefined,
  );
  details.sort(([, a], [, b]) => Number(typeof a === 'object') - Number(typeof b === 'object'));
  for (const [key, value] of details.slice(0, MAX_FACTS))
    facts.push({ title: labelOf(key), value: factValue(value) });
  return facts;
}

/** Slack's mrkdwn treats these three as control characters. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A Slack incoming-webhook message: `text` for notifications, `blocks` for the channel. */
export function slackMessage(payload: EventPayload): Record<string, unknown> {
  const title = titleOf(payload.event);
  const facts = factsOf(payload);
  const tenant = payload.tenant ? ` · ${payload.tenant.name}` : '';
  return {
    text: `${title}${tenant} (${payload.severity})`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150) } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: facts.map((fact) => `*${slackEscape(fact.title)}:* ${slackEscape(fact.value)}`).join('\n'),
        },
      },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `${slackEscape(payload.event)} · ${payload.timestamp}` }],
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in MSP Admin' },
            url: payload.actionUrl,
          },
        ],
      },
    ],
  };
}

/**
 * A Microsoft Teams message with an Adaptive Card, the format both Teams workflow webhooks and
 * Office 365 connector webhooks accept.
 */
export function teamsMessage(payload: EventPayload): Record<string, unknown> {
  return {
    type: 'message',
    summary: titleOf(payload.event),
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: titleOf(payload.event), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'FactSet', facts: factsOf(payload) },
            {
              type: 'TextBlock',
              text: `${payload.event} · ${payload.timestamp}`,
              isSubtle: true,
              wrap: true,
            },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open in MSP Admin', url: payload.actionUrl }],
        },
      },
    ],
  };
}

/** The body of a chat integration's delivery. */
export function chatMessageBody(format: string, payload: EventPayload): string {
  return JSON.stringify(format === 'slack' ? slackMessage(payload) : teamsMessage(payload));
}
