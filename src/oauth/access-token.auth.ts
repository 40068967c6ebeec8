import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import { impliedPermissions, Permission } from '../core/permissions.js';
import type { Environment } from '../core/scope.js';
import type { Viewer } from '../core/viewer.js';
import type { Authenticator } from '../http/authenticate.js';
import type { MemberRole } from '../members/member.entity.js';
import { Plan, RATE_LIMIT_BY_PLAN, UNLIMITED_RATE } from '../organizations/organization.entity.js';
import { isKnownScope, roleMayGrant } from './oauth-scopes.js';
import { ACCESS_TOKEN_PREFIX, sha256 } from './oauth-secrets.js';

interface TokenRow {
  id: string;
  member_id: string;
  oauth_client_id: string;
  organization_id: string;
  environment: Environment;
  scopes: string[];
  role: MemberRole;
  slug: string;
  plan: Plan;
  custom_rate_limit_per_minute: number | null;
}

/**
 * Resolves `Authorization: Bearer svc_at_...` to a Viewer acting for the member in the client's
 * organization and environment, with the granted scopes as permissions (write implies read).
 *
 * No cache: one indexed lookup per request, so a revoked or expired token, a revoked client or a removed
 * member is refused on the very next request, in every server process.
 */
export class AccessTokenAuthenticator implements Authenticator {
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  handles(token: string): boolean {
    return token.startsWith(ACCESS_TOKEN_PREFIX);
  }

  async authenticate(
    token: string,
  ): Promise<{ ok: true; viewer: Viewer } | { ok: false; reason: 'invalid' }> {
    const rows = await this.orm.em.getConnection().execute<TokenRow[]>(
      `select t.id, t.member_id, t.oauth_client_id, t.organization_id, t.environment, t.scopes, m.role,
              o.slug, o.plan, o.custom_rate_limit_per_minute
         from oauth_tokens t
         join oauth_clients c on c.id = t.oauth_client_id and c.revoked_at is null
         join members m on m.id = t.member_id
         join organizations o on o.id = t.organization_id
        where t.token_hash = ? and t.kind = 'access' and t.revoked_at is null and t.expires_at > ?`,
      [sha256(token), this.clock.now()],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'invalid' };
    // A member whose role changed since the consent keeps only what the role may still grant.
    const granted = row.scopes.filter(isKnownScope).filter((scope) => roleMayGrant(row.role, scope));
    return {
      ok: true,
      viewer: {
        organizationId: row.organization_id,
        organizationSlug: row.slug,
        environment: row.environment,
        rateLimitPerMinute:
          row.plan === Plan.CUSTOM
            ? (row.custom_rate_limit_per_minute ?? UNLIMITED_RATE)
            : RATE_LIMIT_BY_PLAN[row.plan],
        credentialKind: 'access_token',
        credentialId: row.id,
        memberId: row.member_id,
        oauthClientId: row.oauth_client_id,
        permissions: impliedPermissions(granted as Permission[]),
      },
    };
  }
}
