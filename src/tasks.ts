import { BARRIER_APPLY_TASK } from './info-barriers/barrier-application.service.js';
import {
  BARRIER_PROGRESS_CRON,
  BARRIER_PROGRESS_TASK,
  barrierApplyTask,
  barrierProgressTask,
} from './info-barriers/barrier-application.task.js';
import {
  SECURE_SCORE_SNAPSHOT_CRON,
  SECURE_SCORE_SNAPSHOT_TASK,
  secureScoreSnapshotTask,
} from './secure-score/secure-score.task.js';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, TaskList } from 'graphile-worker';
import { BACKUP_CATALOG_CRON, BACKUP_CATALOG_TASK, backupCatalogTask } from './backup/backup-catalog.js';
import { CONTACT_SYNC_CRON, CONTACT_SYNC_TASK, contactSyncTask } from './contacts/contact-sync.js';
import {
  CONNECTOR_IMPORT_TASK,
  CONNECTOR_SCHEDULER_CRON,
  CONNECTOR_SCHEDULER_TASK,
  connectorImportTask,
  connectorSchedulerTask,
} from './compliance/connector-import.js';
import { restoreJobTask } from './backup/restore-runner.js';
import { RESTORE_TASK } from './backup/restore.service.js';
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
import { DEVICE_ACTION_TASK } from './devices/device-action.service.js';
import { deviceActionTask } from './devices/device-action.task.js';
import { RECOMMENDATION_APPLY_TASK } from './recommendations/recommendation-apply.service.js';
import { recommendationApplyTask } from './recommendations/recommendation-apply.task.js';
import {
  RECOMMENDATION_SNOOZE_CRON,
  RECOMMENDATION_SNOOZE_TASK,
  recommendationSnoozeTask,
} from './recommendations/recommendation-snooze.task.js';
import { USER_IMPORT_TASK } from './user-management/user-import.service.js';
import { userImportTask } from './user-management/user-import.task.js';
import { USER_OFFBOARDING_TASK } from './user-management/offboarding.service.js';
import { userOffboardingTask } from './user-management/offboarding.task.js';
import {
  PORTAL_AGGREGATES_DIRTY_CRON,
  PORTAL_AGGREGATES_DIRTY_TASK,
  PORTAL_AGGREGATES_FULL_CRON,
  PORTAL_AGGREGATES_FULL_TASK,
  portalAggregatesDirtyTask,
  portalAggregatesFullTask,
} from './portal/portal-aggregates.task.js';

/** Every background task by name. A feature adds its task here and nowhere else. */
export function taskList(orm: MikroORM, deps: AppDeps): TaskList {
  return {
    [TENANT_SYNC_TASK]: tenantSyncTask(orm, deps),
    [WEBHOOK_DELIVERY_TASK]: webhookDeliveryTask(orm, deps),
    [HOUSEKEEPING_TASK]: housekeepingTask(orm, deps),
    [DELETED_USER_PURGE_TASK]: deletedUserPurgeTask(orm, deps),
    [DEVICE_ACTION_TASK]: deviceActionTask(orm, deps),
    [RESTORE_TASK]: restoreJobTask(orm, deps),
    [BACKUP_CATALOG_TASK]: backupCatalogTask(orm, deps),
    [CONTACT_SYNC_TASK]: contactSyncTask(orm, deps),
    [CONNECTOR_SCHEDULER_TASK]: connectorSchedulerTask(orm, deps),
    [CONNECTOR_IMPORT_TASK]: connectorImportTask(orm, deps),
    [RECOMMENDATION_APPLY_TASK]: recommendationApplyTask(orm, deps),
    [RECOMMENDATION_SNOOZE_TASK]: recommendationSnoozeTask(orm, deps),
    [SECURE_SCORE_SNAPSHOT_TASK]: secureScoreSnapshotTask(orm, deps),
    [BARRIER_APPLY_TASK]: barrierApplyTask(orm, deps),
    [BARRIER_PROGRESS_TASK]: barrierProgressTask(orm, deps),
    [USER_IMPORT_TASK]: userImportTask(orm, deps),
    [USER_OFFBOARDING_TASK]: userOffboardingTask(orm, deps),
    [PORTAL_AGGREGATES_FULL_TASK]: portalAggregatesFullTask(orm, deps),
    [PORTAL_AGGREGATES_DIRTY_TASK]: portalAggregatesDirtyTask(orm, deps),
  };
}

/** Scheduled work; graphile-worker runs each item once per tick across every process. */
export const cronItems: CronItem[] = [
  HOUSEKEEPING_CRON,
  DELETED_USER_PURGE_CRON,
  BACKUP_CATALOG_CRON,
  CONTACT_SYNC_CRON,
  CONNECTOR_SCHEDULER_CRON,
  RECOMMENDATION_SNOOZE_CRON,
  SECURE_SCORE_SNAPSHOT_CRON,
  BARRIER_PROGRESS_CRON,
  PORTAL_AGGREGATES_FULL_CRON,
  PORTAL_AGGREGATES_DIRTY_CRON,
];
