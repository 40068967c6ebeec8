import DataLoader from 'dataloader';
import { defineLoader, groupByKey } from '../core/loaders.js';
import type { AlertComment } from './alert.entity.js';
import { AlertService } from './alert.service.js';

/** An alert's comments, oldest first: one statement for every alert of a page. */
export const alertCommentsLoader = defineLoader<string, AlertComment[]>(
  'alertComments',
  (ctx) =>
    new DataLoader(async (alertIds) =>
      groupByKey(alertIds, await new AlertService(ctx).commentsOf(alertIds), (comment) => comment.alertId),
    ),
);
