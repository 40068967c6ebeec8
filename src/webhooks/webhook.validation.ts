import { isIP } from 'node:net';
import { type FieldProblem, invalid } from '../core/errors.js';
import type { EventSeverity } from '../core/events/domain-event.entity.js';
import { kindMatches } from '../core/events/event-filter.js';
import type { ServiceContext } from '../core/service-context.js';
import { EVENT_KINDS } from '../core/events/event-kinds.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { MAX_EVENT_PATTERNS, MAX_HEADERS, MAX_TENANT_IDS, type WebhookFields } from './webhook.types.js';
import type { WebhookSettings } from './webhook.settings.js';
import {
  assertPublicTarget,
  hostOf,
  isNonPublicAddress,
  parseWebhookUrl,
  UnsafeTargetError,
} from './webhook-url.js';

const MAX_HEADER_VALUE_LENGTH = 1024;
const EVENT_PATTERN = /^[a-z0-9_.*]{1,100}$/;
/**
 * What Node's HTTP client refuses in a header value (ERR_INVALID_CHAR): control characters other than tab,
 * DEL, and anything beyond Latin-1. A value it would refuse would fail every delivery, so it is refused here.
 */
const INVALID_HEADER_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers the service sets itself, or that would break the HTTP exchange. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/** A webhook's fields once checked, in storage form; absent fields do not change. */
export interface CheckedWebhookFields {
  url?: string;
  events?: string[];
  filterTenantIds?: string[];
  filterMinSeverity?: EventSeverity | null;
  headers?: Record<string, string>;
  enabled?: boolean;
}

export interface CheckOptions {
  settings: WebhookSettings;
  /** A further rule on the URL (the integrations' host rules); returns the problem, or null. */
  urlRule?: (url: URL) => string | null;
}

function eventProblems(events: string[]): FieldProblem[] {
  if (events.length === 0)
    return [{ field: 'events', problem: 'must list at least one event kind (* for every kind)' }];
  if (events.length > MAX_EVENT_PATTERNS)
    return [{ field: 'events', problem: `must have at most ${MAX_EVENT_PATTERNS} entries` }];
  return events.flatMap((pattern, index) => {
    const field = `events[${index}]`;
    if (!EVENT_PATTERN.test(pattern))
      return [
        {
          field,
          problem: 'must be an event kind such as user.created, or a pattern such as security.* or *',
        },
      ];
    if (!EVENT_KINDS.some((kind) => kindMatches(kind, [pattern])))
      return [{ field, problem: `matches no event kind (known kinds: ${EVENT_KINDS.join(', ')})` }];
    return [];
  });
}

function headerProblems(headers: Record<string, unknown>): FieldProblem[] {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS)
    return [{ field: 'headers', problem: `must have at most ${MAX_HEADERS} entries` }];
  const seen = new Set<string>();
  return names.flatMap((name) => {
    const field = `headers.${name}`;
    const value = headers[name];
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) return [{ field, problem: 'is not a valid HTTP header name' }];
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-'))
      return [{ field, problem: 'is set by the service and cannot be given' }];
    if (seen.has(lower)) return [{ field, problem: 'is given twice (header names ignore case)' }];
    seen.add(lower);
    if (typeof value !== 'string') return [{ field, problem: 'must be a string' }];
    if (value.length > MAX_HEADER_VALUE_LENGTH)
      return [{ field, problem: `must be at most ${MAX_HEADER_VALUE_LENGTH} characters long` }];
    if (/[\r\n\0]/.test(value)) return [{ field, problem: 'must not contain line breaks or NUL' }];
    if (INVALID_HEADER_VALUE_CHAR.test(value))
      return [
        {
          field,
          problem:
            'must hold printable Latin-1 characters only (no control characters, no characters beyond U+00FF)',
        },
      ];
    return [];
  });
}

