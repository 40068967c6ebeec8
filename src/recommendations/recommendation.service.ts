import { LockMode } from '@mikro-orm/postgresql';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors.js';
import { DAY_MS } from '../core/clock.js';
import type { Page } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { tenantIdsOfGroup } from '../tenants/tenant-group-filter.js';
import {
  RECOMMENDATION_CATALOG,
  recommendationDefinition,
  type RecommendationDefinition,
} from './recommendation.catalog.js';
import { RecommendationSeverity, RecommendationStatus, SNOOZE_DAYS } from './recommendation.enums.js';
import { parseRecommendationFilter, type RecommendationFilter } from './recommendation-filter.js';
import type {
  RecommendationListArgs,
  RecommendationTenantState,
  SecurityRecommendation,
} from './recommendation.types.js';
import { RecommendationStatusChange, TenantRecommendation } from './tenant-recommendation.entity.js';
import { requireTenants } from './tenant-selection.js';
import { checkAll } from '../core/field-checks.js';

/** SPEC 3.3 moves (DECISIONS: every move not listed is 409): to each status, the statuses it may come from. */
const ALLOWED_MOVES: Record<RecommendationStatus, RecommendationStatus[]> = {
  [RecommendationStatus.OPEN]: [RecommendationStatus.DISMISSED, RecommendationStatus.SNOOZED],
  [RecommendationStatus.DISMISSED]: [RecommendationStatus.OPEN],
  [RecommendationStatus.SNOOZED]: [RecommendationStatus.OPEN],
  // Only an apply operation moves a tenant into and out of In Progress.
  [RecommendationStatus.IN_PROGRESS]: [],
};

const SEVERITY_ORDER = Object.values(RecommendationSeverity);
/** Which status stands for the recommendation when its tenants differ: the one needing attention first. */
const STATUS_PRECEDENCE = [
  RecommendationStatus.OPEN,
  RecommendationStatus.IN_PROGRESS,
  RecommendationStatus.SNOOZED,
  RecommendationStatus.DISMISSED,
];

interface AffectedRow {
  recommendation_id: string;
  tenants: Array<
    Omit<RecommendationTenantState, 'snoozedUntil' | 'statusChangedAt'> & {
      snoozedUntil: string | null;
      statusChangedAt: string | null;
    }
  >;
}

export type StatusMove =
  | { to: RecommendationStatus.DISMISSED; reason: string }
  | { to: RecommendationStatus.SNOOZED; days: number }
  | { to: RecommendationStatus.OPEN };

/**
 * Security recommendations across the organization's tenants (SPEC 2.6, 3.3, 4.2, 4.3): the catalog's text
 * with each tenant's state (tenant_recommendations, filled by sync and apply) and the status moves, each
 * kept in recommendation_status_changes.
 */
