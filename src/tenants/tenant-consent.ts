import { ForbiddenError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { CloudConsentProvider } from '../cloud/consent.provider.js';
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

/** Whether `error` is the refusal of consentBoundProvider (a tenant without a grant to the organization). */
export function isConsentRefusal(error: unknown): boolean {
  return error instanceof ForbiddenError && error.details.reason === 'CONSENT_REQUIRED';
}

/** Properties of the provider that are sub-providers: their methods are bound to the grant too. */
const SUB_PROVIDERS = new Set<PropertyKey>(['security', 'userManagement', 'deviceManagement']);
/** The one call that must not need a grant: the one that asks for it. */
const GRANT_LOOKUP: PropertyKey = 'getDelegatedAccess';

/** The customer tenant a provider call is about: its first argument, or `tenantExternalId` of a request object. */
function tenantOfCall(args: unknown[]): string | undefined {
  const [first] = args;
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && 'tenantExternalId' in first) {
    const { tenantExternalId } = first as { tenantExternalId: unknown };
    if (typeof tenantExternalId === 'string') return tenantExternalId;
  }
  return undefined;
}

/**
 * The cloud as one partner organization sees it, as a real delegated-admin client does: every call about a
 * customer tenant first needs that tenant's grant to the organization, else it is refused with 403 FORBIDDEN
 * (`details.reason` CONSENT_REQUIRED) before anything reaches the cloud. Each request and job context gets its
 * own view (src/context.ts), which asks once per tenant and remembers the answer for its lifetime (a request,
 * or one job run), so a revocation takes effect at the next request or job run. Onboarding and sync keep their
 * own checks above (they also explain and suspend).
 */
export function consentBoundProvider<T extends object>(
  provider: T & CloudConsentProvider,
  organizationId: string,
): T {
  const grants = new Map<string, Promise<void>>();
  const requireGrant = (tenantExternalId: string): Promise<void> => {
    let check = grants.get(tenantExternalId);
    if (!check) {
      check = provider.getDelegatedAccess(tenantExternalId, organizationId).then((access) => {
        if (access) return;
        throw new ForbiddenError(
          `The customer tenant ${tenantExternalId} does not grant your organization delegated access, so the ` +
            `cloud refused the call and nothing was changed. ${howToObtainConsent(tenantExternalId)}`,
          { reason: 'CONSENT_REQUIRED', externalId: tenantExternalId },
        );
      });
      // Only a grant is remembered: after a refusal or a failed lookup the next call asks again.
      check.catch(() => grants.get(tenantExternalId) === check && grants.delete(tenantExternalId));
      grants.set(tenantExternalId, check);
    }
    return check;
  };
  const bind = <O extends object>(target: O): O =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property);
        if (SUB_PROVIDERS.has(property) && value && typeof value === 'object') return bind(value);
        if (typeof value !== 'function' || property === GRANT_LOOKUP) return value;
        return async (...args: unknown[]) => {
          const tenant = tenantOfCall(args);
          if (tenant !== undefined) await requireGrant(tenant);
          return (value as (...callArgs: unknown[]) => unknown).apply(object, args);
        };
      },
    });
  return bind(provider);
}
