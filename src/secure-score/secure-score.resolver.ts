import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { FEATURES } from '../core/permissions.js';
import { SecureScoreService } from './secure-score.service.js';
import { SecureScoreArgs, TenantSecureScorePage } from './secure-score.types.js';

/** Secure score per tenant (SPEC 4.2 /api/security-vendor/secure-score): a portal view, so msp:read. */
@Resolver()
export class SecureScoreResolver {
  @Query(() => TenantSecureScorePage, {
    description:
      'Each tenant: score, max score, percentage, by category, and the daily history (by tenant name)',
  })
  @RequirePermission(FEATURES.portal.read)
  secureScores(@Args() args: SecureScoreArgs, @Ctx() ctx: RequestContext) {
    return new SecureScoreService(ctx).list(args);
  }
}
