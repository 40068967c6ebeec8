import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { IsNotEmpty, MaxLength } from '../core/perf/class-validator-rules.js';
import { Field, InputType } from 'type-graphql';
import { ConflictError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import { cloudPermissionsOf, requireConsentToOnboard } from './tenant-consent.js';
import { requireRoomForTenant } from './tenant-limits.js';
import { Tenant } from './tenant.entity.js';
import { conflictOfUniqueViolation, requireUpstreamTenantFree } from './upstream-tenant-owner.js';

@InputType({ description: 'A tenant of the upstream cloud to administer' })
export class OnboardTenantInput {
  @Field({ description: 'The tenant id in the upstream cloud' })
  @IsNotEmpty()
  @MaxLength(255)
  externalId!: string;
}

/**
 * Brings a tenant of the upstream cloud into the caller's organization and environment
 * (DECISIONS "The upstream cloud"). Name and domains come from the cloud; the cloud's first domain
 * is the default one. The tenant starts unsynced (health critical) until its first sync, which the
 * caller starts (POST /v1/tenants/:id/sync) or, in the demo seed, runs directly.
 * Only a tenant that granted the caller's organization delegated access (tenant-consent.ts; else 403).
 * An upstream tenant belongs to one environment of one organization: a second onboarding here, one held
 * by the other environment or another organization (upstream-tenant-owner.ts), or a tenant whose default
 * domain is already used here, is 409 CONFLICT.
 */
export async function onboardTenant(ctx: ServiceContext, input: { externalId: string }): Promise<Tenant> {
  const externalId = input.externalId.trim();
  // The customer's consent before anything else: a tenant that did not grant us is not even looked up.
  const access = await requireConsentToOnboard(ctx, externalId);
  // A tenant the cloud does not know is its NotFound: 404 (core/errors.ts appErrorOfCloud).
  const upstream = await (await ctx.cloud.forTenant(externalId)).directory.getTenant();
  const domain = upstream.domains[0].toLowerCase();
  return ctx.em.transactional(async (em) => {
    await requireRoomForTenant(em, ctx.scope);
    await requireUpstreamTenantFree(em, ctx.scope, externalId);
    const clash = await em.findOne(Tenant, { $or: [{ externalId }, { domain }] });
    if (clash) {
      throw new ConflictError(
        clash.externalId === externalId
          ? 'This cloud tenant is already onboarded in this environment'
          : `Another tenant already uses the domain ${domain}`,
        { tenantId: clash.id },
      );
    }
    const tenant = new Tenant(ctx.scope, {
      name: upstream.displayName,
      domain,
      domains: upstream.domains,
      externalId,
    });
    tenant.createdAt = ctx.clock.now();
    tenant.cloudPermissionsRead = cloudPermissionsOf(access, ctx.clock.now()) ?? null;
    try {
      await em.persist(tenant).flush();
    } catch (error) {
      // Two onboardings of the same tenant at once: the loser meets the unique domain.
      const taken = conflictOfUniqueViolation(error);
      if (taken) throw taken;
      if (error instanceof UniqueConstraintViolationException) {
        throw new ConflictError(`Another tenant already uses the domain ${domain}`);
      }
      throw error;
    }
    return tenant;
  });
}
