import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { Device } from './device.entity.js';
import { DeviceActionKind, DeviceActionStatus, IsolationType, ScanType } from './device.enums.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';
import './device.graphql-enums.js';

export const ACTIVE_ISOLATION_INDEX =
  'create unique index "device_actions_one_active_isolation" on "device_actions" ("device_id") where "kind" in (\'Isolate\', \'Release\') and "status" in (\'Pending\', \'InProgress\')';
export const ACTIVE_SCAN_INDEX =
  'create unique index "device_actions_one_active_scan" on "device_actions" ("device_id") where "kind" = \'Scan\' and "status" in (\'Pending\', \'InProgress\')';

/**
 * An isolation, release or antivirus scan of a device, carried out by the `device-action` job through the
 * cloud: Pending → InProgress → Succeeded | Failed. The row is the job's persisted progress: a retried job
 * reads it and goes on from where it stopped (device-action.task.ts).
 */
@ObjectType({ description: 'An isolation, release or scan of a device and its progress' })
@Entity({ tableName: 'device_actions' })
@Index({ name: 'device_actions_device_index', properties: ['deviceId', 'requestedAt', 'id'] })
// One isolation or release in flight per device, and one scan: a race between two requests ends in a 409.
@Index({
  name: 'device_actions_one_active_isolation',
  expression: ACTIVE_ISOLATION_INDEX,
})
@Index({
  name: 'device_actions_one_active_scan',
  expression: ACTIVE_SCAN_INDEX,
})
export class DeviceAction extends TrackedOperation {
  [OptionalProps]?:
    | 'status'
    | 'isolationType'
    | 'scanType'
    | 'notes'
    | 'externalId'
    | 'startedAt'
    | 'completedAt'
    | 'failureReason'
    | 'threatsFound'
    | 'durationSeconds'
    | 'polls'
    | 'runAttempts'
    | 'checkpoint';

  @Field(() => ID)
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'device_actions_tenant_id_index' })
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => ID)
  @ManyToOne(() => Device, { mapToPk: true, fieldName: 'device_id', deleteRule: 'cascade' })
  deviceId!: string;

  @Field(() => DeviceActionKind)
  @Enum({ items: () => DeviceActionKind })
  kind!: DeviceActionKind;

  @Field(() => DeviceActionStatus)
  @Enum({ items: () => DeviceActionStatus })
  status: DeviceActionStatus = DeviceActionStatus.PENDING;

  @Field(() => IsolationType, { nullable: true, description: 'Isolate: FULL or SELECTIVE' })
  @Enum({ items: () => IsolationType, nullable: true })
  isolationType: IsolationType | null = null;

  @Field(() => ScanType, { nullable: true, description: 'Scan: quick or full' })
  @Enum({ items: () => ScanType, nullable: true })
  scanType: ScanType | null = null;

  @Field(() => String, { nullable: true, description: 'Why (isolate and release)' })
  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  notes: string | null = null;

  @Field(() => Actor, { description: 'Who asked: an API key or a member' })
  @Property({ type: 'text' })
  requestedBy!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  requestedAt!: Date;

  /** The action's id in the cloud, once started there. */
  @Property({ type: 'text', nullable: true })
  externalId: string | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  @Field(() => Int, { nullable: true, description: 'Scan: threats found' })
  @Property({ type: 'integer', nullable: true })
  threatsFound: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Scan: how long it ran, in seconds' })
  @Property({ type: 'integer', nullable: true })
  durationSeconds: number | null = null;

  /** How many times the job read the cloud's status (it gives up after DEVICE_ACTION_MAX_POLLS). */
  @Property({ type: 'integer' })
  polls: number = 0;
}
