import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import {
  BARRIER_APPLICATION_HOURS,
  BarrierApplicationStatus,
  BarrierPolicyType,
  SegmentAttribute,
} from './info-barrier.enums.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';
import './info-barrier.graphql-enums.js';

@ObjectType({ description: 'An information-barrier segment: the users with one attribute value (SPEC 2.6)' })
@Entity({ tableName: 'info_barrier_segments' })
@Unique({ name: 'info_barrier_segments_name_unique', properties: ['tenantId', 'name'] })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'createdAt', 'id'] })
export class BarrierSegment extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => SegmentAttribute)
  @Enum({ items: () => SegmentAttribute })
  attribute!: SegmentAttribute;

  @Field()
  @Property()
  value!: string;

  @Field(() => Int, { description: 'Members when the segment was created' })
  @Property({ type: 'integer' })
  memberCount!: number;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Field(() => Actor)
  @Property({ type: 'text' })
  createdBy!: string;
}

@ObjectType({ description: 'A barrier policy: Block (both ways) or Allow (an exception to a block)' })
@Entity({ tableName: 'info_barrier_policies' })
@Index({ properties: ['organizationId', 'environment', 'tenantId', 'createdAt', 'id'] })
export class BarrierPolicy extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => BarrierPolicyType)
  @Enum({ items: () => BarrierPolicyType })
  type!: BarrierPolicyType;

  @Field(() => ID)
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'info_barrier_policies_source_segment_id_index' })
  @ManyToOne(() => BarrierSegment, { mapToPk: true, fieldName: 'source_segment_id', deleteRule: 'cascade' })
  sourceSegmentId!: string;

  @Field(() => [ID])
  @Property({ type: 'text[]' })
  targetSegmentIds!: string[];

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Field(() => Actor)
  @Property({ type: 'text' })
  createdBy!: string;
}

@ObjectType({
  description: `An application of a tenant's barrier policies (takes up to ${BARRIER_APPLICATION_HOURS} hours, SPEC 8.3)`,
})
@Entity({ tableName: 'info_barrier_applications' })
@Index({ properties: ['tenantId', 'startedAt'] })
@Index({ properties: ['status', 'startedAt'] })
export class BarrierApplication extends TrackedOperation {
  [OptionalProps]?: 'status' | 'pushedAt' | 'appliedAt' | 'failureReason' | 'runAttempts' | 'checkpoint';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => BarrierApplicationStatus)
  @Enum({ items: () => BarrierApplicationStatus })
  status: BarrierApplicationStatus = BarrierApplicationStatus.PENDING;

  @Field(() => GraphQLDateTime, {
    description: `When apply was asked for; Applied ${BARRIER_APPLICATION_HOURS} hours later`,
  })
  @Property({ type: 'timestamptz' })
  startedAt!: Date;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'When the cloud accepted the policy set' })
  @Property({ type: 'timestamptz', nullable: true })
  pushedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  appliedAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  segmentCount!: number;

  @Field(() => Int)
  @Property({ type: 'integer' })
  policyCount!: number;

  @Field(() => Actor)
  @Property({ type: 'text' })
  requestedBy!: string;
}
