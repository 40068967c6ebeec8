import { LockMode } from '@mikro-orm/postgresql';
import { resolveActors } from '../actors/actor.loaders.js';
import { ActorType } from '../actors/actor.types.js';
import { ConflictError, InvalidRequestError, NotFoundError, type FieldProblem } from '../core/errors.js';
import { anyOf, atLeast, below, containsText } from '../core/lean-conditions.js';
import { findLeanPage, type LeanCondition, type LeanOrder } from '../core/lean-read.js';
import type { LeanSelection } from '../core/lean-selection.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { CloudAlertChange } from '../cloud/security.provider.js';
import { Member } from '../members/member.entity.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { TenantService } from '../tenants/tenant.service.js';
import { assertAlertMove } from './alert-status.js';
import { assertCommentRoom, assertRoomForComment, commentCounts, commentPageOf } from './alert-comments.js';
import { adoptCopiedNote } from './alert-comment-sync.js';
import { AlertComment, SecurityAlert } from './alert.entity.js';
import { AlertSort, type AlertStatus } from './alert.enums.js';
import {
  MAX_COMMENT_LENGTH,
  type AlertCommentInput,
  type AlertFilter,
  type UpdateAlertInput,
} from './alert.types.js';

const MAX_FILTER_VALUE_LENGTH = 100;
const UNASSIGNED = 'unassigned';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const ORDERS: Record<AlertSort, LeanOrder<SecurityAlert>> = {
  [AlertSort.NEWEST]: { createdAt: 'desc', id: 'desc' },
  [AlertSort.OLDEST]: { createdAt: 'asc', id: 'asc' },
  [AlertSort.SEVERITY]: { severityRank: 'desc', createdAt: 'desc', id: 'desc' },
};

/** The `alert.*` event severity of an alert (DECISIONS payload: lower case). */
export const eventSeverityOf = (alert: SecurityAlert) =>
  alert.severity.toLowerCase() as 'high' | 'medium' | 'low' | 'informational';

/** The WHERE conditions of a filter, after checking it (400 naming the field, nothing read). */
function conditionsOf(filter: AlertFilter): LeanCondition[] {
  const problems: FieldProblem[] = [];
  for (const field of ['category', 'source'] as const)
    if (filter[field]?.some((value) => value.length > MAX_FILTER_VALUE_LENGTH))
      problems.push({ field, problem: `values must be at most ${MAX_FILTER_VALUE_LENGTH} characters long` });
  const assignees = filter.assignedTo ?? [];
  if (assignees.some((value) => value !== UNASSIGNED && !UUID.test(value)))
    problems.push({ field: 'assignedTo', problem: `must be member ids or "${UNASSIGNED}"` });
  if (filter.createdFrom && filter.createdTo && filter.createdFrom > filter.createdTo)
    problems.push({ field: 'createdFrom', problem: 'must not be after createdTo' });
  if (problems.length > 0) throw new InvalidRequestError('Invalid alert filter', problems);

  const members = assignees.filter((value) => value !== UNASSIGNED);
  const assignment: LeanCondition[] = [];
  if (assignees.length > 0) {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (members.length > 0) {
      parts.push('"assigned_to_id" in (?)');
      params.push([...new Set(members.map((id) => id.toLowerCase()))]);
    }
    if (assignees.includes(UNASSIGNED)) parts.push('"assigned_to_id" is null');
    assignment.push({ sql: parts.join(' or '), params });
  }
  return [
    ...anyOf('severity', filter.severity),
    ...anyOf('status', filter.status),
    ...anyOf('category', filter.category),
    ...anyOf('source', filter.source),
    ...assignment,
    ...atLeast('created_at', filter.createdFrom),
    ...below('created_at', filter.createdTo),
    ...containsText('search', ['title', 'affected_entity'], filter.search),
  ];
}

/**
 * Security alerts of a tenant (SPEC 2.6, 3.1, 4.2). Alerts come from the cloud through sync
 * (alert-sync.ts); a status move goes to the cloud first and then to our row with `alert.updated`, in one
 * transaction; assignment and comments are ours.
 */
