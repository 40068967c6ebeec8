import { Migration } from '@mikro-orm/migrations';

/** The tracked-job bookkeeping (core/tracked-operation.entity.ts) on every job-backed operation. */
export class Migration20261215090000_tracked_operations extends Migration {
  override name = 'Migration20261215090000_tracked_operations';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "recommendation_apply_operations" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "restore_jobs" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "compliance_connector_runs" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "info_barrier_applications" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "device_actions" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "user_imports" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );

    this.addSql(
      `alter table "user_offboardings" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `alter table "compliance_connector_runs" drop column "run_attempts", drop column "checkpoint";`,
    );

    this.addSql(`alter table "device_actions" drop column "run_attempts", drop column "checkpoint";`);

    this.addSql(
      `alter table "info_barrier_applications" drop column "run_attempts", drop column "checkpoint";`,
    );

    this.addSql(
      `alter table "recommendation_apply_operations" drop column "run_attempts", drop column "checkpoint";`,
    );

    this.addSql(`alter table "restore_jobs" drop column "run_attempts", drop column "checkpoint";`);

    this.addSql(`alter table "user_imports" drop column "run_attempts", drop column "checkpoint";`);

    this.addSql(`alter table "user_offboardings" drop column "run_attempts", drop column "checkpoint";`);
  }
}
