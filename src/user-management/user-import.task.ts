import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { retryableCloudError } from '../cloud/cloud-error.js';
import { createJobContext } from '../context.js';
import { AppError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import {
  runTrackedJob,
  type TrackedJobKind,
  type TrackedJobOptions,
  type TrackedRun,
} from '../core/tracked-job.js';
import { isConsentRefusal } from '../tenants/tenant-consent.js';
import type { CreateUserInput } from '../users/user.types.js';
import { UserService } from '../users/user.service.js';
import { UserImport, UserImportRow, UserImportRowStatus, UserImportStatus } from './user-import.entity.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';

const BATCH = 50;

interface PendingRow {
  id: string;
  line: number;
  user_principal_name: string;
  input: Record<string, unknown>;
  password: string | null;
  status: UserImportRowStatus;
}

interface ImportPayload extends Scope {
  importId: string;
}

const reasonOf = (error: unknown) =>
  error instanceof AppError || isConsentRefusal(error)
    ? (error as Error).message
    : `the upstream cloud or database failed: ${error instanceof Error ? error.message : String(error)}`;

export const USER_IMPORT_JOB: TrackedJobKind<UserImport> = {
  name: 'user import',
  entity: UserImport,
  runnable: [UserImportStatus.QUEUED, UserImportStatus.RUNNING],
  running: UserImportStatus.RUNNING,
  failed: UserImportStatus.FAILED,
  completed: UserImportStatus.COMPLETED,
  reasonColumn: 'failureReason',
  startedAtColumn: 'startedAt',
  finishedAtColumn: 'finishedAt',
  // A Failed import keeps its remaining rows' passwords, sealed (issue #32 item 7), because a retry creates
  // those rows with the passwords the file gave (issue #34 item 3); a row's password goes once it is done, and
  // housekeeping erases what is left FAILED_IMPORT_PASSWORD_RETENTION_DAYS after the failure.
  giveUp: async (em, id, reason, now) => {
    await em.nativeUpdate(
      UserImport,
      { id },
      { status: UserImportStatus.FAILED, failureReason: reason, finishedAt: now },
    );
  },
};

/**
 * Runs (or resumes) an import through core/tracked-job.ts: rows still Pending or Creating, in file order.
 * Each row's state is its own progress: a row is marked Creating before its user is created and
 * Created/Failed after, with the counters, in one transaction; a row found Creating after a crash is taken
 * as Created when its user exists (created since the import began), so a resumed run never creates a user
 * twice. The checkpoint records the last line done. A row's failure (UPN taken meanwhile, a cloud refusal)
 * fails that row only; the final status says whether any row failed. A cloud that did not answer (a timeout,
 * throttling) fails no row: the job is retried, and the row with it.
 */
export async function runUserImport(
  orm: MikroORM,
  deps: AppDeps,
  payload: ImportPayload,
  job?: TrackedJobOptions<UserImport>['job'],
  abortSignal?: AbortSignal,
): Promise<void> {
  const scope: Scope = { organizationId: payload.organizationId, environment: payload.environment };
  const ctx = createJobContext(orm, deps, scope, 'system:user-import');
  await runTrackedJob(
    { em: ctx.em, kind: USER_IMPORT_JOB, id: payload.importId, clock: deps.clock, job, abortSignal },
    async (run) => {
      const operation = run.row;
      const actorCtx = () => createJobContext(orm, deps, scope, operation.createdBy);
      for (;;) {
        const rows = await ctx.em.execute<PendingRow[]>(
          `select id, line, user_principal_name, input, password, status from user_import_rows
          where import_id = ? and status in ('Pending', 'Creating') order by line limit ?`,
          [operation.id, BATCH],
        );
        if (rows.length === 0) break;
        for (const row of rows) {
          run.checkStop(); // SIGTERM: stop between two rows, the queue resumes at the next one
          await importRow(actorCtx(), run, operation, row);
          await run.save({ lastLine: row.line });
        }
      }
      const counts = await ctx.em.findOneOrFail(UserImport, { id: operation.id }, { refresh: true });
      const status =
        counts.failedRows === 0
          ? UserImportStatus.COMPLETED
          : counts.createdRows === 0
            ? UserImportStatus.FAILED
            : UserImportStatus.COMPLETED_WITH_ERRORS;
      return {
        status,
        failureReason: status === UserImportStatus.FAILED ? 'No row could be created (see the rows)' : null,
      };
    },
  );
}

/**
 * One row. Both writes are fenced (issue #34 item 2): each checks, in its transaction, that this run still
 * owns the import (`run.fence`) and that the row is in the state this run expects, so a stale run (frozen,
 * then woken after another took the import over) neither sends the row to the cloud nor counts it.
 */
async function importRow(
  ctx: ServiceContext,
  run: TrackedRun<UserImport>,
  operation: UserImport,
  row: PendingRow,
): Promise<void> {
  let userId: string | null = null;
  let error: string | null = null;
  if (row.status === UserImportRowStatus.CREATING) userId = await landedBefore(ctx, operation, row);
  if (!userId) {
    const marked = await ctx.em.transactional(async (em) => {
      await run.fence(em);
      return em.nativeUpdate(
        UserImportRow,
        { id: row.id, status: { $in: [UserImportRowStatus.PENDING, UserImportRowStatus.CREATING] } },
        { status: UserImportRowStatus.CREATING },
      );
    });
    if (marked === 0) return; // done meanwhile by the run that owns the import
    try {
      // Sealed at rest while pending (user-import.service.ts); a row stored before sealing reads as is.
      const password = row.password === null ? null : webhookSettingsOf(ctx).secretBox.open(row.password);
      const input = { ...row.input, password } as unknown as CreateUserInput;
      // Keyed by the row: a run resumed after a crash between this call and its save gets the user the
      // first call created back from the cloud (and records it), instead of creating a second one.
      const requestKey = `user-import:${operation.id}:${row.line}`;
      userId = (await new UserService(ctx).create(operation.tenantId, input, { requestKey })).id;
    } catch (failure) {
      // A timeout or a throttled or failing cloud is no answer: the user may have been created. The row stays
      // Creating and the job is retried after the cloud's Retry-After (core/jobs.ts); the keyed create then
      // finds the user by its address before creating one (graph-users.ts, the simulated cloud's request
      // keys). Only an answer (a refusal, a bad row) fails the row.
      if (retryableCloudError(failure)) throw failure;
      error = reasonOf(failure);
    }
  }
  await ctx.em.transactional(async (em) => {
    await run.fence(em);
    const recorded = await em.nativeUpdate(
      UserImportRow,
      { id: row.id, status: UserImportRowStatus.CREATING },
      {
        status: userId ? UserImportRowStatus.CREATED : UserImportRowStatus.FAILED,
        userId,
        error,
        password: null, // the password is not kept once the row is done
      },
    );
    if (recorded === 0) return; // recorded already: counted once
    await em.execute(
      `update user_imports set processed_rows = processed_rows + 1, created_rows = created_rows + ?,
              failed_rows = failed_rows + ? where id = ?`,
      [userId ? 1 : 0, userId ? 0 : 1, operation.id],
    );
  });
}

/** The user a previous attempt created for this row, if its create landed before the crash. */
async function landedBefore(
  ctx: ServiceContext,
  operation: UserImport,
  row: PendingRow,
): Promise<string | null> {
  const [found] = await ctx.em.execute<Array<{ id: string }>>(
    `select id from users where organization_id = ? and environment = ? and tenant_id = ?
        and user_principal_name_folded = ? and deleted_at is null and created_at >= ?`,
    [
      operation.organizationId,
      operation.environment,
      operation.tenantId,
      row.user_principal_name,
      operation.createdAt,
    ],
  );
  return found?.id ?? null;
}

export function userImportTask(orm: MikroORM, deps: AppDeps): Task {
  return async (payload, helpers) => {
    await runUserImport(orm, deps, payload as ImportPayload, helpers.job, helpers.abortSignal);
  };
}
