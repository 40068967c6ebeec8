import type { EventSeverity } from './domain-event.entity.js';

/** Least to most severe; `minSeverity` keeps events at or above a level. */
export const SEVERITY_ORDER: readonly EventSeverity[] = [
  'informational',
  'low',
  'medium',
  'high',
  'critical',
];

/** The payload of SPEC 6 plus `id` (DECISIONS): the same body for webhooks and subscriptions. */
export interface EventPayload {
  id: string;
  event: string;
  severity: EventSeverity;
  tenant: { id: string; name: string; domain: string } | null;
  details: Record<string, unknown>;
  timestamp: string;
  actionUrl: string;
}

/** What a webhook or a subscriber asks for (DECISIONS "Events"). */
export interface EventSelection {
  /** Event kinds; `*` matches any run of characters, e.g. `security.*` or `*`. Empty: every kind. */
  events: readonly string[];
  /** Only events of these tenants (empty or absent: every tenant, and events without a tenant). */
  tenantIds?: readonly string[] | null;
  minSeverity?: EventSeverity | null;
}

const patternCache = new Map<string, RegExp>();

function patternOf(kindPattern: string): RegExp {
  let pattern = patternCache.get(kindPattern);
  if (!pattern) {
    const escaped = kindPattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    pattern = new RegExp(`^${escaped}$`);
    patternCache.set(kindPattern, pattern);
  }
  return pattern;
}

export function kindMatches(kind: string, patterns: readonly string[]): boolean {
  return patterns.length === 0 || patterns.some((pattern) => patternOf(pattern).test(kind));
}

export function severityAtLeast(severity: EventSeverity, minimum: EventSeverity | null | undefined): boolean {
  return !minimum || SEVERITY_ORDER.indexOf(severity) >= SEVERITY_ORDER.indexOf(minimum);
}

/** The one rule deciding whether an event goes to a webhook or a subscriber. */
export function eventMatches(
  event: Pick<EventPayload, 'event' | 'severity' | 'tenant'>,
  selection: EventSelection,
): boolean {
  if (!kindMatches(event.event, selection.events)) return false;
  if (!severityAtLeast(event.severity, selection.minSeverity)) return false;
  const tenantIds = selection.tenantIds ?? [];
  return tenantIds.length === 0 || (event.tenant !== null && tenantIds.includes(event.tenant.id));
}
