import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../core/pagination.js';
import { BackupSnapshot } from './backup-snapshot.entity.js';
import {
  BackupItemKind,
  BackupWorkload,
  ConflictPolicy,
  RestoreTargetType,
  RestoreType,
} from './backup.enums.js';
import { RestoreJobItem } from './restore-job-item.entity.js';
import { RestoreJob } from './restore-job.entity.js';
import './backup.graphql-enums.js';

export const BackupSnapshotPage = PageOf(BackupSnapshot, 'BackupSnapshot');
export const RestoreJobPage = PageOf(RestoreJob, 'RestoreJob');
export const RestoreJobItemPage = PageOf(RestoreJobItem, 'RestoreJobItem');

@ArgsType()
export class BackupSnapshotArgs extends PageArgs {
  @Field(() => BackupWorkload, { nullable: true })
  workload?: BackupWorkload;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Snapshots of this user’s mailbox and drive' })
  userId?: string;

  @Field({
    nullable: true,
    description: 'Snapshots of one protected resource (a site, team, mailbox or drive)',
  })
  resourceId?: string;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Taken at or after' })
  from?: Date;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Taken at or before' })
  to?: Date;
}

@ObjectType({
  description: 'An item of a snapshot: a container (folder, library, channel) or a message/file/post',
})
export class BackupItem {
  @Field({ description: 'Use it in itemIds of a restore, or as parentId to browse a container' })
  itemId!: string;

  @Field(() => String, { nullable: true })
  parentId!: string | null;

  @Field()
  name!: string;

  @Field(() => BackupItemKind)
  kind!: BackupItemKind;

  @Field()
  itemType!: string;

  @Field()
  path!: string;

  @Field(() => Int)
  sizeBytes!: number;

  @Field(() => Int, { description: 'Containers: items inside' })
  childCount!: number;

  @Field(() => GraphQLDateTime)
  modifiedAt!: Date;
}
export const BackupItemPage = PageOf(BackupItem, 'BackupItem');

@InputType({ description: 'Where restored items go' })
export class RestoreTargetInput {
  @Field(() => RestoreTargetType)
  type!: RestoreTargetType;

  @Field(() => GraphQLUUID, {
    nullable: true,
    description: 'Cross-tenant: the receiving tenant (of the same organization)',
  })
  tenantId?: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Different location: mailbox/drive owner UPN (user@domain[/folder]), /sites/<name>[/library] or ' +
      '/teams/<name>[/channel], matching the workload',
  })
  location?: string;
}

@InputType({ description: 'A restore request (SPEC 4.4)' })
export class StartRestoreInput {
  @Field(() => BackupWorkload)
  workload!: BackupWorkload;

  @Field(() => RestoreType)
  restoreType!: RestoreType;

  @Field(() => GraphQLUUID)
  snapshotId!: string;

  @Field(() => [String], {
    nullable: true,
    description:
      'Granular item: item ids; Container: container ids; Point-in-time: none (the whole resource)',
  })
  itemIds?: string[];

  @Field(() => RestoreTargetInput)
  target!: RestoreTargetInput;

  @Field(() => ConflictPolicy, { nullable: true, description: 'Default Skip' })
  conflictPolicy?: ConflictPolicy;
}

@ObjectType({ description: 'Progress of a restore' })
export class RestoreProgress {
  @Field(() => Int)
  itemsProcessed!: number;

  @Field(() => Int)
  itemsTotal!: number;

  @Field(() => Int, { description: '0 to 100' })
  percent!: number;
}

@ObjectType({ description: 'Export archive download (a signed link that expires)' })
export class RestoreDownload {
  @Field()
  url!: string;

  @Field(() => GraphQLDateTime)
  expiresAt!: Date;
}
