import { type FieldProblem, ForbiddenError, invalid } from '../core/errors.js';
import {
  eventMatches,
  kindMatches,
  type EventPayload,
  type EventSelection,
} from '../core/events/event-filter.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Permission } from '../core/permissions.js';
import type { Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { assertPermission, hasPermission, type Viewer } from '../core/viewer.js';
import { severityOf, type EventFilterInput, type EventKindSubscriptionArgs } from './event-payload.types.js';
import { readPermissionOfKind, SUBSCRIBABLE_EVENT_KINDS } from './event-kinds.js';

export const MAX_EVENT_PATTERNS = 50;
export const MAX_TENANT_IDS = 100;
const PATTERN = /^[a-z0-9_.*]{1,100}$/;
const FAMILY_READ_PERMISSIONS = [Permission.READ_TENANTS, Permission.READ_USERS, Permission.READ_LICENSES];

/** Which events a subscription lets through, once its arguments are known to be sound. */
export type EventAcceptor = (event: EventPayload) => boolean;

function tenantProblems(field: string, tenantIds: readonly string[] | null | undefined): FieldProblem[] {
  return (tenantIds?.length ?? 0) > MAX_TENANT_IDS
    ? [{ field, problem: `must have at most ${MAX_TENANT_IDS} entries` }]
    : [];
}

function reject(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  throw invalid(problems, 'event filter');
}

/**
 * `events(filter)`: the viewer needs at least one read permission; each event then also needs the read
 * permission of its subject (users → read:users, licenses → read:licenses, the rest → read:tenants),
 * so a subscription never shows what a query would refuse. Patterns that match no kind are refused:
 * a typo would otherwise be a subscription that silently never fires.
 */
export function acceptorOfFilter(viewer: Viewer, filter: EventFilterInput | null | undefined): EventAcceptor {
  if (!FAMILY_READ_PERMISSIONS.some((permission) => hasPermission(viewer, permission)))
    throw new ForbiddenError(
      'Subscribing to events needs a read permission (read:tenants, read:users or read:licenses)',
      {
        required: FAMILY_READ_PERMISSIONS,
      },
    );
  const events = filter?.events ?? [];
  const problems: FieldProblem[] = [];
  if (events.length > MAX_EVENT_PATTERNS)
    problems.push({ field: 'filter.events', problem: `must have at most ${MAX_EVENT_PATTERNS} entries` });
  events.forEach((pattern, index) => {
    const field = `filter.events[${index}]`;
    if (!PATTERN.test(pattern))
      problems.push({
        field,
        problem: 'must be an event kind such as user.created, or a pattern such as security.* or *',
      });
    else if (!SUBSCRIBABLE_EVENT_KINDS.some((kind) => kindMatches(kind, [pattern])))
      problems.push({ field, problem: `matches no event kind (${SUBSCRIBABLE_EVENT_KINDS.join(', ')})` });
  });
  problems.push(...tenantProblems('filter.tenantIds', filter?.tenantIds));
  reject(problems);
  const selection: EventSelection = {
    events,
    tenantIds: filter?.tenantIds ?? null,
    minSeverity: severityOf(filter?.minSeverity),
  };
  return (event) =>
    hasPermission(viewer, readPermissionOfKind(event.event)) && eventMatches(event, selection);
}

/** A per-kind field (`userCreated`, ...): the read permission of that kind's subject, then its filters. */
export function acceptorOfKind(
  viewer: Viewer,
  kind: string,
  args: EventKindSubscriptionArgs | null | undefined,
): EventAcceptor {
  assertPermission(viewer, readPermissionOfKind(kind));
  reject(tenantProblems('tenantIds', args?.tenantIds));
  const selection: EventSelection = {
    events: [kind],
    tenantIds: args?.tenantIds ?? null,
    minSeverity: severityOf(args?.minSeverity),
  };
  return (event) => eventMatches(event, selection);
}

/**
 * Tenant ids of a filter must be tenants of the subscriber's organization and environment (400 naming each
 * other one), as for webhooks: a foreign id would never match, and its answer must not differ from that
 * of an id that does not exist. Checked after the permission and the filter's shape.
 */
export async function assertOwnTenants(
  em: EntityManager,
  scope: Scope,
  field: string,
  tenantIds: readonly string[] | null | undefined,
): Promise<void> {
  if (!tenantIds || tenantIds.length === 0) return;
  const found = await em.find(
    Tenant,
    { id: { $in: [...tenantIds] }, organizationId: scope.organizationId, environment: scope.environment },
    { fields: ['id'] },
  );
  const known = new Set(found.map((tenant) => tenant.id));
  reject(
    tenantIds.flatMap((id, index) =>
      known.has(id) ? [] : [{ field: `${field}[${index}]`, problem: 'is not a tenant of this organization' }],
    ),
  );
}
