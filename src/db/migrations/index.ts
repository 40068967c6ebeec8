import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122221924_initial } from './Migration20261122221924_initial.js';
import { Migration20261123000442_webhooks } from './Migration20261123000442_webhooks.js';
import { Migration20261123005730_oauth } from './Migration20261123005730_oauth.js';
import { Migration20261124120000_announced_sign_ins } from './Migration20261124120000_announced_sign_ins.js';
import { Migration20261125090000_deleted_users } from './Migration20261125090000_deleted_users.js';
import { Migration20261126090000_guests } from './Migration20261126090000_guests.js';
import { Migration20261127090000_contacts } from './Migration20261127090000_contacts.js';
import { Migration20261128090000_restricted_users } from './Migration20261128090000_restricted_users.js';
import { Migration20261202090000_reliability } from './Migration20261202090000_reliability.js';
import { Migration20261204180000_list_page_indexes } from './Migration20261204180000_list_page_indexes.js';
import { Migration20261205090000_security_operations } from './Migration20261205090000_security_operations.js';
import { Migration20261208090000_backup } from './Migration20261208090000_backup.js';
import { Migration20261208100000_compliance } from './Migration20261208100000_compliance.js';
import { Migration20261206090000_recommendations } from './Migration20261206090000_recommendations.js';
import { Migration20261206100000_secure_score_info_barriers } from './Migration20261206100000_secure_score_info_barriers.js';
import { Migration20261207090000_user_search } from './Migration20261207090000_user_search.js';
import { Migration20261207090100_user_jobs } from './Migration20261207090100_user_jobs.js';
import { Migration20261210090000_device_management } from './Migration20261210090000_device_management.js';
import { Migration20261213090000_tenant_consent } from './Migration20261213090000_tenant_consent.js';
import { Migration20261217090000_device_dashboard_counts } from './Migration20261217090000_device_dashboard_counts.js';
import { Migration20261219090000_scoped_user_search } from './Migration20261219090000_scoped_user_search.js';
import { Migration20261218090000_foreign_key_indexes } from './Migration20261218090000_foreign_key_indexes.js';
import { Migration20261224090000_list_plan_indexes } from './Migration20261224090000_list_plan_indexes.js';
import { Migration20261225090000_upn_folded } from './Migration20261225090000_upn_folded.js';
import { Migration20261225090100_guest_inactive_since } from './Migration20261225090100_guest_inactive_since.js';
import { Migration20261225090200_scoped_tenant_user_search } from './Migration20261225090200_scoped_tenant_user_search.js';
import { Migration20261226090000_user_search_columns } from './Migration20261226090000_user_search_columns.js';
import { Migration20261226090100_portal_next_crossing } from './Migration20261226090100_portal_next_crossing.js';
import { Migration20261226090200_portal_recount_indexes } from './Migration20261226090200_portal_recount_indexes.js';
import { Migration20261227090000_unlogged_rate_limits } from './Migration20261227090000_unlogged_rate_limits.js';
import { Migration20261228090000_device_recommendation_counts } from './Migration20261228090000_device_recommendation_counts.js';
import { Migration20261228090100_users_folded_email_department } from './Migration20261228090100_users_folded_email_department.js';
import { Migration20261229090000_portal_health_signals } from './Migration20261229090000_portal_health_signals.js';
import { Migration20261229120000_isolation_type_spelling } from './Migration20261229120000_isolation_type_spelling.js';
import { Migration20261230090000_backup_snapshot_resource_index } from './Migration20261230090000_backup_snapshot_resource_index.js';
import { Migration20261231100400_organization_self } from './Migration20261231100400_organization_self.js';
import { Migration20270103093000_dry_run_apply_operations } from './Migration20270103093000_dry_run_apply_operations.js';
import { Migration20270103094000_import_passwords_purged } from './Migration20270103094000_import_passwords_purged.js';
import { Migration20261231100300_import_passwords } from './Migration20261231100300_import_passwords.js';
import { Migration20261231100200_jobs_in_flight } from './Migration20261231100200_jobs_in_flight.js';
import { Migration20261231100100_directory_roles } from './Migration20261231100100_directory_roles.js';
import { Migration20261231100000_upstream_tenant_owner } from './Migration20261231100000_upstream_tenant_owner.js';
import { Migration20270103091800_upstream_tenant_holders } from './Migration20270103091800_upstream_tenant_holders.js';
import { Migration20270127120000_apply_cloud_waits } from './Migration20270127120000_apply_cloud_waits.js';
import { Migration20270127120100_enrollment_cloud_ids } from './Migration20270127120100_enrollment_cloud_ids.js';
import { Migration20270127120400_user_sync_states } from './Migration20270127120400_user_sync_states.js';
import { Migration20270127090000_portal_recount_merge_indexes } from './Migration20270127090000_portal_recount_merge_indexes.js';
import { Migration20270127121200_backup_item_count_unknown } from './Migration20270127121200_backup_item_count_unknown.js';
import { Migration20270127131500_graph_dlp_alerts } from './Migration20270127131500_graph_dlp_alerts.js';
import { Migration20270127150500_cloud_secure_scores } from './Migration20270127150500_cloud_secure_scores.js';
import { Migration20270127154500_portal_activity_counts } from './Migration20270127154500_portal_activity_counts.js';
import { Migration20270127163000_portal_cloud_secure_scores } from './Migration20270127163000_portal_cloud_secure_scores.js';
import { Migration20270127180600_webhook_delivery_claims } from './Migration20270127180600_webhook_delivery_claims.js';
import { Migration20270127154700_tenant_cloud_permissions } from './Migration20270127154700_tenant_cloud_permissions.js';
import { Migration20261230150000_connector_failed_items } from './Migration20261230150000_connector_failed_items.js';
import { Migration20261231090000_tracked_run_tokens } from './Migration20261231090000_tracked_run_tokens.js';
import { Migration20261231090000_cloud_connections } from './Migration20261231090000_cloud_connections.js';
import { Migration20261231063000_partner_grants_index } from './Migration20261231063000_partner_grants_index.js';
import { Migration20261216090000_portal_scale } from './Migration20261216090000_portal_scale.js';
import { Migration20261215090000_tracked_operations } from './Migration20261215090000_tracked_operations.js';

