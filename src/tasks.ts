import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, TaskList } from 'graphile-worker';
import type { AppDeps } from './core/service-context.js';
import { HOUSEKEEPING_CRON, HOUSEKEEPING_TASK, housekeepingTask } from './housekeeping/housekeeping.task.js';
import { tenantSyncTask } from './tenants/tenant-sync.task.js';
import { TENANT_SYNC_TASK } from './tenants/tenant.service.js';
import {
  DELETED_USER_PURGE_CRON,
  DELETED_USER_PURGE_TASK,
  deletedUserPurgeTask,
} from './users/deleted-user-purge.task.js';
import { WEBHOOK_DELIVERY_TASK } from './webhooks/webhook-delivery.queue.js';
import { webhookDeliveryTask } from './webhooks/webhook-delivery.task.js';
import { USER_IMPORT_TASK } from './user-management/user-import.service.js';
import { userImportTask } from './user-management/user-import.task.js';
import { USER_OFFBOARDING_TASK } from './user-management/offboarding.service.js';
import { userOffboardingTask } from './user-management/offboarding.task.js';

/** Every background task by name. A feature adds its task here and nowhere else. */
export function taskList(orm: MikroORM, deps: AppDeps): TaskList {
  return {
    [TENANT_SYNC_TASK]: tenantSyncTask(orm, deps),
    [WEBHOOK_DELIVERY_TASK]: webhookDeliveryTask(orm, deps),
    [HOUSEKEEPING_TASK]: housekeepingTask(orm, deps),
    [DELETED_USER_PURGE_TASK]: deletedUserPurgeTask(orm, deps),
    [USER_IMPORT_TASK]: userImportTask(orm, deps),
    [USER_OFFBOARDING_TASK]: userOffboardingTask(orm, deps),
  };
}

/** Scheduled work; graphile-worker runs each item once per tick across every process. */
export const cronItems: CronItem[] = [HOUSEKEEPING_CRON, DELETED_USER_PURGE_CRON];
