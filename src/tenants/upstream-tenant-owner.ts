import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ConflictError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import { UPSTREAM_TENANT_UNIQUE } from './tenant.entity.js';

/**
 * An upstream (cloud) tenant belongs to one environment of one organization (issue #32 item 1,
 * docs/decisions.md "Onboarding"): sandbox credentials must never act on a customer the live environment
 * manages, nor one organization on another's. Onboarding asks who holds the tenant before writing; the
 * request's own role sees only its organization's rows, so the question goes through the SECURITY DEFINER
 * function `upstream_tenant_holder` (migration 20261231090000), which answers nothing but the holder.
 * Two onboardings at once are settled by the unique constraint on `tenants.external_id`
 * (`conflictOfUniqueViolation`).
 */
export async function requireUpstreamTenantFree(
  em: EntityManager,
  scope: Scope,
  externalId: string,
): Promise<void> {
  const rows = await em
    .getConnection()
    .execute<{ organization_id: string; environment: string }[]>(
      'select organization_id, environment from upstream_tenant_holder(?)',
      [externalId],
    );
  const holder = rows[0];
  if (!holder) return;
  if (holder.organization_id !== scope.organizationId) {
    // Nothing about the other organization is told, only that the tenant is taken.
    throw new ConflictError(
      'This cloud tenant is administered by another organization; an upstream tenant belongs to one ' +
        'environment of one organization',
      { reason: 'UPSTREAM_TENANT_TAKEN' },
    );
  }
  if (holder.environment !== scope.environment) {
    throw new ConflictError(
      `This cloud tenant is already onboarded in your organization's ${holder.environment} environment; an ` +
        'upstream tenant belongs to one environment of one organization',
      { reason: 'UPSTREAM_TENANT_TAKEN', environment: holder.environment },
    );
  }
}

/** The 409 for an insert that lost the race to another onboarding of the same cloud tenant, else undefined. */
export function conflictOfUniqueViolation(error: unknown): ConflictError | undefined {
  if (!(error instanceof UniqueConstraintViolationException)) return undefined;
  if (!error.message.includes(UPSTREAM_TENANT_UNIQUE)) return undefined;
  return new ConflictError(
    'This cloud tenant was onboarded elsewhere at the same time; an upstream tenant belongs to one ' +
      'environment of one organization',
    { reason: 'UPSTREAM_TENANT_TAKEN' },
  );
}
