import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { Environment, ScopedEntity, type Scope } from '../core/scope.js';

/**
 * An application that asks members for access (OAuth 2.0 confidential client). It belongs to one
 * organization and one environment: the access tokens it obtains act there, as a key of that
 * environment would. Only a SHA-256 hash of the secret is stored (the secret has 256 random bits).
 */
@ObjectType({ description: 'An application registered for the OAuth authorization code flow' })
@Entity({ tableName: 'oauth_clients' })
@Index({ properties: ['organizationId', 'environment', 'createdAt', 'id'] })
export class OAuthClient extends ScopedEntity {
  [OptionalProps]?: 'createdAt' | 'revokedAt';

  @Field({ description: 'The public client_id' })
  @Property({ type: 'text', unique: true })
  clientId!: string;

  @Field({ description: 'Shown to members on the consent page' })
  @Property({ type: 'text' })
  name!: string;

  @Field(() => [String], { description: 'redirect_uri must equal one of these exactly' })
  @Property({ type: 'text[]' })
  redirectUris!: string[];

  @Property({ type: 'text' })
  secretHash!: string;

  @Field(() => Environment, { name: 'environment', description: 'Where the tokens this client obtains act' })
  get environmentName(): Environment {
    return this.environment;
  }

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Set when revoked; its tokens stop working' })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  constructor(
    scope: Scope,
    fields: { clientId: string; name: string; redirectUris: string[]; secretHash: string; createdAt: Date },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
