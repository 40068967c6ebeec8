import { upsertRecords } from '../sync/rows.js';
import type { SyncStep } from '../sync/sync-step.js';
import { isCloudError } from '../cloud/cloud-error.js';
import { allPages } from '../cloud/pages.js';

/**
 * The cloud's endpoint DLP policies and alerts in our rows: the mapping is the statements below (the cloud's
 * records → our columns; policy, device and user by the cloud's ids for them). Records gone upstream are kept.
 *
 * Each upsert is ONE statement over the whole snapshot (jsonb_to_recordset): new rows are inserted, known rows
 * take the cloud's values only when something differs, and `inserted` tells the two apart. Parameters:
 * organization, environment, tenant, now, the JSON records (upsertRecords, src/sync/rows.ts).
 */
const DLP_POLICIES_SQL = `
  insert into endpoint_dlp_policies (id, organization_id, environment, tenant_id, external_id, name, action,
    device_groups, monitored_activities, enabled, created_at)
  select gen_random_uuid(), s.org, s.env, s.tenant, r."externalId", r.name, r.action,
    array(select jsonb_array_elements_text(r."deviceGroups")),
    array(select jsonb_array_elements_text(r."monitoredActivities")), r.enabled, r."createdAt"
  from (select ?::uuid as org, ?::text as env, ?::uuid as tenant, ?::timestamptz as now) s
  cross join jsonb_to_recordset(?::jsonb) as r("externalId" text, name text, action text, "deviceGroups" jsonb,
    "monitoredActivities" jsonb, enabled boolean, "createdAt" timestamptz)
  on conflict (organization_id, environment, tenant_id, external_id) do update set
    name = excluded.name, action = excluded.action, device_groups = excluded.device_groups,
    monitored_activities = excluded.monitored_activities, enabled = excluded.enabled
  where (endpoint_dlp_policies.name, endpoint_dlp_policies.action, endpoint_dlp_policies.device_groups,
      endpoint_dlp_policies.monitored_activities, endpoint_dlp_policies.enabled)
    is distinct from (excluded.name, excluded.action, excluded.device_groups, excluded.monitored_activities,
      excluded.enabled)
  returning (xmax = 0) as inserted`;

/**
 * DLP alerts never change upstream once raised: new ones are inserted, known ones left alone. The policy is
 * ours when we hold the one the cloud names, else null (Microsoft 365 names policies Graph cannot list).
 */
const DLP_ALERTS_SQL = `
  insert into endpoint_dlp_alerts (id, organization_id, environment, tenant_id, external_id, policy_id,
    policy_name, activity, device_id, device_name, user_id, user_principal_name, file_name, action_taken,
    occurred_at)
  select gen_random_uuid(), s.org, s.env, s.tenant, r."externalId", p.id, p.name, r.activity, d.id,
    d.device_name, u.id, r."userPrincipalName", r."fileName", r."actionTaken", r."occurredAt"
  from (select ?::uuid as org, ?::text as env, ?::uuid as tenant, ?::timestamptz as now) s
  cross join jsonb_to_recordset(?::jsonb) as r("externalId" text, "policyExternalId" text, activity text,
    "deviceExternalId" text, "userExternalId" text, "userPrincipalName" text, "fileName" text,
    "actionTaken" text, "occurredAt" timestamptz)
  left join endpoint_dlp_policies p on p.organization_id = s.org and p.environment = s.env
    and p.tenant_id = s.tenant and p.external_id = r."policyExternalId"
  left join devices d on d.organization_id = s.org and d.environment = s.env and d.tenant_id = s.tenant
    and d.external_id = r."deviceExternalId"
  left join users u on u.organization_id = s.org and u.environment = s.env and u.tenant_id = s.tenant
    and u.external_id = r."userExternalId"
  on conflict (organization_id, environment, tenant_id, external_id) do nothing
  returning true as inserted`;

/**
 * Policies, then their alerts, after the users and devices the alerts name; two statements. A cloud without
 * a DLP policy API (Microsoft 365: CloudError Unsupported) still gives its DLP alerts: the step notes the
 * policies as not available and writes the alerts.
 */
export const endpointDlpSyncStep: SyncStep = {
  name: 'endpoint-dlp',
  after: ['users', 'devices'],
  async read({ cloud, tenant }) {
    const [policies, alerts] = await Promise.all([
      allPages(cloud.security.listDlpPolicies()).catch((error: unknown) => {
        if (isCloudError(error, 'Unsupported')) return error;
        throw error;
      }),
      allPages(cloud.security.listDlpAlerts(tenant.lastSyncedAt)),
    ]);
    return async ({ ctx, tenant, now, warn }) => {
      const params = [ctx.scope.organizationId, ctx.scope.environment, tenant.id, now];
      if (!Array.isArray(policies))
        warn(
          `endpoint-dlp: policies not available on ${policies.provider ?? 'this cloud'} (${policies.message})`,
        );
      const upsertedPolicies = Array.isArray(policies)
        ? await upsertRecords(ctx.em, DLP_POLICIES_SQL, params, policies)
        : { created: 0, updated: 0 };
      const upsertedAlerts = await upsertRecords(ctx.em, DLP_ALERTS_SQL, params, alerts);
      return {
        dlpPoliciesCreated: upsertedPolicies.created,
        dlpPoliciesUpdated: upsertedPolicies.updated,
        dlpAlertsCreated: upsertedAlerts.created,
      };
    };
  },
};
