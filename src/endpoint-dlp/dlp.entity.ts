import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { ScopedEntity } from '../core/scope.js';
import { Device } from '../devices/device.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { DlpActionTaken, DlpActivity, DlpPolicyAction } from './dlp.enums.js';
import './dlp.graphql-enums.js';

/** An endpoint DLP policy of a tenant (SPEC 2.6), read-only here: copied from the cloud by sync. */
@ObjectType({ description: 'An endpoint DLP policy (read-only; managed in the cloud)' })
@Entity({ tableName: 'endpoint_dlp_policies' })
@Unique({
  name: 'endpoint_dlp_policies_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
// Policies are listed by name (issue #11: the page stops after offset + limit).
@Index({
  name: 'endpoint_dlp_policies_name_index',
  properties: ['organizationId', 'environment', 'tenantId', 'name', 'id'],
})
export class EndpointDlpPolicy extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  externalId!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => DlpPolicyAction)
  @Enum({ items: () => DlpPolicyAction })
  action!: DlpPolicyAction;

  @Field(() => [String], { description: 'The device groups the policy applies to' })
  @Property({ type: 'text[]' })
  deviceGroups!: string[];

  @Field(() => [DlpActivity])
  @Property({ type: 'text[]' })
  monitoredActivities!: DlpActivity[];

  @Field()
  @Property()
  enabled!: boolean;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}

/** One activity an endpoint DLP policy matched on a device (SPEC 4.2 endpoint DLP alerts), read-only. */
@ObjectType({ description: 'An activity an endpoint DLP policy matched' })
@Entity({ tableName: 'endpoint_dlp_alerts' })
@Unique({
  name: 'endpoint_dlp_alerts_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
@Index({
  name: 'endpoint_dlp_alerts_occurred_at_index',
  properties: ['organizationId', 'environment', 'tenantId', 'occurredAt', 'id'],
})
export class EndpointDlpAlert extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  externalId!: string;

  @Field(() => ID, {
    nullable: true,
    description:
      'The policy that matched; null when the cloud names none we know (Microsoft 365: docs/microsoft365.md)',
  })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'endpoint_dlp_alerts_policy_id_index' })
  @ManyToOne(() => EndpointDlpPolicy, {
    mapToPk: true,
    fieldName: 'policy_id',
    nullable: true,
    deleteRule: 'cascade',
  })
  policyId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ nullable: true })
  policyName: string | null = null;

  @Field(() => DlpActivity, {
    nullable: true,
    description: 'null when the cloud does not say (Microsoft 365)',
  })
  @Enum({ items: () => DlpActivity, nullable: true })
  activity: DlpActivity | null = null;

  @Field(() => ID, { nullable: true })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'endpoint_dlp_alerts_device_id_index' })
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', nullable: true, deleteRule: 'set null' })
  deviceId: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ nullable: true })
  deviceName: string | null = null;

  @Field(() => ID, { nullable: true })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'endpoint_dlp_alerts_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field()
  @Property()
  userPrincipalName!: string;

  @Field()
  @Property({ type: 'text' })
  fileName!: string;

  @Field(() => DlpActionTaken, { nullable: true, description: 'null when the cloud does not say' })
  @Enum({ items: () => DlpActionTaken, nullable: true })
  actionTaken: DlpActionTaken | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  occurredAt!: Date;
}
