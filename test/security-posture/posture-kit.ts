import { request as httpRequest } from 'node:http';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import { SIMULATED_SECURITY_CONTROLS } from '../../src/cloud/simulated/simulated-security-controls.js';
import { onServer } from '../helpers/on-server.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestServer } from '../helpers/shared-suite.js';
import type { ApiResponse } from '../helpers/test-app.js';
import type { Scope } from '../../src/core/scope.js';
import { createTenant } from '../factories/shared.js';

export const CONTROL_IDS = SIMULATED_SECURITY_CONTROLS.map((control) => control.controlId);

export function simulatedCloud(app: TestServer): SimulatedCloud {
  return app.deps.clouds as SimulatedCloud;
}

/** Copies the tenant's security controls from the simulated cloud, as a sync does. */
export function syncPosture(app: TestServer, tenant: Tenant): Promise<void> {
  return onServer(app, 'syncPosture', tenant);
}

/**
 * A synced tenant whose controls are exactly as given: `open` not met (apply supported), the rest met.
 * Defaults to every control open.
 */
export async function postureTenant(
  app: TestServer,
  scope: Scope,
  open: readonly string[] = CONTROL_IDS,
): Promise<Tenant> {
  const tenant = await createTenant(app, scope);
  for (const controlId of CONTROL_IDS) {
    await simulatedCloud(app).posture.setControl(tenant.externalId, controlId, {
      compliant: !open.includes(controlId),
      applySupported: true,
      applyFailure: null,
    });
  }
  await syncPosture(app, tenant);
  return tenant;
}

/** A GET with a JSON body (fetch refuses one, SPEC 4.3 sends one): plain node:http. */
export function getWithBody<T>(
  app: TestServer,
  path: string,
  key: string,
  body: unknown,
): Promise<ApiResponse<Envelope<T>>> {
  const url = new URL(app.baseUrl + path);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'GET',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: new Headers(res.headers as Record<string, string>),
            body: JSON.parse(text) as Envelope<T>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Row counts of every table an apply could touch, and a digest of the simulated cloud's objects, in the given
 * organizations (the file's: on the jest worker's shared server other files' rows are in the same tables) and
 * their tenants. Queued jobs are counted whole: the shared server drops every job between files.
 */
export async function postureFootprint(
  app: TestServer,
  organizationIds: string[],
): Promise<Record<string, string>> {
  const { rows } = await app.pool.query<Record<string, string>>(
    `
    select (select count(*) from recommendation_apply_operations where organization_id = any($1::uuid[]))::text as operations,
           (select count(*) from recommendation_apply_results where organization_id = any($1::uuid[]))::text as results,
           (select count(*) from recommendation_status_changes where organization_id = any($1::uuid[]))::text as changes,
           (select count(*) from domain_events where organization_id = any($1::uuid[]))::text as events,
           (select count(*) from graphile_worker.jobs)::text as jobs,
           (select md5(string_agg(status || compliant::text || updated_at::text, ',' order by id))
              from tenant_recommendations where organization_id = any($1::uuid[])) as states,
           (select md5(string_agg(data::text, ',' order by id)) from sim_cloud_objects
             where tenant_external_id in (select external_id from tenants where organization_id = any($1::uuid[])))
             as cloud`,
    [organizationIds],
  );
  return rows[0];
}

/** A synced tenant where only `controlId` is known to be unmet (the others as generated). */
export async function tenantMissing(app: TestServer, scope: Scope, controlId: string): Promise<Tenant> {
  const tenant = await createTenant(app, scope);
  await simulatedCloud(app).posture.setControl(tenant.externalId, controlId, {
    compliant: false,
    applySupported: true,
    applyFailure: null,
  });
  await syncPosture(app, tenant);
  return tenant;
}
