import type { FeatureModule } from '../core/feature-module.js';
import { BACKUP_ROUTES } from './backup.rest.js';
import { BACKUP_CATALOG_CRON, BACKUP_CATALOG_TASK, backupCatalogTask } from './backup-catalog.js';
import { BackupSnapshot } from './backup-snapshot.entity.js';
import { BackupResolver } from './backup.resolver.js';
import { RestoreJobItem } from './restore-job-item.entity.js';
import { RestoreJob } from './restore-job.entity.js';
import { restoreJobTask } from './restore-runner.js';
import { RESTORE_TASK } from './restore.service.js';

/** Backup snapshots and restore jobs (SPEC 4.2 backup). */
export const backupModule: FeatureModule = {
  name: 'backup',
  resolvers: [BackupResolver],
  entities: [BackupSnapshot, RestoreJob, RestoreJobItem],
  tasks: { [RESTORE_TASK]: restoreJobTask, [BACKUP_CATALOG_TASK]: backupCatalogTask },
  crons: [BACKUP_CATALOG_CRON],
  routes: { api: BACKUP_ROUTES },
  eventKinds: ['restore.completed', 'restore.failed'],
};
