import type { EntityManager } from '@mikro-orm/postgresql';
import type { CloudSecurityControlRecord } from '../cloud/security-posture.provider.js';
import type { Scope } from '../core/scope.js';
import type { SyncStep } from '../sync/sync-step.js';
import { recommendationDefinition } from './recommendation.catalog.js';
import { allPages } from '../cloud/pages.js';

/**
 * Copies a tenant's security controls from the cloud into tenant_recommendations in one statement (the tenant
 * sync's step below, inside its transaction): new rows start Open; known rows take the cloud's compliance and
 * support and keep their status (a dismissal survives a sync). Controls we have no recommendation for are
 * ignored. Returns how many rows changed.
 */
export async function reconcileRecommendations(
  em: EntityManager,
  scope: Scope,
  tenantId: string,
  controls: CloudSecurityControlRecord[],
  now: Date,
): Promise<number> {
  const known = controls.filter((control) => recommendationDefinition(control.controlId));
  if (known.length === 0) return 0;
  const result = await em.execute<{ affectedRows: number }>(
    `insert into tenant_recommendations (id, organization_id, environment, tenant_id, recommendation_id, compliant,
       apply_supported, status, updated_at)
     select gen_random_uuid(), ?, ?, ?, c.control_id, c.compliant, c.apply_supported, 'Open', ?
       from jsonb_to_recordset(?::jsonb) as c(control_id text, compliant boolean, apply_supported boolean)
     on conflict (tenant_id, recommendation_id) do update set
       compliant = excluded.compliant, apply_supported = excluded.apply_supported, updated_at = excluded.updated_at
     where (tenant_recommendations.compliant, tenant_recommendations.apply_supported)
       is distinct from (excluded.compliant, excluded.apply_supported)`,
    [
      scope.organizationId,
      scope.environment,
      tenantId,
      now,
      JSON.stringify(
        known.map((c) => ({
          control_id: c.controlId,
          compliant: c.compliant,
          apply_supported: c.applySupported,
        })),
      ),
    ],
    'run',
  );
  return result.affectedRows;
}

/** The tenant's security controls, as recommendations (`recommendationsChanged`). */
export const recommendationsSyncStep: SyncStep = {
  name: 'recommendations',
  async read({ cloud }) {
    const controls = await allPages(cloud.securityPosture.listSecurityControls());
    return async ({ ctx, tenant, now }) => ({
      recommendationsChanged: await reconcileRecommendations(ctx.em, ctx.scope, tenant.id, controls, now),
    });
  },
};
