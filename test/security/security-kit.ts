import type { CloudAlertRecord, CloudDeviceRecord } from '../../src/cloud/security.provider.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Scope } from '../../src/core/scope.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { SyncSummary } from '../../src/tenants/tenant-reconcile.js';
import { onServer } from '../helpers/on-server.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import { eventually } from '../helpers/eventually.js';

/** What the security tests share: calls with X-Tenant-Id, the simulated cloud's hooks, sync, job waits. */
export type { Envelope };

export function securityCloud(app: TestServer): SimulatedCloud['security'] {
  return (app.deps.clouds as SimulatedCloud).security;
}

/** A REST call to /api/security/... in a tenant (no header when `tenantId` is absent). */
export function api<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown },
): Promise<ApiResponse<Envelope<T>>> {
  return app.request<Envelope<T>>(method, `/api/security${path}`, {
    key: options.key,
    body: options.body,
    headers: options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {},
  });
}

/** Runs the tenant sync in-process (as the job would) and returns its summary. */
export function sync(app: TestServer, scope: Scope, tenantId: string): Promise<SyncSummary> {
  return onServer(app, 'syncTenant', scope, tenantId);
}

/** Cloud devices and alerts for a tenant, then a sync: returns our ids by the cloud's. */
export async function seedSecurity(
  app: TestServer,
  scope: Scope,
  tenant: Tenant,
  records: { devices?: Array<Partial<CloudDeviceRecord>>; alerts?: Array<Partial<CloudAlertRecord>> },
): Promise<{ deviceIds: string[]; alertIds: string[] }> {
  const cloud = securityCloud(app);
  const devices: CloudDeviceRecord[] = [];
  for (const fields of records.devices ?? []) devices.push(await cloud.addDevice(tenant.externalId, fields));
  const alerts: CloudAlertRecord[] = [];
  for (const fields of records.alerts ?? []) alerts.push(await cloud.raiseAlert(tenant.externalId, fields));
  await sync(app, scope, tenant.id);
  const idOf = async (table: string, externalId: string) => {
    const { rows } = await app.pool.query<{ id: string }>(
      `select id from ${table} where tenant_id = $1 and external_id = $2`,
      [tenant.id, externalId],
    );
    return rows[0].id;
  };
  return {
    deviceIds: await Promise.all(devices.map((d) => idOf('devices', d.externalId))),
    alertIds: await Promise.all(alerts.map((a) => idOf('security_alerts', a.externalId))),
  };
}

/** Waits (reading the row directly) until a device action is Succeeded or Failed; returns its status. */
export async function waitForAction(app: TestServer, actionId: string): Promise<string> {
  return eventually(
    async () => {
      const { rows } = await app.pool.query<{ status: string }>(
        'select status from device_actions where id = $1',
        [actionId],
      );
      expect(['Succeeded', 'Failed']).toContain(rows[0]?.status);
      return rows[0].status;
    },
    { what: `device action ${actionId} to finish` },
  );
}

/** Outbox events of a kind in a tenant, oldest first. */
export async function eventsOf(
  app: TestServer,
  tenantId: string,
  kind: string,
): Promise<Array<{ details: Record<string, unknown>; severity: string }>> {
  const { rows } = await app.pool.query<{ payload: { details: Record<string, unknown>; severity: string } }>(
    'select payload from domain_events where tenant_id = $1 and kind = $2 order by occurred_at, id',
    [tenantId, kind],
  );
  return rows.map((row) => row.payload);
}

export const fieldsOf = (body: Envelope) =>
  (body.error?.details.fields as Array<{ field: string; problem: string }> | undefined) ?? [];

/**
 * An alert and an onboarded device written straight into our tables, for read and comment probes; the alert
 * also exists in the simulated cloud (a comment reaches the cloud first), the device does not.
 */
export async function insertSecurityRows(
  app: TestServer,
  scope: Scope,
  tenant: Tenant,
): Promise<{ alertId: string; deviceId: string }> {
  const { externalId } = await securityCloud(app).raiseAlert(tenant.externalId, { title: 'Probe' });
  const { rows } = await app.pool.query<{ alert_id: string; device_id: string }>(
    `with d as (
       insert into devices (id, organization_id, environment, tenant_id, external_id, device_name, os_platform,
         os_version, ownership, manufacturer, model, enrolled_at, compliance_state, risk_level, risk_rank,
         exposure_score, health_state, onboarding_status, last_seen_at, open_recommendations, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, $3, gen_random_uuid()::text, 'PROBE', 'Windows', '10', 'Corporate', 'Dell',
         'X', now(), 'Compliant', 'Low', 1, 10, 'Active', 'Onboarded', now(), '{}', now(), now())
       returning id),
     a as (
       insert into security_alerts (id, organization_id, environment, tenant_id, external_id, title, description,
         severity, severity_rank, status, category, source, affected_entity, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, $3, $4, 'Probe', '', 'Low', 2, 'New', 'Malware',
         'Defender', 'PROBE', now(), now())
       returning id)
     select a.id as alert_id, d.id as device_id from a, d`,
    [scope.organizationId, scope.environment, tenant.id, externalId],
  );
  return { alertId: rows[0].alert_id, deviceId: rows[0].device_id };
}
