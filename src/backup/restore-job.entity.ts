import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { Tenant } from '../tenants/tenant.entity.js';
import {
  BackupWorkload,
  ConflictPolicy,
  RestoreJobStatus,
  RestoreTargetType,
  RestoreType,
} from './backup.enums.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';
import './backup.graphql-enums.js';

/**
 * A restore from a backup snapshot (SPEC 2.6 "Restore job"): its request, its status and counts. The items
 * and their results are RestoreJobItem rows; the graphile-worker job `backup.restore` (restore-job.task.ts)
 * works through them in batches and keeps the counts here.
 */
@ObjectType({ description: 'A restore from a backup snapshot (SPEC 2.6 "Restore job")' })
@Entity({ tableName: 'restore_jobs' })
@Index({
  name: 'restore_jobs_history_index',
  properties: ['organizationId', 'environment', 'tenantId', 'finished', 'completedAt'],
})
export class RestoreJob extends TrackedOperation {
  [OptionalProps]?:
    | 'status'
    | 'finished'
    | 'processedCount'
    | 'restoredCount'
    | 'skippedCount'
    | 'failedCount'
    | 'startedAt'
    | 'completedAt'
    | 'failureReason'
    | 'downloadSecret'
    | 'downloadExpiresAt'
    | 'targetTenantId'
    | 'targetLocation'
    | 'createdAt'
    | 'runAttempts'
    | 'checkpoint';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => BackupWorkload)
  @Enum({ items: () => BackupWorkload })
  workload!: BackupWorkload;

  @Field(() => RestoreType)
  @Enum({ items: () => RestoreType })
  restoreType!: RestoreType;

  @Field(() => ID, { description: 'The backup snapshot restored from' })
  @Property({ type: 'uuid' })
  snapshotId!: string;

  /** The snapshot's id in the cloud (our catalog row may leave the retention window while we run). */
  @Property()
  snapshotExternalId!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  snapshotTakenAt!: Date;

  @Field({ description: 'The mailbox, drive, site or team restored from' })
  @Property()
  resourceName!: string;

  @Field(() => RestoreTargetType)
  @Enum({ items: () => RestoreTargetType })
  targetType!: RestoreTargetType;

  @Field(() => ID, { nullable: true, description: 'Cross-tenant: the tenant receiving the items' })
  @Property({ type: 'uuid', nullable: true })
  targetTenantId: string | null = null;

  @Field(() => String, { nullable: true, description: 'Different location: where the items go' })
  @Property({ type: 'text', nullable: true })
  targetLocation: string | null = null;

  @Field(() => ConflictPolicy)
  @Enum({ items: () => ConflictPolicy })
  conflictPolicy!: ConflictPolicy;

  @Field(() => RestoreJobStatus)
  @Enum({ items: () => RestoreJobStatus })
  status: RestoreJobStatus = RestoreJobStatus.QUEUED;

  /** Whether the status is final (the history lists these); kept beside the status for one index. */
  @Property()
  finished: boolean = false;

  @Field(() => Int, { description: 'Items (messages, files, posts) the restore covers' })
  @Property({ type: 'integer' })
  itemCount!: number;

  @Field(() => Int, { description: 'Items done so far: restored, skipped or failed' })
  @Property({ type: 'integer' })
  processedCount: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  restoredCount: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  skippedCount: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  failedCount: number = 0;

  @Field(() => Actor, { description: 'Who started it: an API key or a member' })
  @Property()
  initiatedBy!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'When it reached its final status' })
  @Property({ type: 'timestamptz', nullable: true })
  completedAt: Date | null = null;

  @Field(() => String, { nullable: true, description: 'Failed: why nothing could be restored' })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;

  /** Export: the key the download link is signed with (sealed like webhook secrets); never returned. */
  @Property({ type: 'text', nullable: true })
  downloadSecret: string | null = null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Export: when the download link expires' })
  @Property({ type: 'timestamptz', nullable: true })
  downloadExpiresAt: Date | null = null;
}
