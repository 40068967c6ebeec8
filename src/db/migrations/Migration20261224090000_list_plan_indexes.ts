import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11: indexes that let the remaining lists read their page in order and stop after offset + limit rows,
 * with the total a separate count (test/rest/list-plans-*.test.ts, docs/performance.md).
 */
export class Migration20261224090000_list_plan_indexes extends Migration {
  override name = 'Migration20261224090000_list_plan_indexes';

  override up(): void | Promise<void> {
    // The device list's full order (riskiest first, then by name); the old index lacked the name and directions.
    this.addSql(`drop index if exists "devices_risk_index";`);
    this.addSql(
      `create index "devices_risk_order_index" on "devices" ("organization_id", "environment", "tenant_id", "risk_rank" desc, "exposure_score" desc, "device_name", "id");`,
    );
    this.addSql(
      `create index "security_alerts_severity_index" on "security_alerts" ("organization_id", "environment", "tenant_id", "severity_rank", "created_at", "id");`,
    );
    this.addSql(
      `create index "security_alerts_status_index" on "security_alerts" ("organization_id", "environment", "tenant_id", "status", "created_at", "id");`,
    );
    this.addSql(
      `create index "endpoint_dlp_policies_name_index" on "endpoint_dlp_policies" ("organization_id", "environment", "tenant_id", "name", "id");`,
    );
    this.addSql(
      `create index "restricted_users_status_index" on "restricted_users" ("organization_id", "environment", "tenant_id", "status", "restricted_at", "id");`,
    );
    this.addSql(
      `create index "restore_job_items_ordinal_index" on "restore_job_items" ("job_id", "ordinal");`,
    );
    this.addSql(
      `create index "compliance_connectors_list_index" on "compliance_connectors" ("organization_id", "environment", "tenant_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "tenants_name_index" on "tenants" ("organization_id", "environment", "name", "id");`,
    );
    this.addSql(
      `create index "users_stale_guests_index" on "users" ("organization_id", "environment", "tenant_id", (coalesce(last_sign_in_at, case when invitation_status = 'Pending' then greatest(invited_at, invitation_sent_at) else invitation_accepted_at end, invited_at, created_at)), "id") where "user_type" = 'Guest' and "deleted_at" is null;`,
    );
  }

  override down(): void | Promise<void> {
    for (const index of [
      'devices_risk_order_index',
      'security_alerts_severity_index',
      'security_alerts_status_index',
      'endpoint_dlp_policies_name_index',
      'users_stale_guests_index',
      'restricted_users_status_index',
      'restore_job_items_ordinal_index',
      'compliance_connectors_list_index',
      'tenants_name_index',
    ])
      this.addSql(`drop index if exists "${index}";`);
    this.addSql(
      `create index "devices_risk_index" on "devices" ("organization_id", "environment", "tenant_id", "risk_rank", "exposure_score", "id");`,
    );
  }
}
