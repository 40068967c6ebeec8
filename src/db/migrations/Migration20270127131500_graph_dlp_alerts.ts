import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #30: endpoint DLP alerts also come from Microsoft Graph's alerts (serviceSource dataLossPrevention),
 * which name no policy we can list (Graph has no DLP policy API), nor the activity or, always, the action
 * taken: those columns take null for what the cloud does not say.
 */
export class Migration20270127131500_graph_dlp_alerts extends Migration {
  override name = 'Migration20270127131500_graph_dlp_alerts';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "endpoint_dlp_alerts" alter column "policy_id" drop not null, alter column "policy_name" drop not null, alter column "activity" drop not null, alter column "action_taken" drop not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(
      `delete from "endpoint_dlp_alerts" where "policy_id" is null or "activity" is null or "action_taken" is null;`,
    );
    this.addSql(
      `alter table "endpoint_dlp_alerts" alter column "policy_id" set not null, alter column "policy_name" set not null, alter column "activity" set not null, alter column "action_taken" set not null;`,
    );
  }
}
