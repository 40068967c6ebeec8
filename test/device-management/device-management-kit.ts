import type { CloudDeviceRecord } from '../../src/cloud/security.provider.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Scope } from '../../src/core/scope.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { SyncSummary } from '../../src/tenants/tenant-reconcile.js';
import { onServer } from '../helpers/on-server.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { ItemOf } from '../helpers/api-types.js';

/** What the device management tests share: REST calls with X-Tenant-Id, the simulated cloud, sync. */
export type { Envelope };

export type PolicyBody = ItemOf<'listEnrollmentRestrictions'>;

/** A REST call under /api (no X-Tenant-Id when `tenantId` is absent). */
export function api<T>(
  app: TestServer,
  method: string,
  path: string,
  options: { key: string; tenantId?: string; body?: unknown; headers?: Record<string, string> },
): Promise<ApiResponse<Envelope<T>>> {
  return app.request<Envelope<T>>(method, `/api${path}`, {
    key: options.key,
    body: options.body,
    headers: { ...(options.tenantId ? { 'X-Tenant-Id': options.tenantId } : {}), ...options.headers },
  });
}

export const RESTRICTIONS = '/devices/enrollment-restrictions';

export const fieldsOf = (body: Envelope) =>
  (body.error?.details.fields as Array<{ field: string; problem: string }> | undefined) ?? [];

export function simulated(app: TestServer): SimulatedCloud {
  return app.deps.clouds as SimulatedCloud;
}

/** Runs the tenant sync in-process (as the job would) and returns its summary. */
export function sync(app: TestServer, scope: Scope, tenantId: string): Promise<SyncSummary> {
  return onServer(app, 'syncTenant', scope, tenantId);
}

/** Devices in the cloud for a tenant (then `sync` brings them in). */
export async function addCloudDevices(
  app: TestServer,
  tenant: Tenant,
  devices: Array<Partial<CloudDeviceRecord>>,
): Promise<void> {
  for (const fields of devices) await simulated(app).security.addDevice(tenant.externalId, fields);
}

/** Creates a policy through REST and returns it (fails the test when refused). */
export async function createPolicy(
  app: TestServer,
  key: string,
  tenant: Tenant,
  body: Record<string, unknown>,
): Promise<PolicyBody> {
  const res = await api<PolicyBody>(app, 'POST', RESTRICTIONS, { key, tenantId: tenant.id, body });
  if (res.status !== 201) throw new Error(`create policy: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function rowCount(app: TestServer, table: string, tenantId: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(
    `select count(*)::int as n from ${table} where tenant_id = $1`,
    [tenantId],
  );
  return rows[0].n;
}

/** A blocked attempt written straight into our table (no cloud twin): for list plans and probes. */
export async function insertBlockedAttempt(app: TestServer, tenant: Tenant): Promise<string> {
  const { rows } = await app.pool.query<{ id: string }>(
    `insert into blocked_enrollment_attempts (id, organization_id, environment, tenant_id, external_id,
       user_principal_name, device_name, platform, os_version, ownership, manufacturer, reason, detail,
       policy_name, attempted_at, recorded_at)
     values (gen_random_uuid(), $1, $2, $3, gen_random_uuid()::text, 'probe@example.com', 'PROBE', 'macOS', '13',
       'Corporate', 'Apple', 'Platform Blocked', 'macOS is blocked', 'Probe', now(), now())
     returning id`,
    [tenant.organizationId, tenant.environment, tenant.id],
  );
  return rows[0].id;
}
