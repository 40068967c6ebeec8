import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import type { Environment, Scope } from '../core/scope.js';
import { Member, type MemberRole } from '../members/member.entity.js';
import { Organization } from '../organizations/organization.entity.js';
import { OAuthClient } from './oauth-client.entity.js';
import { OAuthAuthorizationCode, OAuthToken, OAuthTokenKind } from './oauth-grant.entity.js';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  AUTHORIZATION_CODE_LIFETIME_SECONDS,
  REFRESH_TOKEN_LIFETIME_SECONDS,
} from './oauth.settings.js';
import { sha256 } from './oauth-secrets.js';

/** What the OAuth endpoints need to know about a client (never its secret in the clear: there is none). */
export interface ClientRecord {
  id: string;
  clientId: string;
  name: string;
  redirectUris: string[];
  secretHash: string;
  organizationId: string;
  organizationName: string;
  environment: Environment;
}

/** The member on whose behalf a code or token acts, and the grant (code id) it descends from. */
export interface GrantHolder {
  memberId: string;
  role: MemberRole;
  grantId?: string;
}

export interface NewTokens {
  client: ClientRecord;
  holder: Required<GrantHolder>;
  scopes: string[];
  accessToken: string;
  refreshToken?: string;
}

const FILTERS_OFF = { filters: false } as const;

/**
 * Persistence of OAuth clients, codes and tokens, outside any request scope (the OAuth endpoints act
 * before there is a viewer). Every expiry is computed from the injectable clock, so tests move time.
 */
export class OAuthStore {
  constructor(
    private readonly orm: MikroORM,
    readonly clock: Clock,
  ) {}

  private em() {
    return this.orm.em.fork();
  }

  private after(seconds: number): Date {
    return new Date(this.clock.now().getTime() + seconds * 1000);
  }

  /** A client that is not revoked, by its public client_id. */
  async findClient(clientId: string): Promise<ClientRecord | null> {
    const em = this.em();
    const client = await em.findOne(OAuthClient, { clientId, revokedAt: null }, FILTERS_OFF);
    if (!client) return null;
    const organization = await em.findOneOrFail(Organization, client.organizationId);
    return {
      id: client.id,
      clientId: client.clientId,
      name: client.name,
      redirectUris: client.redirectUris,
      secretHash: client.secretHash,
      organizationId: client.organizationId,
      organizationName: organization.name,
      environment: client.environment,
    };
  }

  async findMember(memberId: string, organizationId: string): Promise<Member | null> {
    return this.em().findOne(Member, { id: memberId, organizationId });
  }

  async saveCode(fields: {
    code: string;
    client: ClientRecord;
    holder: GrantHolder;
    redirectUri: string;
    scopes: string[];
    codeChallenge: string | null;
    codeChallengeMethod: string | null;
  }): Promise<OAuthAuthorizationCode> {
    const em = this.em();
    const row = new OAuthAuthorizationCode(scopeOf(fields.client), {
      codeHash: sha256(fields.code),
      oauthClientId: fields.client.id,
      memberId: fields.holder.memberId,
      redirectUri: fields.redirectUri,
      scopes: fields.scopes,
      codeChallenge: fields.codeChallenge,
      codeChallengeMethod: fields.codeChallengeMethod,
      expiresAt: this.after(AUTHORIZATION_CODE_LIFETIME_SECONDS),
      createdAt: this.clock.now(),
    });
    await em.persist(row).flush();
    return row;
  }

  findCode(code: string): Promise<OAuthAuthorizationCode | null> {
    return this.em().findOne(OAuthAuthorizationCode, { codeHash: sha256(code) }, FILTERS_OFF);
  }

  /** Marks the code used; false when someone used it first (then it is a replay). */
  async consumeCode(id: string): Promise<boolean> {
    const updated = await this.em().nativeUpdate(
      OAuthAuthorizationCode,
      { id, consumedAt: null },
      { consumedAt: this.clock.now() },
      FILTERS_OFF,
    );
    return updated === 1;
  }

  /** Stores an access token and (except on a pure access-token grant) its refresh token, in one transaction. */
  async saveTokens(tokens: NewTokens): Promise<void> {
    const now = this.clock.now();
    const common = {
      oauthClientId: tokens.client.id,
      memberId: tokens.holder.memberId,
      grantId: tokens.holder.grantId,
      scopes: tokens.scopes,
      createdAt: now,
    };
    const scope = scopeOf(tokens.client);
    const rows = [
      new OAuthToken(scope, {
        ...common,
        kind: OAuthTokenKind.ACCESS,
        tokenHash: sha256(tokens.accessToken),
        expiresAt: this.after(ACCESS_TOKEN_LIFETIME_SECONDS),
      }),
    ];
    if (tokens.refreshToken) {
      rows.push(
        new OAuthToken(scope, {
          ...common,
          kind: OAuthTokenKind.REFRESH,
          tokenHash: sha256(tokens.refreshToken),
          expiresAt: this.after(REFRESH_TOKEN_LIFETIME_SECONDS),
        }),
      );
    }
    await this.em().transactional(async (em) => {
      em.persist(rows);
    });
  }

  findToken(token: string, kind?: OAuthTokenKind): Promise<OAuthToken | null> {
    return this.em().findOne(
      OAuthToken,
      { tokenHash: sha256(token), ...(kind ? { kind } : {}) },
      FILTERS_OFF,
    );
  }

  /** Rotation: marks a refresh token used; false when it was used or revoked meanwhile. */
  async useRefreshToken(id: string): Promise<boolean> {
    const updated = await this.em().nativeUpdate(
      OAuthToken,
      { id, kind: OAuthTokenKind.REFRESH, usedAt: null, revokedAt: null },
      { usedAt: this.clock.now() },
      FILTERS_OFF,
    );
    return updated === 1;
  }

  /** Revokes every token descending from one authorization code (code replay, refresh token revocation). */
  async revokeGrant(grantId: string): Promise<number> {
    return this.em().nativeUpdate(
      OAuthToken,
      { grantId, revokedAt: null },
      { revokedAt: this.clock.now() },
      FILTERS_OFF,
    );
  }

  async revokeToken(id: string): Promise<void> {
    await this.em().nativeUpdate(
      OAuthToken,
      { id, revokedAt: null },
      { revokedAt: this.clock.now() },
      FILTERS_OFF,
    );
  }
}

function scopeOf(client: ClientRecord): Scope {
  return { organizationId: client.organizationId, environment: client.environment };
}