/** The columns the SecurityAlert type's computed fields read (lean-selection.ts): its notes are loaders', by id. */
const ALERT_COMPUTED_FIELDS: LeanSelection<SecurityAlert>['computed'] = { comments: [], commentCount: [] };

export class AlertService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One page of alerts, filtered and sorted (newest first by default); one statement for page and total. */
  async list(
    tenantId: string,
    filter: AlertFilter = {},
    sort: AlertSort = AlertSort.NEWEST,
    page: PageArgs,
    /** The fields asked of each alert (selectedItemFields): only their columns are read; all without it. */
    fields?: ReadonlySet<string>,
  ): Promise<Page<SecurityAlert>> {
    const alerts = await findLeanPage(
      this.ctx,
      SecurityAlert,
      { tenantId },
      page,
      ORDERS[sort],
      conditionsOf(filter),
      undefined,
      { fields, computed: ALERT_COMPUTED_FIELDS },
    );
    if (alerts.items.length === 0) await this.tenant(tenantId);
    return alerts;
  }

  /** One alert of the tenant; 404 when absent, another tenant's or another organization's. */
  async get(tenantId: string, id: string): Promise<SecurityAlert> {
    const alert = await this.ctx.em.findOne(SecurityAlert, { id, tenantId }, { refresh: true });
    if (alert) return alert;
    await this.tenant(tenantId);
    throw new NotFoundError('Alert', id);
  }

  /** A page of one alert's notes, oldest first, with their number (at most MAX_COMMENTS_PER_ALERT). */
  async comments(tenantId: string, id: string, page: PageArgs): Promise<Page<AlertComment>> {
    return commentPageOf(this.ctx, await this.get(tenantId, id), page);
  }

  /**
   * A status move per the state machine (same status: no change) and/or an assignment to a member of the
   * organization (null: unassigned). The cloud is told first, in one call (the status and the assignee's
   * sign-in name); `alert.updated` carries from/to when anything changed.
   */
  async update(tenantId: string, id: string, input: UpdateAlertInput): Promise<SecurityAlert> {
    const touchesAssignment = input.assignedToId !== undefined;
    if ((input.status === undefined || input.status === null) && !touchesAssignment)
      throw new InvalidRequestError('Give a status, an assignedToId, or both', [
        { field: 'status', problem: 'is required unless assignedToId is given' },
      ]);
    const tenant = await this.tenant(tenantId);
    const alert = await this.get(tenantId, id);
    const assignee = input.assignedToId ? await this.member(input.assignedToId) : null;
    const to = input.status ?? alert.status;
    assertAlertMove(alert.status, to);
    const change: CloudAlertChange = {};
    if (to !== alert.status) change.status = to;
    // Upstream the assignee is a sign-in name (Graph's assignedTo): the member's email.
    if (touchesAssignment && (assignee?.id ?? null) !== alert.assignedToId)
      change.assignedTo = assignee?.email ?? null;
    if (Object.keys(change).length > 0) {
      // Idempotent upstream: a failed transaction below is converged by a retry.
      const upstream = await (
        await this.ctx.cloud.forTenant(tenant.externalId)
      ).security.updateAlert(alert.externalId, change);
      if (!upstream)
        throw new ConflictError(`Alert ${id} is no longer known to the upstream cloud`, {
          from: alert.status,
          to,
          upstream: 'missing',
        });
    }
    return this.ctx.em.transactional(async (em) => {
      const current = await em.findOne(
        SecurityAlert,
        { id, tenantId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!current) throw new NotFoundError('Alert', id);
      const from = current.status;
      assertAlertMove(from, to);
      const assignedToId = touchesAssignment ? (assignee?.id ?? null) : current.assignedToId;
      const statusChanged = from !== to;
      const assignmentChanged = assignedToId !== current.assignedToId;
      if (!statusChanged && !assignmentChanged) return current;
      const now = this.ctx.clock.now();
      em.assign(current, {
        status: to,
        assignedToId,
        assignedTo: touchesAssignment ? (assignee?.email ?? null) : current.assignedTo,
        statusChangedAt: statusChanged ? now : current.statusChangedAt,
        updatedAt: now,
      });
      await em.flush();
      await emitEvent(
        { ...this.ctx, em },
        {
          kind: 'alert.updated',
          severity: eventSeverityOf(current),
          tenant: tenant.eventRef,
          details: {
            alertId: current.id,
            title: current.title,
            category: current.category,
            from,
            to,
            statusChanged,
            assignedToId: current.assignedToId,
            assignedTo: current.assignedTo,
            updatedBy: this.ctx.actor,
          },
          actionPath: `/tenants/${tenantId}/security/alerts/${current.id}`,
        },
      );
      return current;
    });
  }

  /**
   * Adds an investigation note (1..MAX_COMMENT_LENGTH characters) by the caller, dated by the clock; 409 once
   * the alert holds MAX_COMMENTS_PER_ALERT (alert-comments.ts). The note reaches the cloud first, as a status
   * move does ("<author>: <text>", the cloud naming only our app as its writer), then our row; a retry after
   * a failure in between does not post it upstream twice (CloudAlertCommentInput.storedCopies), nor stores it
   * beside the copy a sync made of it meanwhile (adoptCopiedNote).
   */
  async addComment(tenantId: string, id: string, input: AlertCommentInput): Promise<AlertComment> {
    const text = input.text.trim();
    if (text.length === 0) throw InvalidRequestError.field('text', 'must not be empty');
    if (text.length > MAX_COMMENT_LENGTH)
      throw InvalidRequestError.field('text', `must be at most ${MAX_COMMENT_LENGTH} characters long`);
    const tenant = await this.tenant(tenantId);
    const alert = await this.get(tenantId, id);
    const authorName = await this.actorName();
    const { total, copies } = await commentCounts(this.ctx.em, alert, text, authorName);
    assertCommentRoom(alert, total);
    const cloud = await this.ctx.cloud.forTenant(tenant.externalId);
    const known = await cloud.security.addAlertComment(alert.externalId, {
      text: `${authorName}: ${text}`,
      storedCopies: copies,
    });
    if (!known)
      throw new ConflictError(`Alert ${id} is no longer known to the upstream cloud`, {
        upstream: 'missing',
      });
    return this.ctx.em.transactional(async (em) => {
      const adopted = await adoptCopiedNote(em, alert.id, { text, author: this.ctx.actor, authorName });
      if (adopted) return adopted;
      await assertRoomForComment(em, alert);
      const comment = em.create(AlertComment, {
        organizationId: this.ctx.scope.organizationId,
        environment: this.ctx.scope.environment,
        alertId: alert.id,
        text,
        author: this.ctx.actor,
        authorName,
        createdAt: this.ctx.clock.now(),
      });
      await em.flush();
      return comment;
    });
  }

  /** The caller's name: the API key's name, or the sign-in name of the member behind an access token. */
  /** The caller as a comment's stored author name: "<key name> (API key)", a member's email, else the principal. */
  private async actorName(): Promise<string> {
    const [actor] = await resolveActors(this.ctx, [this.ctx.actor]);
    if (actor.type === ActorType.API_KEY) return `${actor.name} (API key)`;
    if (actor.type === ActorType.MEMBER && actor.email) return actor.email;
    return this.ctx.actor;
  }

  /** A member of the caller's organization; 400 naming assignedToId otherwise. */
  private async member(memberId: string): Promise<Member> {
    const member = await this.ctx.em.findOne(Member, {
      id: memberId,
      organizationId: this.ctx.scope.organizationId,
    });
    if (!member) throw InvalidRequestError.field('assignedToId', 'is not a member of the organization');
    return member;
  }

  private tenant(tenantId: string): Promise<Tenant> {
    return new TenantService(this.ctx).get(tenantId);
  }
}

export type { AlertStatus };