async function tenantProblems(ctx: ServiceContext, tenantIds: string[]): Promise<FieldProblem[]> {
  if (tenantIds.length > MAX_TENANT_IDS)
    return [{ field: 'filter.tenantIds', problem: `must have at most ${MAX_TENANT_IDS} entries` }];
  if (tenantIds.length === 0) return [];
  const found = await ctx.em.find(Tenant, { id: { $in: tenantIds } }, { fields: ['id'] });
  const known = new Set(found.map((tenant) => tenant.id));
  return tenantIds.flatMap((id, index) =>
    known.has(id)
      ? []
      : [{ field: `filter.tenantIds[${index}]`, problem: `is not a tenant of this organization` }],
  );
}

function isLocalTarget(url: URL): boolean {
  const host = hostOf(url);
  return host === 'localhost' || (isIP(host) !== 0 && isNonPublicAddress(host));
}

/** The URL's shape and the integration's host rule: no network. Returns the problem or the parsed URL. */
function urlShape(raw: string, options: CheckOptions): { url: URL } | { problem: string } {
  const parsed = parseWebhookUrl(raw);
  if ('problem' in parsed) return parsed;
  const ruleProblem = options.urlRule?.(parsed.url);
  // Where private targets are allowed (development, tests), a local receiver may stand in for Slack or Teams.
  if (ruleProblem && !(options.settings.allowPrivateTargets && isLocalTarget(parsed.url)))
    return { problem: ruleProblem };
  return parsed;
}

/** Where the URL leads (DNS): every address must be public. */
async function targetProblems(url: URL, options: CheckOptions): Promise<FieldProblem[]> {
  if (options.settings.allowPrivateTargets) return [];
  try {
    await assertPublicTarget(url, options.settings.resolveHost);
    return [];
  } catch (error) {
    if (error instanceof UnsafeTargetError) return [{ field: 'url', problem: error.message }];
    throw error;
  }
}

const notNull = (field: string): FieldProblem => ({ field, problem: 'cannot be null' });

/**
 * Checks every given field and reports all problems at once (400 INVALID_REQUEST naming each field); the
 * URL's target is resolved last, and only when nothing else is wrong:
 * URL shape and target (DNS resolved, every address public), event patterns that match a known kind,
 * tenant ids of this organization, header names and values.
 */
export async function checkWebhookFields(
  ctx: ServiceContext,
  fields: WebhookFields,
  options: CheckOptions,
): Promise<CheckedWebhookFields> {
  const checked: CheckedWebhookFields = {};
  const problems: FieldProblem[] = [];
  let target: URL | null = null;
  if (fields.url === null) problems.push(notNull('url'));
  else if (fields.url !== undefined) {
    checked.url = fields.url.trim();
    const shape = urlShape(checked.url, options);
    if ('problem' in shape) problems.push({ field: 'url', problem: shape.problem });
    // An address literal is checked at once (no lookup); a host name waits until the rest is valid.
    else if (isIP(hostOf(shape.url))) problems.push(...(await targetProblems(shape.url, options)));
    else target = shape.url;
  }
  if (fields.events === null) problems.push(notNull('events'));
  else if (fields.events !== undefined) {
    checked.events = [...new Set(fields.events.map((pattern) => pattern.trim()))];
    problems.push(...eventProblems(checked.events));
  }
  if (fields.filter !== undefined) {
    checked.filterTenantIds = [...new Set(fields.filter?.tenantIds ?? [])];
    checked.filterMinSeverity = fields.filter?.minSeverity ?? null;
    problems.push(...(await tenantProblems(ctx, checked.filterTenantIds)));
  }
  if (fields.headers !== undefined) {
    checked.headers = (fields.headers ?? {}) as Record<string, string>;
    problems.push(...headerProblems(checked.headers));
  }
  if (fields.enabled === null) problems.push(notNull('enabled'));
  else if (fields.enabled !== undefined) checked.enabled = fields.enabled;
  // The DNS lookup (up to resolveTimeoutMs) is the slow part: only input that is otherwise valid waits for it.
  if (problems.length === 0 && target) problems.push(...(await targetProblems(target, options)));
  if (problems.length > 0) throw invalid(problems, 'webhook');
  return checked;
}
