import { ForbiddenError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantStatus, type Tenant } from './tenant.entity.js';

/** How a partner obtains consent: the customer's admin grants it (the CLI plays that admin for the demo). */
export function howToObtainConsent(externalId: string): string {
  return (
    "Ask the customer's administrator to accept your organization's delegated admin relationship in the " +
    `cloud's admin center; with the simulated cloud, the operator grants it: ` +
    `npm run -s cli -- tenants grant ${externalId} --org <your organization slug>`
  );
}

/**
 * Onboarding asks the cloud whether the tenant granted the caller's organization delegated access. No grant
 * — and an unknown external id, which a partner cannot tell apart from one in the real cloud — is 403
 * FORBIDDEN with `details.reason` CONSENT_REQUIRED and the way to obtain a grant.
 */
export async function requireConsentToOnboard(ctx: ServiceContext, externalId: string): Promise<void> {
  const access = await ctx.provider.getDelegatedAccess(externalId, ctx.scope.organizationId);
  if (access) return;
  throw new ForbiddenError(
    `The cloud tenant ${externalId} has not granted your organization delegated access. ${howToObtainConsent(externalId)}`,
    { reason: 'CONSENT_REQUIRED', externalId },
  );
}

/** A sync refused because the customer no longer grants the organization access (the job ends Failed). */
export class ConsentRevokedError extends Error {
  constructor(externalId: string) {
    super(
      `Consent revoked: the customer tenant ${externalId} no longer grants this organization delegated ` +
        `access, so nothing was read and the tenant is suspended. ${howToObtainConsent(externalId)}; then sync again.`,
    );
  }
}

/**
 * Every sync asks the cloud first (DECISIONS: "a revoked grant stops sync"). Without a grant the tenant
 * turns `suspended` — committed on its own, since the sync then fails — and ConsentRevokedError is thrown
 * before anything is read upstream. With a grant, a suspended tenant is active again (the customer granted
 * anew). `ctx.em` is the sync's own fork holding `tenant` (flushing it writes only the status); a
 * surrounding transaction (the demo seed) is joined.
 */
export async function checkSyncConsent(ctx: ServiceContext, tenant: Tenant): Promise<void> {
  const access = await ctx.provider.getDelegatedAccess(tenant.externalId, ctx.scope.organizationId);
  const status = access ? TenantStatus.ACTIVE : TenantStatus.SUSPENDED;
  if (tenant.status !== status) {
    tenant.status = status;
    await ctx.em.flush();
  }
  if (!access) throw new ConsentRevokedError(tenant.externalId);
}
