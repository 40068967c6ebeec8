import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import {
  ComplianceState,
  DeviceHealthState,
  DeviceOwnership,
  DeviceRiskLevel,
  IsolationState,
  IsolationType,
  OnboardingStatus,
  OsPlatform,
} from './device.enums.js';
import './device.graphql-enums.js';

/**
 * A device of a tenant (SPEC 2.6 "Device", 3.2, 3.3), reconciled from the upstream cloud by sync. It carries
 * the security view (risk, exposure, health, onboarding) and what device management needs (platform and
 * version, ownership, manufacturer, enrolment, compliance with its grace deadline, owner). Isolation moves
 * when an isolation or release action of ours succeeds (device-action.task.ts), and when a sync reads back a
 * change made outside our API where the cloud names the action that made it (device-sync.ts).
 */
@ObjectType({ description: 'A device of a tenant with its security status (SPEC 2.6 "Device")' })
@Entity({ tableName: 'devices' })
@Unique({
  name: 'devices_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
// The device security list's order, riskiest first, then by name (issue #11: the page stops after offset + limit).
@Index({
  name: 'devices_risk_order_index',
  expression:
    'create index "devices_risk_order_index" on "devices" ("organization_id", "environment", "tenant_id", "risk_rank" desc, "exposure_score" desc, "device_name", "id")',
})
/** A tenant's enrollment trend (src/device-management/device-dashboard.service.ts) reads index-only from this one. */
@Index({
  name: 'devices_dashboard_index',
  properties: [
    'organizationId',
    'environment',
    'tenantId',
    'osPlatform',
    'complianceState',
    'ownership',
    'enrolledAt',
  ],
})
/** The organization-wide enrollment trend reads the date range index-only (the tenant one uses the index above). */
@Index({
  name: 'devices_enrollment_index',
  properties: [
    'organizationId',
    'environment',
    'enrolledAt',
    'tenantId',
    'osPlatform',
    'complianceState',
    'ownership',
  ],
})
export class Device extends ScopedEntity {
  [OptionalProps]?: 'userId' | 'isolationState' | 'isolationType' | 'createdAt' | 'updatedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The device's id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field()
  @Property()
  deviceName!: string;

  @Field(() => OsPlatform)
  @Enum({ items: () => OsPlatform })
  osPlatform!: OsPlatform;

  @Field()
  @Property()
  osVersion!: string;

  @Field(() => DeviceOwnership)
  @Enum({ items: () => DeviceOwnership })
  ownership!: DeviceOwnership;

  @Field()
  @Property()
  manufacturer!: string;

  @Field()
  @Property()
  model!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  enrolledAt!: Date;

  @Field(() => ComplianceState)
  @Enum({ items: () => ComplianceState })
  complianceState!: ComplianceState;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'In Grace Period: when the device becomes Non-Compliant unless remediated',
  })
  @Property({ type: 'timestamptz', nullable: true })
  complianceGraceExpiresAt: Date | null = null;

  @Field(() => ID, { nullable: true, description: "The device's primary user (owner)" })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'devices_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field(() => DeviceRiskLevel)
  @Enum({ items: () => DeviceRiskLevel })
  riskLevel!: DeviceRiskLevel;

  /** 3 High .. 0 No data: the list's order. */
  @Property({ type: 'smallint' })
  riskRank!: number;

  @Field(() => Int, { description: 'Exposure score, 0 (none) to 100 (most exposed)' })
  @Property({ type: 'smallint' })
  exposureScore!: number;

  @Field(() => DeviceHealthState)
  @Enum({ items: () => DeviceHealthState })
  healthState!: DeviceHealthState;

  @Field(() => OnboardingStatus)
  @Enum({ items: () => OnboardingStatus })
  onboardingStatus!: OnboardingStatus;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  lastSeenAt!: Date;

  /** Codes of the security recommendations open on the device (device-recommendations.ts). */
  @Property({ type: 'text[]' })
  openRecommendations!: string[];

  @Field(() => IsolationState)
  @Enum({ items: () => IsolationState })
  isolationState: IsolationState = IsolationState.NOT_ISOLATED;

  @Field(() => IsolationType, { nullable: true, description: 'While isolated: FULL or SELECTIVE' })
  @Enum({ items: () => IsolationType, nullable: true })
  isolationType: IsolationType | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
