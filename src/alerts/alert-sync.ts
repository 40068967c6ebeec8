import { emitEvent } from '../core/service-context.js';
import { upsertRecords } from '../sync/rows.js';
import type { SyncStep } from '../sync/sync-step.js';
import { allPages } from '../cloud/pages.js';
import { copyCloudComments } from './alert-comment-sync.js';

/**
 * The cloud's security alerts in our rows: the mapping is the statement below (the cloud's record → our
 * columns; user and device by the cloud's ids for them). Alerts gone upstream are kept.
 *
 * Each upsert is ONE statement over the whole snapshot (jsonb_to_recordset): new rows are inserted, known rows
 * take the cloud's values only when something differs, and `inserted` tells the two apart. Parameters:
 * organization, environment, tenant, now, the JSON records (upsertRecords, src/sync/rows.ts).
 */
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

/**
 * Alerts, after the users and devices they name; one statement, and one more for the comments the cloud
 * holds when it has any (alert-comment-sync.ts). Each new alert emits `alert.created`, in the order the cloud
 * raised them, so subscribers see a tenant's alerts as they happened.
 */
export const alertsSyncStep: SyncStep = {
  name: 'alerts',
  after: ['users', 'devices'],
  async read({ cloud, tenant }) {
    const alerts = await allPages(cloud.security.listAlerts(tenant.lastSyncedAt));
    return async ({ ctx, tenant, now }) => {
      const params = [ctx.scope.organizationId, ctx.scope.environment, tenant.id, now];
      const records = alerts.map(({ comments: _comments, ...alert }) => alert);
      const upserted = await upsertRecords<AlertRow>(ctx.em, ALERTS_SQL, params, records);
      // Comments written in the cloud's portal become notes here too (not in the summary's counts).
      await copyCloudComments(ctx.em, ctx.scope, tenant.id, alerts);
      const created = upserted.rows.filter((row) => row.inserted);
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
      return { alertsCreated: upserted.created, alertsUpdated: upserted.updated };
    };
  },
};
