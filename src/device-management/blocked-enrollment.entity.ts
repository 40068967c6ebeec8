import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { DeviceOwnership } from '../devices/device.enums.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { BlockReason, EnrollmentPlatform } from './enrollment.enums.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import './enrollment.graphql-enums.js';
import '../devices/device.graphql-enums.js';

/**
 * An enrollment attempt the restrictions refused (SPEC 2.6 "Blocked enrollment attempt"), recorded by tenant
 * sync once per upstream attempt (unique on its external id, so a re-sync records nothing twice). The policy
 * name is copied: the record says what decided at the time, whatever the policy is called later.
 */
@ObjectType({ description: 'An enrollment attempt blocked by a restriction policy' })
@Entity({ tableName: 'blocked_enrollment_attempts' })
@Unique({
  name: 'blocked_enrollment_attempts_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
@Index({
  name: 'blocked_enrollment_attempts_time_index',
  properties: ['organizationId', 'environment', 'tenantId', 'attemptedAt', 'id'],
})
export class BlockedEnrollmentAttempt extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The attempt's id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field(() => ID, { nullable: true, description: "Our user, when the cloud's user is one we know" })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'blocked_enrollment_attempts_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field()
  @Property()
  userPrincipalName!: string;

  @Field()
  @Property()
  deviceName!: string;

  @Field(() => EnrollmentPlatform)
  @Enum({ items: () => EnrollmentPlatform })
  platform!: EnrollmentPlatform;

  @Field()
  @Property()
  osVersion!: string;

  @Field(() => DeviceOwnership)
  @Enum({ items: () => DeviceOwnership })
  ownership!: DeviceOwnership;

  @Field()
  @Property()
  manufacturer!: string;

  @Field(() => BlockReason)
  @Enum({ items: () => BlockReason })
  reason!: BlockReason;

  @Field({ description: 'What exactly was refused, in words' })
  @Property({ type: 'text' })
  detail!: string;

  @Field(() => ID, { nullable: true, description: 'The policy that decided' })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'blocked_enrollment_attempts_policy_id_index' })
  @ManyToOne(() => EnrollmentRestriction, {
    mapToPk: true,
    fieldName: 'policy_id',
    nullable: true,
    deleteRule: 'set null',
  })
  policyId: string | null = null;

  @Field()
  @Property()
  policyName!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  attemptedAt!: Date;

  @Field(() => GraphQLDateTime, { description: 'When sync recorded it' })
  @Property({ type: 'timestamptz' })
  recordedAt!: Date;
}
