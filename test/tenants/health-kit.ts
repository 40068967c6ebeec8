import type { Scope } from '../../src/core/scope.js';
import { PortalAggregates } from '../../src/portal/portal-aggregates.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import type { Envelope } from '../helpers/envelope.js';
import type { TestApp } from '../helpers/test-app.js';

/**
 * Health signal rows written straight into our tables, as a sync would leave them (the statement-level triggers
 * mark the tenant for the portal recount either way), and the reads of tenant health through the API.
 */

const SEVERITY_RANK: Record<string, number> = { High: 4, Medium: 3, Low: 2, Informational: 1 };

/** `count` alerts of the tenant with this severity and status; returns their ids. */
export async function insertAlerts(
  app: TestApp,
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
  app: TestApp,
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
export function recountMarked(app: TestApp): Promise<number> {
  return new PortalAggregates(app.orm.em.fork(), app.clock).refreshDirty();
}

/** `health` of the tenant record (REST, SPEC's spelling), after the recount of marked tenants. */
export async function healthOf(app: TestApp, key: string, tenant: Tenant): Promise<string> {
  await recountMarked(app);
  const res = await app.request<Envelope<{ health: string }>>('GET', `/v1/tenants/${tenant.id}`, { key });
  if (res.status !== 200) throw new Error(`GET /v1/tenants/${tenant.id}: ${res.status}`);
  return res.body.data.health;
}

export interface StatsBody {
  total_tenants: number;
  healthy_count: number;
  warning_count: number;
  critical_count: number;
}

/** The portal's tenant stats, after the recount of marked tenants. */
export async function portalStats(app: TestApp, key: string): Promise<StatsBody> {
  await recountMarked(app);
  const res = await app.request<Envelope<StatsBody>>('GET', '/api/msp-portal/tenants/stats', { key });
  if (res.status !== 200) throw new Error(`tenant stats: ${res.status}`);
  return res.body.data;
}
