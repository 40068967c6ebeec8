import DataLoader from 'dataloader';
import { defineLoader } from '../core/loaders.js';
import { commentPages } from './alert-comments.js';
import type { AlertComment } from './alert.entity.js';

/** One alert's page of notes: the alert, the page size and where the page starts. */
export interface CommentPageKey {
  alertId: string;
  limit: number;
  offset: number;
}

/** `SecurityAlert.comments(page, limit)`: batched per page size and offset. */
export const alertCommentPageLoader = defineLoader<CommentPageKey, AlertComment[]>(
  'alertCommentPages',
  (ctx) =>
    new DataLoader(
      async (keys) => {
        const groups = new Map<string, CommentPageKey[]>();
        for (const key of keys) {
          const group = `${key.limit}:${key.offset}`;
          groups.set(group, [...(groups.get(group) ?? []), key]);
        }
        const found = new Map<string, AlertComment[]>();
        for (const [group, members] of groups) {
          const { limit, offset } = members[0];
          const ids = [...new Set(members.map((key) => key.alertId))];
          for (const comment of await commentPages(ctx, ids, limit, offset)) {
            const id = `${group}:${comment.alertId}`;
            found.set(id, [...(found.get(id) ?? []), comment]);
          }
        }
        return keys.map((key) => found.get(`${key.limit}:${key.offset}:${key.alertId}`) ?? []);
      },
      { cacheKeyFn: (key) => `${key.limit}:${key.offset}:${key.alertId}` },
    ),
);

/** How many notes each alert holds (at most MAX_COMMENTS_PER_ALERT each): one statement per request. */
export const alertCommentCountLoader = defineLoader<string, number>(
  'alertCommentCounts',
  (ctx) =>
    new DataLoader(async (alertIds) => {
      const rows = await ctx.em.getConnection().execute<{ alert_id: string; count: number }[]>(
        `select alert_id, count(*)::int as count from "security_alert_comments"
          where alert_id in (?) and organization_id = ? and environment = ? group by alert_id`,
        [[...alertIds], ctx.scope.organizationId, ctx.scope.environment],
      );
      const counts = new Map(rows.map((row) => [row.alert_id, row.count]));
      return alertIds.map((id) => counts.get(id) ?? 0);
    }),
);
