import type { Scope } from '../../src/core/scope.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import { onServer } from '../helpers/on-server.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { DataOf } from '../helpers/api-types.js';

/**
 * Health signal rows written straight into our tables, as a sync would leave them (the statement-level triggers
 * mark the tenant for the portal recount either way), and the reads of tenant health through the API.
 */

const SEVERITY_RANK: Record<string, number> = { High: 4, Medium: 3, Low: 2, Informational: 1 };

/** `count` alerts of the tenant with this severity and status; returns their ids. */
export async function insertAlerts(
  app: TestServer,
  scope: Scope,
  tenant: Tenant,
  count: number,
  fields: { severity?: string; status?: string } = {},
): Promise<string[]> {
  const severity = fields.severity ?? 'High';
  const { rows } = await app.pool.query<{ id: string }>(
    `insert into security_alerts (id, organization_id, environment, tenant_id, external_id, title, description,
       severity, severity_rank, status, category, source, affected_entity, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, gen_random_uuid()::text, 'Health probe', '', $4, $5, $6, 'Malware',
       'Defender', 'PROBE', now(), now()
       from generate_series(1, $7::int)
     returning id`,
    [
      scope.organizationId,
      scope.environment,
      tenant.id,
      severity,
      SEVERITY_RANK[severity],
      fields.status ?? 'New',
      count,
    ],
  );
  return rows.map((row) => row.id);
}

/** `count` devices of the tenant in this compliance state; returns their ids. */
export async function insertDevices(
  app: TestServer,
  scope: Scope,
  tenant: Tenant,
  count: number,
  complianceState = 'Compliant',
): Promise<string[]> {
  const { rows } = await app.pool.query<{ id: string }>(
    `insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
       os_version, ownership, manufacturer, model, enrolled_at, compliance_state, risk_level, risk_rank,
       exposure_score, health_state, onboarding_status, last_seen_at, open_recommendations, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, gen_random_uuid()::text, 'PROBE', 'Windows', '10', 'Corporate', 'Dell',
       'X', now(), $4, 'Low', 1, 10, 'Active', 'Onboarded', now(), '{}', now(), now()
       from generate_series(1, $5::int)
     returning id`,
    [scope.organizationId, scope.environment, tenant.id, complianceState, count],
  );
  return rows.map((row) => row.id);
}

/** The one-minute job that recounts the tenants our writes marked (reads never recount). */
export function recountMarked(app: TestServer): Promise<number> {
  return onServer(app, 'recountMarkedTenants');
}

/** `health` of the tenant record (REST, SPEC's spelling), after the recount of marked tenants. */
export async function healthOf(app: TestServer, key: string, tenant: Tenant): Promise<string> {
  await recountMarked(app);
  const res = await app.request<Envelope<{ health: string }>>('GET', `/v1/tenants/${tenant.id}`, { key });
  if (res.status !== 200) throw new Error(`GET /v1/tenants/${tenant.id}: ${res.status}`);
  return res.body.data.health;
}

export type StatsBody = DataOf<'portalTenantStats'>;

/** The portal's tenant stats, after the recount of marked tenants. */
export async function portalStats(app: TestServer, key: string): Promise<StatsBody> {
  await recountMarked(app);
  const res = await app.request<Envelope<StatsBody>>('GET', '/api/msp-portal/tenants/stats', { key });
  if (res.status !== 200) throw new Error(`tenant stats: ${res.status}`);
  return res.body.data;
}

/** The health signals a tenant's portal aggregates store (ISO time for the backup). */
export interface HealthSignalCounts {
  openHighAlerts: number;
  devices: number;
  nonCompliantDevices: number;
  /** The oldest of the protected resources' newest snapshots, null without snapshots. */
  oldestLatestBackupAt: string | null;
}

export const NO_SIGNALS: HealthSignalCounts = {
  openHighAlerts: 0,
  devices: 0,
  nonCompliantDevices: 0,
  oldestLatestBackupAt: null,
};

/** The signals counted here from every alert, device and snapshot row of the tenants (not the stored counts). */
export async function countHealthSignals(
  app: TestServer,
  ids: string[],
): Promise<Record<string, HealthSignalCounts>> {
  const result = Object.fromEntries(ids.map((id) => [id, { ...NO_SIGNALS }]));
  const alerts = await app.pool.query<{ tenant_id: string; severity: string; status: string }>(
    `select tenant_id, severity, status from security_alerts where tenant_id = any($1)`,
    [ids],
  );
  for (const alert of alerts.rows)
    if (alert.severity === 'High' && (alert.status === 'New' || alert.status === 'In Progress'))
      result[alert.tenant_id].openHighAlerts++;
  const devices = await app.pool.query<{ tenant_id: string; compliance_state: string }>(
    `select tenant_id, compliance_state from devices where tenant_id = any($1)`,
    [ids],
  );
  for (const device of devices.rows) {
    result[device.tenant_id].devices++;
    if (device.compliance_state === 'Non-Compliant') result[device.tenant_id].nonCompliantDevices++;
  }
  const snapshots = await app.pool.query<{ tenant_id: string; resource_id: string; taken_at: Date }>(
    `select tenant_id, resource_id, taken_at from backup_snapshots where tenant_id = any($1)`,
    [ids],
  );
  const latest = new Map<string, { tenantId: string; at: number }>();
  for (const snapshot of snapshots.rows) {
    const key = `${snapshot.tenant_id}/${snapshot.resource_id}`;
    const at = snapshot.taken_at.getTime();
    if ((latest.get(key)?.at ?? -Infinity) < at) latest.set(key, { tenantId: snapshot.tenant_id, at });
  }
  for (const { tenantId, at } of latest.values()) {
    const tenant = result[tenantId];
    if (tenant.oldestLatestBackupAt === null || at < Date.parse(tenant.oldestLatestBackupAt))
      tenant.oldestLatestBackupAt = new Date(at).toISOString();
  }
  return result;
}

/** The signals stored in the tenants' portal aggregates (tenants without a row are left out). */
export async function storedHealthSignals(
  app: TestServer,
  ids: string[],
): Promise<Record<string, HealthSignalCounts>> {
  const { rows } = await app.pool.query<{
    tenant_id: string;
    open_high_alerts: number;
    devices: number;
    non_compliant_devices: number;
    oldest_latest_backup_at: Date | null;
  }>(
    `select tenant_id, open_high_alerts, devices, non_compliant_devices, oldest_latest_backup_at
       from portal_tenant_aggregates where tenant_id = any($1)`,
    [ids],
  );
  return Object.fromEntries(
    rows.map((row) => [
      row.tenant_id,
      {
        openHighAlerts: row.open_high_alerts,
        devices: row.devices,
        nonCompliantDevices: row.non_compliant_devices,
        oldestLatestBackupAt: row.oldest_latest_backup_at?.toISOString() ?? null,
      },
    ]),
  );
}
