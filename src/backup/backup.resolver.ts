import { GraphQLUUID } from 'graphql-scalars';
import { Arg, Args, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context.js';
import { RequirePermission } from '../core/authorize.js';
import { PageArgs } from '../core/pagination.js';
import { FEATURES } from '../core/permissions.js';
import { BackupService } from './backup.service.js';
import {
  BackupItemPage,
  BackupSnapshotArgs,
  BackupSnapshotPage,
  RestoreDownload,
  RestoreJobItemPage,
  RestoreJobPage,
  RestoreProgress,
  StartRestoreInput,
} from './backup.types.js';
import { downloadUrlOf } from './restore-download.js';
import { RestoreJob } from './restore-job.entity.js';
import { RestoreService } from './restore.service.js';
import { StartsJob } from '../core/job-charges.js';

const tenantIdArg = () => Arg('tenantId', () => GraphQLUUID);
const idArg = () => Arg('id', () => GraphQLUUID);

/** Backup snapshots and restores of SPEC 4.2 (REST: /api/backup/...), docs/backup.md. */
@Resolver(() => RestoreJob)
export class BackupResolver {
  @Query(() => BackupSnapshotPage, {
    description:
      'Snapshots of a tenant within the retention window, newest first (filters: workload, user, resource, dates)',
  })
  @RequirePermission(FEATURES.backup.read)
  backupSnapshots(
    @tenantIdArg() tenantId: string,
    @Args() args: BackupSnapshotArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new BackupService(ctx).listSnapshots(tenantId, args);
  }

  @Query(() => BackupItemPage, {
    description: 'Browse a snapshot: its top-level containers, or the items of one container (parentId)',
  })
  @RequirePermission(FEATURES.backup.read)
  backupSnapshotItems(
    @tenantIdArg() tenantId: string,
    @idArg() id: string,
    @Arg('parentId', () => String, { nullable: true }) parentId: string | null,
    @Args() page: PageArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return new BackupService(ctx).browse(tenantId, id, parentId ?? null, page);
  }

  @StartsJob({ units: 'input.itemIds', perUnit: 10 })
  @Mutation(() => RestoreJob, { description: 'Starts a restore (Queued); it runs in the background' })
  @RequirePermission(FEATURES.backup.write)
  startRestore(
    @tenantIdArg() tenantId: string,
    @Arg('input', () => StartRestoreInput) input: StartRestoreInput,
    @Ctx() ctx: RequestContext,
  ) {
    return new RestoreService(ctx).start(tenantId, input);
  }

  @Query(() => RestoreJob, { description: 'A restore with its status, progress and item results' })
  @RequirePermission(FEATURES.backup.read)
  restoreJob(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new RestoreService(ctx).get(tenantId, id);
  }

  @Query(() => RestoreJobPage, { description: 'Finished restores of a tenant, the latest first' })
  @RequirePermission(FEATURES.backup.read)
  restoreHistory(@tenantIdArg() tenantId: string, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new RestoreService(ctx).history(tenantId, page);
  }

  @Mutation(() => RestoreJob, { description: 'Cancels a Queued or Running restore; 409 once it finished' })
  @RequirePermission(FEATURES.backup.write)
  cancelRestore(@tenantIdArg() tenantId: string, @idArg() id: string, @Ctx() ctx: RequestContext) {
    return new RestoreService(ctx).cancel(tenantId, id);
  }

  @FieldResolver(() => RestoreProgress)
  progress(@Root() job: RestoreJob): RestoreProgress {
    const percent = job.itemCount === 0 ? 100 : Math.floor((job.processedCount * 100) / job.itemCount);
    return { itemsProcessed: job.processedCount, itemsTotal: job.itemCount, percent };
  }

  @FieldResolver(() => RestoreJobItemPage, { description: 'Item results in processing order (paged)' })
  items(@Root() job: RestoreJob, @Args() page: PageArgs, @Ctx() ctx: RequestContext) {
    return new RestoreService(ctx).items(job, page);
  }

  @FieldResolver(() => RestoreDownload, {
    nullable: true,
    description: 'Export: the signed download link of the archive, once finished (it expires)',
  })
  download(@Root() job: RestoreJob, @Ctx() ctx: RequestContext): RestoreDownload | null {
    const url = downloadUrlOf(ctx, job);
    return url && job.downloadExpiresAt ? { url, expiresAt: job.downloadExpiresAt } : null;
  }
}
