import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Extensions, Field, ID, Int, ObjectType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { MAX_DEVICE_LIMIT, MIN_DEVICE_LIMIT, RestrictionType } from './enrollment.enums.js';
import {
  DeviceLimitGroupOverride,
  PlatformDeviceLimit,
  PlatformRestriction,
} from './enrollment-policy.settings.js';
import './enrollment.graphql-enums.js';

/**
 * An enrollment restriction policy of a tenant (SPEC 2.6, 4.4; docs/devices.md "Policy model"). The
 * tenant's policies form one priority order, 1 first; the built-in default (`isDefault`) is always last.
 * `version` grows with every edit and is the ETag of `PUT .../:id` (If-Match).
 */
@ObjectType({
  description: 'A device enrollment restriction policy (SPEC 2.6 "Enrollment restriction policy")',
})
@Entity({ tableName: 'enrollment_restrictions' })
@Index({
  name: 'enrollment_restrictions_priority_index',
  properties: ['organizationId', 'environment', 'tenantId', 'isDefault', 'priority'],
})
// One built-in default per tenant: two concurrent first uses create one (enrollment-facts.ts).
@Index({
  name: 'enrollment_restrictions_default_unique',
  expression:
    'create unique index "enrollment_restrictions_default_unique" on "enrollment_restrictions" ("organization_id", "environment", "tenant_id") where "is_default"',
})
export class EnrollmentRestriction extends ScopedEntity {
  [OptionalProps]?:
    'description' | 'version' | 'createdAt' | 'updatedAt' | 'isDefault' | 'cloudId' | 'cloudDrift';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field()
  @Property({ length: 128 })
  name!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Field(() => RestrictionType)
  @Enum({ items: () => RestrictionType })
  restrictionType!: RestrictionType;

  @Field({ description: 'The built-in default: always last, editable, never deleted or reordered' })
  @Property()
  isDefault: boolean = false;

  @Field(() => Int, { description: "Position in the tenant's order, 1 first; the default is last" })
  @Property()
  priority!: number;

  @Field(() => Int, { description: 'Grows with every edit; sent back as ETag, expected in If-Match' })
  @Property()
  version: number = 1;

  @Field({ description: 'Applies to every user of the tenant (else to the members of `groupIds`)' })
  @Property()
  assignedToAllUsers!: boolean;

  @Field(() => [GraphQLUUID], { description: 'Groups of the tenant the policy is assigned to' })
  @Property({ type: 'text[]' })
  groupIds!: string[];

  @Field(() => [PlatformRestriction], {
    description: 'Device Type Restrictions: one row per platform (empty for a device limit restriction)',
  })
  // Query cost (src/http/query-limits.ts): one row per enrollment platform, five.
  @Extensions({ expectedListSize: 5 })
  @Property({ type: 'jsonb' })
  platformRestrictions!: PlatformRestriction[];

  @Field(() => Int, {
    nullable: true,
    description: `Device Limit Restrictions: devices per user, ${MIN_DEVICE_LIMIT} to ${MAX_DEVICE_LIMIT}`,
  })
  @Property({ type: 'smallint', nullable: true })
  deviceLimit: number | null = null;

  @Field(() => [PlatformDeviceLimit], { description: 'Device Limit Restrictions: per-platform limits' })
  @Extensions({ expectedListSize: 5 }) // at most one per OS platform
  @Property({ type: 'jsonb' })
  platformLimits!: PlatformDeviceLimit[];

  @Field(() => [DeviceLimitGroupOverride], {
    description: 'Device Limit Restrictions: a per-user limit for members of a group (first match wins)',
  })
  // A policy carries a few overrides (a handful of exception groups); the query cost expects three.
  @Extensions({ expectedListSize: 3 })
  @Property({ type: 'jsonb' })
  groupOverrides!: DeviceLimitGroupOverride[];

  /** The Intune deviceEnrollmentConfiguration it is written to (enrollment-cloud.ts); null on other clouds. */
  @Property({ type: 'text', nullable: true })
  cloudId: string | null = null;

  @Field(() => String, {
    nullable: true,
    description:
      'Live environment on Microsoft 365: how the Intune configuration differs from this policy, as the last sync ' +
      'read it (changed in the Intune portal); null when it matches. The next edit writes this policy again.',
  })
  @Property({ type: 'text', nullable: true })
  cloudDrift: string | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();

  constructor(
    scope: Scope,
    fields: Omit<
      EnrollmentRestriction,
      keyof ScopedEntity | 'version' | 'cloudId' | 'cloudDrift' | typeof OptionalProps
    >,
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}
