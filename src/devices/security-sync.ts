import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudProvider } from '../cloud/provider.js';
import type {
  CloudAlertRecord,
  CloudDeviceRecord,
  CloudDlpAlertRecord,
  CloudDlpPolicyRecord,
} from '../cloud/security.provider.js';
import { emitEvent, type ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';

/** What a sync reads from the security side of the cloud, before any write. */
export interface SecuritySnapshot {
  devices: CloudDeviceRecord[];
  alerts: CloudAlertRecord[];
  dlpPolicies: CloudDlpPolicyRecord[];
  dlpAlerts: CloudDlpAlertRecord[];
}

export async function readSecurityUpstream(
  provider: CloudProvider,
  tenantExternalId: string,
): Promise<SecuritySnapshot> {
  const [devices, alerts, dlpPolicies, dlpAlerts] = await Promise.all([
    provider.security.listDevices(tenantExternalId),
    provider.security.listAlerts(tenantExternalId),
    provider.security.listDlpPolicies(tenantExternalId),
    provider.security.listDlpAlerts(tenantExternalId),
  ]);
  return { devices, alerts, dlpPolicies, dlpAlerts };
}

/**
 * Each upsert is ONE statement over the whole snapshot (jsonb_to_recordset): new rows are inserted, known
 * rows take the cloud's values only when something differs, and `inserted` tells the two apart. Parameters:
 * organization, environment, tenant, now, the JSON records.
 */
const DEVICES_SQL = `
  insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
    os_version, ownership, manufacturer, model, enrolled_at, compliance_state, compliance_grace_expires_at,
    user_id, risk_level, risk_rank, exposure_score, health_state, onboarding_status, last_seen_at,
    open_recommendations, isolation_state, created_at, updated_at)
  select gen_random_uuid(), s.org, s.env, s.tenant, r."externalId", r."deviceName", r."osPlatform", r."osVersion",
    r.ownership, r.manufacturer, r.model, r."enrolledAt", r."complianceState", r."complianceGraceExpiresAt",
    u.id, r."riskLevel",
    case r."riskLevel" when 'High' then 3 when 'Medium' then 2 when 'Low' then 1 else 0 end,
    r."exposureScore", r."healthState", r."onboardingStatus", r."lastSeenAt",
    array(select jsonb_array_elements_text(r."openRecommendations")),
    case when r.isolated then 'Isolated' else 'Not isolated' end, s.now, s.now
  from (select ?::uuid as org, ?::text as env, ?::uuid as tenant, ?::timestamptz as now) s
  cross join jsonb_to_recordset(?::jsonb) as r("externalId" text, "deviceName" text, "osPlatform" text,
    "osVersion" text, ownership text, manufacturer text, model text, "enrolledAt" timestamptz,
    "complianceState" text, "complianceGraceExpiresAt" timestamptz, "userExternalId" text, "riskLevel" text,
    "exposureScore" int, "healthState" text, "onboardingStatus" text, "lastSeenAt" timestamptz,
    "openRecommendations" jsonb, isolated boolean)
  left join users u on u.organization_id = s.org and u.environment = s.env and u.tenant_id = s.tenant
    and u.external_id = r."userExternalId"
  on conflict (organization_id, environment, tenant_id, external_id) do update set
    device_name = excluded.device_name, os_platform = excluded.os_platform, os_version = excluded.os_version,
    ownership = excluded.ownership, manufacturer = excluded.manufacturer, model = excluded.model,
    enrolled_at = excluded.enrolled_at, compliance_state = excluded.compliance_state,
    compliance_grace_expires_at = excluded.compliance_grace_expires_at, user_id = excluded.user_id,
    risk_level = excluded.risk_level, risk_rank = excluded.risk_rank, exposure_score = excluded.exposure_score,
    health_state = excluded.health_state, onboarding_status = excluded.onboarding_status,
    last_seen_at = excluded.last_seen_at, open_recommendations = excluded.open_recommendations,
    updated_at = excluded.updated_at
  where (devices.device_name, devices.os_platform, devices.os_version, devices.ownership, devices.manufacturer,
      devices.model, devices.enrolled_at, devices.compliance_state, devices.compliance_grace_expires_at,
      devices.user_id, devices.risk_level, devices.exposure_score, devices.health_state,
      devices.onboarding_status, devices.last_seen_at, devices.open_recommendations)
    is distinct from (excluded.device_name, excluded.os_platform, excluded.os_version, excluded.ownership,
      excluded.manufacturer, excluded.model, excluded.enrolled_at, excluded.compliance_state,
      excluded.compliance_grace_expires_at, excluded.user_id, excluded.risk_level, excluded.exposure_score,
      excluded.health_state, excluded.onboarding_status, excluded.last_seen_at, excluded.open_recommendations)
  returning (xmax = 0) as inserted`;

const ALERTS_SQL = `
  insert into security_alerts (id, organization_id, environment, tenant_id, external_id, title, description,
    severity, severity_rank, status, category, source, affected_entity, user_id, device_id, created_at,
    updated_at)
  select gen_random_uuid(), s.org, s.env, s.tenant, r."externalId", r.title, r.description, r.severity,
    case r.severity when 'High' then 4 when 'Medium' then 3 when 'Low' then 2 else 1 end,
    r.status, r.category, r.source, r."affectedEntity", u.id, d.id, r."createdAt", s.now
  from (select ?::uuid as org, ?::text as env, ?::uuid as tenant, ?::timestamptz as now) s
  cross join jsonb_to_recordset(?::jsonb) as r("externalId" text, title text, description text,
    severity text, status text, category text, source text, "affectedEntity" text, "userExternalId" text,
    "deviceExternalId" text, "createdAt" timestamptz)
  left join users u on u.organization_id = s.org and u.environment = s.env and u.tenant_id = s.tenant
    and u.external_id = r."userExternalId"
  left join devices d on d.organization_id = s.org and d.environment = s.env and d.tenant_id = s.tenant
    and d.external_id = r."deviceExternalId"
  on conflict (organization_id, environment, tenant_id, external_id) do update set
    title = excluded.title, description = excluded.description, severity = excluded.severity,
    severity_rank = excluded.severity_rank, status = excluded.status, category = excluded.category,
    source = excluded.source, affected_entity = excluded.affected_entity, user_id = excluded.user_id,
    device_id = excluded.device_id, updated_at = excluded.updated_at
  where (security_alerts.title, security_alerts.description, security_alerts.severity, security_alerts.status,
      security_alerts.category, security_alerts.source, security_alerts.affected_entity,
      security_alerts.user_id, security_alerts.device_id)
    is distinct from (excluded.title, excluded.description, excluded.severity, excluded.status,
      excluded.category, excluded.source, excluded.affected_entity, excluded.user_id, excluded.device_id)
  returning (xmax = 0) as inserted, id, title, severity, status, category, source, affected_entity,
    user_id, device_id, to_json(created_at) #>> '{}' as created_at`;

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

/** DLP alerts never change upstream once raised: new ones are inserted, known ones left alone. */
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
  join endpoint_dlp_policies p on p.organization_id = s.org and p.environment = s.env
    and p.tenant_id = s.tenant and p.external_id = r."policyExternalId"
  left join devices d on d.organization_id = s.org and d.environment = s.env and d.tenant_id = s.tenant
    and d.external_id = r."deviceExternalId"
  left join users u on u.organization_id = s.org and u.environment = s.env and u.tenant_id = s.tenant
    and u.external_id = r."userExternalId"
  on conflict (organization_id, environment, tenant_id, external_id) do nothing
  returning true as inserted`;

interface AlertRow {
  inserted: boolean;
  id: string;
  title: string;
  severity: string;
  status: string;
  category: string;
  source: string;
  affected_entity: string;
  user_id: string | null;
  device_id: string | null;
  created_at: string;
}

async function upsert<T extends { inserted: boolean }>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  records: unknown[],
): Promise<{ rows: T[]; created: number; updated: number }> {
  if (records.length === 0) return { rows: [], created: 0, updated: 0 };
  const rows = await em.execute<T[]>(sql, [...params, JSON.stringify(records)]);
  const created = rows.filter((row) => row.inserted).length;
  return { rows, created, updated: rows.length - created };
}

/**
 * Reconciles a tenant's devices, alerts and endpoint DLP with the cloud inside the sync's transaction, in
 * a fixed number of statements. Each new alert emits `alert.created`. Isolation is not taken from the cloud
 * for known devices: it follows our own actions (device-action.task.ts). Records gone upstream are kept.
 */
export async function reconcileSecurity(
  ctx: ServiceContext,
  tenant: Tenant,
  snapshot: SecuritySnapshot,
  now: Date,
): Promise<Record<string, number>> {
  const params = [ctx.scope.organizationId, ctx.scope.environment, tenant.id, now];
  const devices = await upsert(ctx.em, DEVICES_SQL, params, snapshot.devices);
  const alerts = await upsert<AlertRow>(ctx.em, ALERTS_SQL, params, snapshot.alerts);
  const policies = await upsert(ctx.em, DLP_POLICIES_SQL, params, snapshot.dlpPolicies);
  const dlpAlerts = await upsert(ctx.em, DLP_ALERTS_SQL, params, snapshot.dlpAlerts);
  const created = alerts.rows.filter((row) => row.inserted);
  // In the order the cloud raised them, so subscribers see a tenant's alerts as they happened.
  created.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  for (const alert of created) {
    await emitEvent(ctx, {
      kind: 'alert.created',
      severity: alert.severity.toLowerCase() as 'high' | 'medium' | 'low' | 'informational',
      tenant: tenant.eventRef,
      details: {
        alertId: alert.id,
        title: alert.title,
        severity: alert.severity,
        status: alert.status,
        category: alert.category,
        source: alert.source,
        affectedEntity: alert.affected_entity,
        userId: alert.user_id,
        deviceId: alert.device_id,
        createdAt: alert.created_at,
      },
      actionPath: `/tenants/${tenant.id}/security/alerts/${alert.id}`,
    });
  }
  return {
    devicesCreated: devices.created,
    devicesUpdated: devices.updated,
    alertsCreated: alerts.created,
    alertsUpdated: alerts.updated,
    dlpPoliciesCreated: policies.created,
    dlpPoliciesUpdated: policies.updated,
    dlpAlertsCreated: dlpAlerts.created,
  };
}
