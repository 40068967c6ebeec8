import { Migration } from '@mikro-orm/migrations';

/** Every job-backed operation's table (core/tracked-operation.entity.ts), for the run's fencing token. */
const TRACKED_TABLES = [
  'tenant_syncs',
  'device_actions',
  'recommendation_apply_operations',
  'info_barrier_applications',
  'restore_jobs',
  'compliance_connector_runs',
  'user_imports',
  'user_offboardings',
];

/** `run_token`: the fencing token of the run that owns an operation (issue #34 item 2; core/tracked-job.ts). */
export class Migration20261231090000_tracked_run_tokens extends Migration {
  override name = 'Migration20261231090000_tracked_run_tokens';

  override up(): void | Promise<void> {
    for (const table of TRACKED_TABLES)
      this.addSql(`alter table "${table}" add column "run_token" uuid null;`);
  }

  override down(): void | Promise<void> {
    for (const table of TRACKED_TABLES) this.addSql(`alter table "${table}" drop column "run_token";`);
  }
}
