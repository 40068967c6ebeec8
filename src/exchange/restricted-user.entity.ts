import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { RestrictionReason, RestrictionStatus } from './restricted-user.enums.js';
import './restricted-user.graphql-enums.js';

/**
 * A mail sender of a tenant restricted by the upstream cloud (SPEC 2.6 "Restricted user", 3.3). Our copy
 * of the cloud's restriction, refreshed from the cloud on every list; one row per restriction (a user
 * restricted again is a new row), kept once unblocked as the history.
 */
@ObjectType({ description: 'A mailbox blocked from sending mail by the cloud (SPEC 2.6 "Restricted user")' })
@Entity({ tableName: 'restricted_users' })
@Unique({
  name: 'restricted_users_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
@Index({
  name: 'restricted_users_restricted_at_index',
  properties: ['organizationId', 'environment', 'tenantId', 'restrictedAt', 'id'],
})
// The current restrictions (status Restricted), newest first: page and count (issue #11).
@Index({
  name: 'restricted_users_status_index',
  properties: ['organizationId', 'environment', 'tenantId', 'status', 'restrictedAt', 'id'],
})
export class RestrictedUser extends ScopedEntity {
  [OptionalProps]?: 'userId' | 'status' | 'unblockedAt' | 'unblockedBy' | 'createdAt' | 'updatedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The restriction's id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field(() => ID, { nullable: true, description: 'Our user, when the restricted mailbox is one we know' })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'restricted_users_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field()
  @Property()
  userPrincipalName!: string;

  @Field()
  @Property()
  displayName!: string;

  @Field(() => GraphQLDateTime, { description: 'When the cloud restricted the sender' })
  @Property({ type: 'timestamptz' })
  restrictedAt!: Date;

  @Field(() => RestrictionReason)
  @Enum({ items: () => RestrictionReason })
  reason!: RestrictionReason;

  @Field(() => RestrictionStatus)
  @Enum({ items: () => RestrictionStatus })
  status: RestrictionStatus = RestrictionStatus.RESTRICTED;

  @Field({ description: 'What the admin should do about it' })
  @Property({ type: 'text' })
  actionRequired!: string;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  unblockedAt: Date | null = null;

  @Field(() => Actor, {
    nullable: true,
    description: 'Who unblocked it here: an API key or a member; null when unblocked in the cloud',
  })
  @Property({ type: 'text', nullable: true })
  unblockedBy: string | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
