import { Migration } from '@mikro-orm/migrations';

/**
 * Every foreign key's ON DELETE lookup can use an index (test/schema/foreign-key-indexes.test.ts): before,
 * purging one user scanned every device, alert and user (manager_id) of every organization, and deleting a
 * tenant scanned every group, device action, connector and offboarding.
 */
export class Migration20261218090000_foreign_key_indexes extends Migration {
  override name = 'Migration20261218090000_foreign_key_indexes';

  override up(): void | Promise<void> {
    this.addSql(`create index "backup_snapshots_user_id_index" on "backup_snapshots" ("user_id");`);
    this.addSql(
      `create index "blocked_enrollment_attempts_policy_id_index" on "blocked_enrollment_attempts" ("policy_id");`,
    );
    this.addSql(
      `create index "blocked_enrollment_attempts_user_id_index" on "blocked_enrollment_attempts" ("user_id");`,
    );
    this.addSql(
      `create index "compliance_connectors_tenant_id_index" on "compliance_connectors" ("tenant_id");`,
    );
    this.addSql(`create index "device_actions_tenant_id_index" on "device_actions" ("tenant_id");`);
    this.addSql(`create index "devices_user_id_index" on "devices" ("user_id");`);
    this.addSql(`create index "endpoint_dlp_alerts_device_id_index" on "endpoint_dlp_alerts" ("device_id");`);
    this.addSql(`create index "endpoint_dlp_alerts_policy_id_index" on "endpoint_dlp_alerts" ("policy_id");`);
    this.addSql(`create index "endpoint_dlp_alerts_user_id_index" on "endpoint_dlp_alerts" ("user_id");`);
    this.addSql(`create index "groups_tenant_id_index" on "groups" ("tenant_id");`);
    this.addSql(
      `create index "info_barrier_policies_source_segment_id_index" on "info_barrier_policies" ("source_segment_id");`,
    );
    this.addSql(`create index "restricted_users_user_id_index" on "restricted_users" ("user_id");`);
    this.addSql(`create index "security_alerts_device_id_index" on "security_alerts" ("device_id");`);
    this.addSql(`create index "security_alerts_user_id_index" on "security_alerts" ("user_id");`);
    this.addSql(`create index "user_offboardings_tenant_id_index" on "user_offboardings" ("tenant_id");`);
    this.addSql(`create index "users_manager_id_index" on "users" ("manager_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "backup_snapshots_user_id_index";`);
    this.addSql(`drop index if exists "blocked_enrollment_attempts_policy_id_index";`);
    this.addSql(`drop index if exists "blocked_enrollment_attempts_user_id_index";`);
    this.addSql(`drop index if exists "compliance_connectors_tenant_id_index";`);
    this.addSql(`drop index if exists "device_actions_tenant_id_index";`);
    this.addSql(`drop index if exists "devices_user_id_index";`);
    this.addSql(`drop index if exists "endpoint_dlp_alerts_device_id_index";`);
    this.addSql(`drop index if exists "endpoint_dlp_alerts_policy_id_index";`);
    this.addSql(`drop index if exists "endpoint_dlp_alerts_user_id_index";`);
    this.addSql(`drop index if exists "groups_tenant_id_index";`);
    this.addSql(`drop index if exists "info_barrier_policies_source_segment_id_index";`);
    this.addSql(`drop index if exists "restricted_users_user_id_index";`);
    this.addSql(`drop index if exists "security_alerts_device_id_index";`);
    this.addSql(`drop index if exists "security_alerts_user_id_index";`);
    this.addSql(`drop index if exists "user_offboardings_tenant_id_index";`);
    this.addSql(`drop index if exists "users_manager_id_index";`);
  }
}