export class RecommendationService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * One aggregate statement (a row per recommendation, its affected tenants folded in), then the catalog
   * is filtered, ordered (severity, then points) and paged in memory: the catalog is small and fixed, so
   * the cost does not grow with the page size.
   */
  async list(args: RecommendationListArgs): Promise<Page<SecurityRecommendation>> {
    const filter = parseRecommendationFilter(args);
    if (filter.tenantIds) await requireTenants(this.ctx, filter.tenantIds);
    if (args.tenantGroupId) filter.tenantIds = await this.inGroup(args.tenantGroupId, filter.tenantIds);
    const affected = await this.affected(filter);
    const items = RECOMMENDATION_CATALOG.filter(
      (definition) =>
        (!filter.severities || filter.severities.has(definition.severity)) &&
        (!filter.category || filter.category === definition.category) &&
        affected.has(definition.id),
    )
      .sort(
        (a, b) =>
          SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
          b.scoreImpact - a.scoreImpact ||
          a.id.localeCompare(b.id),
      )
      .map((definition) => this.view(definition, affected.get(definition.id)!));
    const offset = (args.page - 1) * args.limit;
    return {
      items: items.slice(offset, offset + args.limit),
      pageInfo: { page: args.page, limit: args.limit, total: items.length },
    };
  }

  /** One recommendation with its affected tenants among `tenantIds` (all when absent). */
  async get(id: string, tenantIds?: string[]): Promise<SecurityRecommendation> {
    const definition = this.definition(id);
    const affected = await this.affected({ tenantIds }, id);
    return this.view(definition, affected.get(id) ?? []);
  }

  /**
   * Moves the recommendation's status in each named tenant, all or nothing: one tenant whose move SPEC 3.3
   * does not allow (or that meets the recommendation already) refuses the whole request with 409.
   */
  async move(id: string, tenantIds: string[], move: StatusMove): Promise<SecurityRecommendation> {
    this.definition(id);
    checkAll(
      () => {
        if (tenantIds.length === 0)
          throw InvalidRequestError.field('tenantIds', 'must name at least one tenant');
      },
      () => {
        if (
          move.to === RecommendationStatus.DISMISSED &&
          (move.reason.trim() === '' || move.reason.length > 1000)
        )
          throw InvalidRequestError.field(
            'reason',
            'is required: 1 to 1000 characters saying why it is dismissed',
          );
      },
      () => {
        if (
          move.to === RecommendationStatus.SNOOZED &&
          !(SNOOZE_DAYS as readonly number[]).includes(move.days)
        )
          throw InvalidRequestError.field('days', 'must be 7, 30 or 90');
      },
    );
    await requireTenants(this.ctx, tenantIds);
    const now = this.ctx.clock.now();
    await this.ctx.em.transactional(async (em) => {
      const rows = await em.find(
        TenantRecommendation,
        { recommendationId: id, tenantId: { $in: tenantIds } },
        { lockMode: LockMode.PESSIMISTIC_WRITE, orderBy: { tenantId: 'asc' }, refresh: true },
      );
      const byTenant = new Map(rows.map((row) => [row.tenantId, row]));
      for (const tenantId of tenantIds) {
        const row = byTenant.get(tenantId.toLowerCase());
        if (!row || row.compliant) {
          throw new ConflictError(
            `Tenant ${tenantId} already meets recommendation ${id} (or has not been synced)`,
            {
              tenantId,
              to: move.to,
              compliant: true,
            },
          );
        }
        const allowedFrom = ALLOWED_MOVES[move.to];
        if (!allowedFrom.includes(row.status)) {
          throw new ConflictError(
            `Recommendation ${id} cannot move from ${row.status} to ${move.to} in tenant ${tenantId}`,
            {
              tenantId,
              from: row.status,
              to: move.to,
              allowed: movesFrom(row.status),
            },
          );
        }
        em.persist(
          em.create(RecommendationStatusChange, {
            organizationId: row.organizationId,
            environment: row.environment,
            tenantId: row.tenantId,
            recommendationId: id,
            fromStatus: row.status,
            toStatus: move.to,
            reason: move.to === RecommendationStatus.DISMISSED ? move.reason.trim() : null,
            snoozeDays: move.to === RecommendationStatus.SNOOZED ? move.days : null,
            changedBy: this.ctx.actor,
            changedAt: now,
          }),
        );
        em.assign(row, {
          status: move.to,
          snoozedUntil:
            move.to === RecommendationStatus.SNOOZED ? new Date(now.getTime() + move.days * DAY_MS) : null,
          dismissReason: move.to === RecommendationStatus.DISMISSED ? move.reason.trim() : null,
          statusChangedBy: this.ctx.actor,
          statusChangedAt: now,
          updatedAt: now,
        });
      }
    });
    return this.get(id, tenantIds);
  }

  definition(id: string): RecommendationDefinition {
    const definition = recommendationDefinition(id);
    if (!definition) throw new NotFoundError('Recommendation', id);
    return definition;
  }

  /** The group's members, narrowed to `tenantIds` when both are given (the shared tenant-group rule). */
  private async inGroup(tenantGroupId: string, tenantIds: string[] | undefined): Promise<string[]> {
    const members = await tenantIdsOfGroup(this.ctx, tenantGroupId);
    return tenantIds ? members.filter((id) => tenantIds.includes(id)) : members;
  }

  private async affected(
    filter: RecommendationFilter,
    onlyId?: string,
  ): Promise<Map<string, AffectedRow['tenants']>> {
    const { scope } = this.ctx;
    const conditions = ['organization_id = ?', 'environment = ?', 'compliant = false'];
    const params: unknown[] = [scope.organizationId, scope.environment];
    if (filter.tenantIds) {
      if (filter.tenantIds.length === 0) return new Map();
      conditions.push('tenant_id in (?)');
      params.push(filter.tenantIds);
    }
    if (filter.status) {
      conditions.push('status = ?');
      params.push(filter.status);
    }
    if (onlyId) {
      conditions.push('recommendation_id = ?');
      params.push(onlyId);
    }
    const rows = await this.ctx.em.getConnection().execute<AffectedRow[]>(
      `select recommendation_id,
              json_agg(json_build_object('tenantId', tenant_id, 'status', status, 'applySupported', apply_supported,
                'snoozedUntil', snoozed_until, 'dismissReason', dismiss_reason,
                'statusChangedAt', status_changed_at, 'statusChangedBy', status_changed_by) order by tenant_id) as tenants
         from tenant_recommendations where ${conditions.join(' and ')}
        group by recommendation_id`,
      params,
    );
    return new Map(rows.map((row) => [row.recommendation_id, row.tenants]));
  }

  private view(
    definition: RecommendationDefinition,
    tenants: AffectedRow['tenants'],
  ): SecurityRecommendation {
    const states = tenants.map((tenant) => ({
      ...tenant,
      snoozedUntil: tenant.snoozedUntil ? new Date(tenant.snoozedUntil) : null,
      statusChangedAt: tenant.statusChangedAt ? new Date(tenant.statusChangedAt) : null,
    }));
    const present = new Set(states.map((state) => state.status));
    return {
      ...definition,
      status: STATUS_PRECEDENCE.find((status) => present.has(status)) ?? null,
      affectedTenants: { count: states.length, tenantIds: states.map((state) => state.tenantId) },
      tenants: states,
    };
  }
}

/** The statuses a tenant may move to from `from`, for the 409's `allowed`. */
export function movesFrom(from: RecommendationStatus): RecommendationStatus[] {
  return (Object.entries(ALLOWED_MOVES) as Array<[RecommendationStatus, RecommendationStatus[]]>)
    .filter(([, sources]) => sources.includes(from))
    .map(([to]) => to);
}
