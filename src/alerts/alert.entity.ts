import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { ScopedEntity } from '../core/scope.js';
import { Device } from '../devices/device.entity.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { AlertSeverity, AlertStatus } from './alert.enums.js';
import './alert.graphql-enums.js';

/**
 * A security alert of a tenant (SPEC 2.6 "Security alert"), copied from the upstream cloud by sync; status
 * moves go to the cloud first (alert.service.ts), assignment and comments are ours.
 */
@ObjectType({ description: 'A security alert of a tenant (SPEC 2.6)' })
@Entity({ tableName: 'security_alerts' })
@Unique({
  name: 'security_alerts_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
@Index({
  name: 'security_alerts_created_at_index',
  properties: ['organizationId', 'environment', 'tenantId', 'createdAt', 'id'],
})
// ?sort=severity and ?status= (the most common filter) page and count through their own index (issue #11).
@Index({
  name: 'security_alerts_severity_index',
  properties: ['organizationId', 'environment', 'tenantId', 'severityRank', 'createdAt', 'id'],
})
@Index({
  name: 'security_alerts_status_index',
  properties: ['organizationId', 'environment', 'tenantId', 'status', 'createdAt', 'id'],
})
export class SecurityAlert extends ScopedEntity {
  [OptionalProps]?: 'userId' | 'deviceId' | 'assignedToId' | 'assignedTo' | 'statusChangedAt' | 'updatedAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The alert's id in the upstream cloud. */
  @Property()
  externalId!: string;

  @Field()
  @Property({ type: 'text' })
  title!: string;

  @Field()
  @Property({ type: 'text' })
  description!: string;

  @Field(() => AlertSeverity)
  @Enum({ items: () => AlertSeverity })
  severity!: AlertSeverity;

  /** 4 High .. 1 Informational: the "severity" sort. */
  @Property({ type: 'smallint' })
  severityRank!: number;

  @Field(() => AlertStatus)
  @Enum({ items: () => AlertStatus })
  status!: AlertStatus;

  @Field({ description: 'e.g. Malware, Phishing, Suspicious sign-in, Data exfiltration' })
  @Property()
  category!: string;

  @Field({ description: 'The service that raised it, e.g. Defender for Endpoint, Office 365' })
  @Property()
  source!: string;

  @Field({ description: 'The user, device or mailbox the alert is about' })
  @Property({ type: 'text' })
  affectedEntity!: string;

  @Field(() => ID, { nullable: true, description: 'Our user, when the alert is about one we know' })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'security_alerts_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field(() => ID, { nullable: true, description: 'Our device, when the alert is about one' })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'security_alerts_device_id_index' })
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', nullable: true, deleteRule: 'set null' })
  deviceId: string | null = null;

  @Field(() => ID, { nullable: true, description: 'The member of the organization the alert is assigned to' })
  @Property({ type: 'uuid', nullable: true })
  assignedToId: string | null = null;

  @Field(() => String, { nullable: true, description: "The assignee's sign-in name" })
  @Property({ type: 'text', nullable: true })
  assignedTo: string | null = null;

  @Field(() => GraphQLDateTime, { description: 'When the cloud raised it' })
  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Last status change made here' })
  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}

/** An investigation note on an alert (SPEC 2.6 "Comments (investigation notes) can be added"). */
@ObjectType({ description: 'An investigation note on an alert' })
@Entity({ tableName: 'security_alert_comments' })
@Index({ name: 'security_alert_comments_alert_index', properties: ['alertId', 'createdAt', 'id'] })
export class AlertComment extends ScopedEntity {
  @Field(() => ID)
  @ManyToOne(() => SecurityAlert, { mapToPk: true, fieldName: 'alert_id', deleteRule: 'cascade' })
  alertId!: string;

  @Field()
  @Property({ type: 'text' })
  text!: string;

  @Field(() => Actor, { description: 'Who wrote it: an API key or a member' })
  @Property({ type: 'text' })
  author!: string;

  @Field({ description: "The author's name: the API key's name or the signed-in member's sign-in name" })
  @Property({ type: 'text' })
  authorName!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt!: Date;
}
