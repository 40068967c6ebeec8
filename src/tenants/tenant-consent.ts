import { CloudError, isCloudError } from '../cloud/cloud-error.js';
import type { CloudDelegatedAccessRecord } from '../cloud/consent.provider.js';
import { ForbiddenError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantStatus, type Tenant } from './tenant.entity.js';
import type { StoredCloudPermissions } from './tenant.types.js';

/**
 * What a consent check says the customer's consent grants, as the tenant keeps it; undefined when the cloud
 * did not say this time (the tenant keeps what it knew).
 */
export function cloudPermissionsOf(
  access: CloudDelegatedAccessRecord,
  checkedAt: Date,
): StoredCloudPermissions | undefined {
  const permissions = access.permissions;
  if (!permissions) return undefined;
  return {
    checkedAt: checkedAt.toISOString(),
    granted: permissions.granted,
    missing: permissions.missing,
    disabledCapabilities: permissions.disabledCapabilities,
  };
}

/**
 * Onboarding asks the cloud whether the tenant granted the caller's organization delegated access. No grant
 * — and an unknown external id, which a partner cannot tell apart from one in the real cloud — is 403
 * FORBIDDEN with `details.reason` CONSENT_REQUIRED and the way to obtain a grant. The grant is returned (with what
 * it grants, for the new tenant to keep).
 */
export async function requireConsentToOnboard(
  ctx: ServiceContext,
  externalId: string,
): Promise<CloudDelegatedAccessRecord> {
  const provider = await ctx.cloud.provider();
  const access = await provider.getDelegatedAccess(externalId);
  if (access) return access;
  throw new ForbiddenError(
    `The cloud tenant ${externalId} has not granted your organization delegated access. ${provider.consentInstructions(externalId)}`,
    {
      reason: 'CONSENT_REQUIRED',
      externalId,
      provider: provider.name,
      ...(provider.consentUrl ? { adminConsentUrl: provider.consentUrl(externalId) } : {}),
    },
  );
}

/**
 * Every sync asks the cloud first (DECISIONS: "a revoked grant stops sync"). Without a grant the tenant
 * turns `suspended` — committed on its own, since the sync then fails — and a CloudError Forbidden
 * (CONSENT_REQUIRED) saying so is thrown before anything is read upstream. With a grant, a suspended tenant
 * is active again (the customer granted anew), and keeps what the consent grants now (a permission granted or
 * withdrawn since shows at once). `ctx.em` is the sync's own fork holding `tenant` (flushing it writes only the
 * status and the permissions); a surrounding transaction (the demo seed) is joined.
 */
export async function checkSyncConsent(ctx: ServiceContext, tenant: Tenant): Promise<void> {
  const provider = await ctx.cloud.provider();
  const access = await provider.getDelegatedAccess(tenant.externalId);
  const status = access ? TenantStatus.ACTIVE : TenantStatus.SUSPENDED;
  const permissions = access ? cloudPermissionsOf(access, ctx.clock.now()) : undefined;
  if (tenant.status !== status || permissions) {
    tenant.status = status;
    if (permissions) tenant.cloudPermissionsRead = permissions;
    await ctx.em.flush();
  }
  if (access) return;
  throw new CloudError(
    'Forbidden',
    `Consent revoked: the customer tenant ${tenant.externalId} no longer grants this organization delegated ` +
      `access, so nothing was read and the tenant is suspended. ${provider.consentInstructions(tenant.externalId)}; then sync again.`,
    { provider: provider.name, reason: 'CONSENT_REQUIRED', tenantExternalId: tenant.externalId },
  );
}

/** Whether `error` is a tenant's refusal of the organization (no grant: `ctx.cloud.forTenant` refused). */
export function isConsentRefusal(error: unknown): boolean {
  return isCloudError(error, 'Forbidden') && error.reason === 'CONSENT_REQUIRED';
}
