import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { PermissionLevel } from '../core/permissions.js';
import { ScopedEntity, type Scope } from '../core/scope.js';
import '../core/permissions.graphql-enums.js';

/** An organization-scoped API key. Only a SHA-256 hash of the secret is stored. */
@ObjectType({ description: 'An API key; the secret itself is shown once, at creation' })
@Entity({ tableName: 'api_keys' })
@Index({ properties: ['organizationId', 'environment', 'createdAt', 'id'] })
export class ApiKey extends ScopedEntity {
  [OptionalProps]?: 'createdAt' | 'lastUsedAt' | 'revokedAt' | 'allowedIps';

  @Field()
  @Property()
  name!: string;

  @Field(() => PermissionLevel)
  @Enum({ items: () => PermissionLevel })
  level!: PermissionLevel;

  @Field({ description: 'svc_sk_live_ or svc_sk_test_' })
  @Property()
  prefix!: string;

  @Field({ description: 'The last four characters of the key, to recognise it' })
  @Property({ type: 'varchar(4)' })
  lastFour!: string;

  /** SHA-256 of the whole key: the key has 256 bits of entropy, so a fast hash is safe here. */
  @Property({ unique: true })
  secretHash!: string;

  @Field(() => [String], {
    description: 'Enterprise plan: only these addresses or CIDR ranges may use the key',
  })
  @Property({ type: 'text[]' })
  allowedIps: string[] = [];

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  constructor(
    scope: Scope,
    fields: {
      name: string;
      level: PermissionLevel;
      prefix: string;
      lastFour: string;
      secretHash: string;
      createdAt: Date;
    },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
