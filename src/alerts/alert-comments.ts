import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ConflictError } from '../core/errors.js';
import { pageOffset, type Page, type PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { AlertComment, SecurityAlert } from './alert.entity.js';
import { MAX_COMMENTS_PER_ALERT } from './alert.types.js';

/**
 * An alert's investigation notes, a page at a time (issue #32 item 3: 3,000 notes of 4,000 characters made
 * one Read-key query answer 361 MB). Every read is a page (limit ≤ 100), and an alert holds at most
 * MAX_COMMENTS_PER_ALERT notes, so counting them is bounded too.
 */

/**
 * One page of notes, oldest first, of each alert asked for: one statement for every alert of a request
 * (a lateral read per alert through security_alert_comments_alert_index, O(limit) each).
 */
export async function commentPages(ctx: ServiceContext, alertIds: string[], limit: number, offset: number) {
  const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(
    `select c.* from unnest(array[?]::uuid[]) as a(id)
       cross join lateral (
         select * from "security_alert_comments" c
          where c.alert_id = a.id and c.organization_id = ? and c.environment = ?
          order by c.created_at, c.id limit ? offset ?) c`,
    [alertIds, ctx.scope.organizationId, ctx.scope.environment, limit, offset],
  );
  return rows.map((row) => ctx.em.map(AlertComment, row));
}

/** A page of one alert's notes with the total (GET /api/security/alerts/:id/comments). */
export async function commentPageOf(
  ctx: ServiceContext,
  alert: SecurityAlert,
  page: PageArgs,
): Promise<Page<AlertComment>> {
  const [items, [{ count }]] = await Promise.all([
    commentPages(ctx, [alert.id], page.limit, pageOffset(page)),
    ctx.em
      .getConnection()
      .execute<{ count: number }[]>(
        'select count(*)::int as count from "security_alert_comments" where alert_id = ?',
        [alert.id],
      ),
  ]);
  return { items, pageInfo: { page: page.page, limit: page.limit, total: count } };
}

/**
 * How many notes the alert holds, and how many of them say `text` by `authorName` (what the cloud is told we
 * already hold of a note about to be added: CloudAlertCommentInput.storedCopies). One statement, at most
 * MAX_COMMENTS_PER_ALERT rows through security_alert_comments_alert_index.
 */
export async function commentCounts(
  em: EntityManager,
  alert: SecurityAlert,
  text: string,
  authorName: string,
): Promise<{ total: number; copies: number }> {
  const [counts] = await em.execute<{ total: number; copies: number }[]>(
    `select count(*)::int as total,
            (count(*) filter (where text = ? and author_name = ?))::int as copies
       from "security_alert_comments" where alert_id = ?`,
    [text, authorName, alert.id],
  );
  return counts;
}

/** 409 CONFLICT naming the limit when the alert already holds MAX_COMMENTS_PER_ALERT notes. */
export function assertCommentRoom(alert: SecurityAlert, count: number): void {
  if (count < MAX_COMMENTS_PER_ALERT) return;
  throw new ConflictError(
    `Alert ${alert.id} already holds ${MAX_COMMENTS_PER_ALERT} comments, the most one alert may hold`,
    { reason: 'COMMENT_LIMIT', limit: MAX_COMMENTS_PER_ALERT },
  );
}

/**
 * Locks the alert (so two notes at once cannot both be the 500th) and refuses a note past the cap with
 * 409 CONFLICT naming the limit. Runs inside the transaction that adds the note.
 */
export async function assertRoomForComment(em: EntityManager, alert: SecurityAlert): Promise<void> {
  await em.findOne(SecurityAlert, { id: alert.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const [{ count }] = await em.execute<{ count: number }[]>(
    'select count(*)::int as count from "security_alert_comments" where alert_id = ?',
    [alert.id],
  );
  assertCommentRoom(alert, count);
}
