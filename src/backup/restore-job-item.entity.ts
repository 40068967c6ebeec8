import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ScopedEntity } from '../core/scope.js';
import { RestoreItemStatus } from './backup.enums.js';
import { RestoreJob } from './restore-job.entity.js';
import './backup.graphql-enums.js';

/**
 * One item of a restore and its result. Written Pending when the restore is accepted; a batch's results
 * are written in the same transaction as the job's counts, so after a crash the job resumes at the first
 * Pending item and never asks the cloud for an item twice (the cloud also de-duplicates by job and item).
 */
@ObjectType({ description: 'One item of a restore and what happened to it' })
@Entity({ tableName: 'restore_job_items' })
@Unique({ name: 'restore_job_items_item_unique', properties: ['jobId', 'itemId'] })
@Index({ name: 'restore_job_items_order_index', properties: ['jobId', 'status', 'ordinal'] })
// A restore's items in processing order, whatever their status (GET /api/backup/restore/:jobId, issue #11).
@Index({ name: 'restore_job_items_ordinal_index', properties: ['jobId', 'ordinal'] })
export class RestoreJobItem extends ScopedEntity {
  [OptionalProps]?: 'status' | 'detail' | 'restoredTo' | 'exported' | 'processedAt';

  @Field(() => ID)
  @ManyToOne(() => RestoreJob, { mapToPk: true, fieldName: 'job_id', deleteRule: 'cascade' })
  jobId!: string;

  /** Processing order (1-based). */
  @Field(() => Int)
  @Property({ type: 'integer' })
  ordinal!: number;

  @Field({ description: "The item's id in the snapshot" })
  @Property()
  itemId!: string;

  @Field()
  @Property()
  name!: string;

  @Field()
  @Property({ type: 'text' })
  path!: string;

  @Field({ description: 'Message, File or Chat message' })
  @Property()
  itemType!: string;

  @Field(() => RestoreItemStatus)
  @Enum({ items: () => RestoreItemStatus })
  status: RestoreItemStatus = RestoreItemStatus.PENDING;

  @Field(() => String, {
    nullable: true,
    description: 'Why it was skipped or failed, or how a conflict was met',
  })
  @Property({ type: 'text', nullable: true })
  detail: string | null = null;

  @Field(() => String, { nullable: true, description: 'Where it was restored to' })
  @Property({ type: 'text', nullable: true })
  restoredTo: string | null = null;

  /** Export: the item as it goes into the archive. */
  @Property({ type: 'jsonb', nullable: true })
  exported: Record<string, unknown> | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  processedAt: Date | null = null;
}
