import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, Property } from '@mikro-orm/decorators/legacy';
import { ScopedEntity, type Scope } from '../core/scope.js';

/**
 * A single-use authorization code (60 s). Its id is the "grant": every token issued from it, and from
 * the refresh tokens that follow, carries it as `grantId`, so reusing the code or revoking a refresh
 * token can revoke the whole family at once.
 */
@Entity({ tableName: 'oauth_authorization_codes' })
export class OAuthAuthorizationCode extends ScopedEntity {
  [OptionalProps]?: 'consumedAt' | 'codeChallenge' | 'codeChallengeMethod';

  @Property({ type: 'text', unique: true })
  codeHash!: string;

  @Property({ type: 'uuid', index: true })
  oauthClientId!: string;

  @Property({ type: 'uuid', index: true })
  memberId!: string;

  @Property({ type: 'text' })
  redirectUri!: string;

  @Property({ type: 'text[]' })
  scopes!: string[];

  @Property({ type: 'text', nullable: true })
  codeChallenge: string | null = null;

  @Property({ type: 'text', nullable: true })
  codeChallengeMethod: string | null = null;

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  /** Set by the one exchange that may use the code; a second exchange finds it set. */
  @Property({ type: 'timestamptz', nullable: true })
  consumedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  constructor(
    scope: Scope,
    fields: {
      codeHash: string;
      oauthClientId: string;
      memberId: string;
      redirectUri: string;
      scopes: string[];
      codeChallenge: string | null;
      codeChallengeMethod: string | null;
      expiresAt: Date;
      createdAt: Date;
    },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}

export enum OAuthTokenKind {
  ACCESS = 'access',
  REFRESH = 'refresh',
}

/** An access or refresh token; only its SHA-256 hash is stored (tokens carry 256 random bits). */
@Entity({ tableName: 'oauth_tokens' })
@Index({ properties: ['grantId'] })
export class OAuthToken extends ScopedEntity {
  [OptionalProps]?: 'usedAt' | 'revokedAt';

  @Enum({ items: () => OAuthTokenKind })
  kind!: OAuthTokenKind;

  @Property({ type: 'text', unique: true })
  tokenHash!: string;

  @Property({ type: 'uuid', index: true })
  oauthClientId!: string;

  @Property({ type: 'uuid', index: true })
  memberId!: string;

  /** The authorization code this token descends from (see OAuthAuthorizationCode). */
  @Property({ type: 'uuid' })
  grantId!: string;

  @Property({ type: 'text[]' })
  scopes!: string[];

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  /** Refresh tokens: set when exchanged (rotation); a second use is a replay and revokes the family. */
  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  constructor(
    scope: Scope,
    fields: {
      kind: OAuthTokenKind;
      tokenHash: string;
      oauthClientId: string;
      memberId: string;
      grantId: string;
      scopes: string[];
      expiresAt: Date;
      createdAt: Date;
    },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