/**
 * Every migration, in order. Listed explicitly (rather than found by a glob) so that the same
 * list works from TypeScript under jest and from the compiled JavaScript in dist/.
 */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122221924_initial', class: Migration20261122221924_initial },
  { name: 'Migration20261123000442_webhooks', class: Migration20261123000442_webhooks },
  { name: 'Migration20261123005730_oauth', class: Migration20261123005730_oauth },
  {
    name: 'Migration20261124120000_announced_sign_ins',
    class: Migration20261124120000_announced_sign_ins,
  },
  { name: 'Migration20261125090000_deleted_users', class: Migration20261125090000_deleted_users },
  { name: 'Migration20261126090000_guests', class: Migration20261126090000_guests },
  { name: 'Migration20261127090000_contacts', class: Migration20261127090000_contacts },
  {
    name: 'Migration20261128090000_restricted_users',
    class: Migration20261128090000_restricted_users,
  },
  { name: 'Migration20261202090000_reliability', class: Migration20261202090000_reliability },
  {
    name: 'Migration20261204180000_list_page_indexes',
    class: Migration20261204180000_list_page_indexes,
  },
  {
    name: 'Migration20261205090000_security_operations',
    class: Migration20261205090000_security_operations,
  },
  {
    name: 'Migration20261206090000_recommendations',
    class: Migration20261206090000_recommendations,
  },
  {
    name: 'Migration20261206100000_secure_score_info_barriers',
    class: Migration20261206100000_secure_score_info_barriers,
  },
  { name: 'Migration20261208090000_backup', class: Migration20261208090000_backup },
  { name: 'Migration20261208100000_compliance', class: Migration20261208100000_compliance },
  { name: 'Migration20261207090000_user_search', class: Migration20261207090000_user_search },
  { name: 'Migration20261207090100_user_jobs', class: Migration20261207090100_user_jobs },
  {
    name: 'Migration20261210090000_device_management',
    class: Migration20261210090000_device_management,
  },
  { name: 'Migration20261213090000_tenant_consent', class: Migration20261213090000_tenant_consent },
  { name: 'Migration20261216090000_portal_scale', class: Migration20261216090000_portal_scale },
  { name: 'Migration20261215090000_tracked_operations', class: Migration20261215090000_tracked_operations },
  {
    name: 'Migration20261217090000_device_dashboard_counts',
    class: Migration20261217090000_device_dashboard_counts,
  },
  { name: 'Migration20261218090000_foreign_key_indexes', class: Migration20261218090000_foreign_key_indexes },
  { name: 'Migration20261219090000_scoped_user_search', class: Migration20261219090000_scoped_user_search },
  { name: 'Migration20261224090000_list_plan_indexes', class: Migration20261224090000_list_plan_indexes },
  { name: 'Migration20261225090000_upn_folded', class: Migration20261225090000_upn_folded },
  {
    name: 'Migration20261225090100_guest_inactive_since',
    class: Migration20261225090100_guest_inactive_since,
  },
  {
    name: 'Migration20261225090200_scoped_tenant_user_search',
    class: Migration20261225090200_scoped_tenant_user_search,
  },
  {
    name: 'Migration20261226090000_user_search_columns',
    class: Migration20261226090000_user_search_columns,
  },
  {
    name: 'Migration20261226090100_portal_next_crossing',
    class: Migration20261226090100_portal_next_crossing,
  },
  {
    name: 'Migration20261226090200_portal_recount_indexes',
    class: Migration20261226090200_portal_recount_indexes,
  },
  {
    name: 'Migration20261227090000_unlogged_rate_limits',
    class: Migration20261227090000_unlogged_rate_limits,
  },
  {
    name: 'Migration20261228090000_device_recommendation_counts',
    class: Migration20261228090000_device_recommendation_counts,
  },
  {
    name: 'Migration20261228090100_users_folded_email_department',
    class: Migration20261228090100_users_folded_email_department,
  },
  {
    name: 'Migration20261229090000_portal_health_signals',
    class: Migration20261229090000_portal_health_signals,
  },
  {
    name: 'Migration20261229120000_isolation_type_spelling',
    class: Migration20261229120000_isolation_type_spelling,
  },
  {
    name: 'Migration20261230090000_backup_snapshot_resource_index',
    class: Migration20261230090000_backup_snapshot_resource_index,
  },
  {
    name: 'Migration20261230150000_connector_failed_items',
    class: Migration20261230150000_connector_failed_items,
  },
  {
    name: 'Migration20261231090000_tracked_run_tokens',
    class: Migration20261231090000_tracked_run_tokens,
  },
  {
    name: 'Migration20261231090000_cloud_connections',
    class: Migration20261231090000_cloud_connections,
  },
  {
    name: 'Migration20261231063000_partner_grants_index',
    class: Migration20261231063000_partner_grants_index,
  },
  {
    name: 'Migration20261231100000_upstream_tenant_owner',
    class: Migration20261231100000_upstream_tenant_owner,
  },
  {
    name: 'Migration20261231100100_directory_roles',
    class: Migration20261231100100_directory_roles,
  },
  {
    name: 'Migration20261231100200_jobs_in_flight',
    class: Migration20261231100200_jobs_in_flight,
  },
  {
    name: 'Migration20261231100300_import_passwords',
    class: Migration20261231100300_import_passwords,
  },
  {
    name: 'Migration20261231100400_organization_self',
    class: Migration20261231100400_organization_self,
  },
  {
    name: 'Migration20270103091800_upstream_tenant_holders',
    class: Migration20270103091800_upstream_tenant_holders,
  },
  {
    name: 'Migration20270103093000_dry_run_apply_operations',
    class: Migration20270103093000_dry_run_apply_operations,
  },
  {
    name: 'Migration20270103094000_import_passwords_purged',
    class: Migration20270103094000_import_passwords_purged,
  },
  {
    name: 'Migration20270127090000_portal_recount_merge_indexes',
    class: Migration20270127090000_portal_recount_merge_indexes,
  },
  {
    name: 'Migration20270127120400_user_sync_states',
    class: Migration20270127120400_user_sync_states,
  },
  {
    name: 'Migration20270127121200_backup_item_count_unknown',
    class: Migration20270127121200_backup_item_count_unknown,
  },
  {
    name: 'Migration20270127120000_apply_cloud_waits',
    class: Migration20270127120000_apply_cloud_waits,
  },
  {
    name: 'Migration20270127120100_enrollment_cloud_ids',
    class: Migration20270127120100_enrollment_cloud_ids,
  },
  {
    name: 'Migration20270127131500_graph_dlp_alerts',
    class: Migration20270127131500_graph_dlp_alerts,
  },
  {
    name: 'Migration20270127150500_cloud_secure_scores',
    class: Migration20270127150500_cloud_secure_scores,
  },
  {
    name: 'Migration20270127154500_portal_activity_counts',
    class: Migration20270127154500_portal_activity_counts,
  },
  {
    name: 'Migration20270127163000_portal_cloud_secure_scores',
    class: Migration20270127163000_portal_cloud_secure_scores,
  },
  {
    name: 'Migration20270127154700_tenant_cloud_permissions',
    class: Migration20270127154700_tenant_cloud_permissions,
  },
  {
    name: 'Migration20270127180600_webhook_delivery_claims',
    class: Migration20270127180600_webhook_delivery_claims,
  },
];
