import type { MikroORM } from '@mikro-orm/postgresql';
import type { Task } from 'graphile-worker';
import { createJobContext } from '../context.js';
import { AppError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps, ServiceContext } from '../core/service-context.js';
import type { CreateUserInput } from '../users/user.inputs.js';
import { UserService } from '../users/user.service.js';
import { UserImport, UserImportRow, UserImportRowStatus, UserImportStatus } from './user-import.entity.js';
import { USER_IMPORT_MAX_ATTEMPTS } from './user-import.service.js';

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
  error instanceof AppError
    ? error.message
    : `the upstream cloud or database failed: ${error instanceof Error ? error.message : String(error)}`;

/**
 * Runs (or resumes) an import: rows still Pending or Creating, in file order. A row is marked Creating
 * before its user is created and Created/Failed after, with the counters, in one transaction; a row found
 * Creating after a crash is taken as Created when its user exists (created since the import began), so a
 * retried job never creates a user twice. A row's failure (UPN taken meanwhile, a cloud refusal) fails
 * that row only.
 */
export async function runUserImport(orm: MikroORM, deps: AppDeps, payload: ImportPayload): Promise<void> {
  const scope: Scope = { organizationId: payload.organizationId, environment: payload.environment };
  const ctx = createJobContext(orm, deps, scope, 'system:user-import');
  const operation = await ctx.em.findOne(UserImport, { id: payload.importId });
  if (!operation || ![UserImportStatus.QUEUED, UserImportStatus.RUNNING].includes(operation.status)) return;
  const actorCtx = () => createJobContext(orm, deps, scope, operation.createdBy);
  await ctx.em.nativeUpdate(
    UserImport,
    { id: operation.id },
    { status: UserImportStatus.RUNNING, startedAt: operation.startedAt ?? deps.clock.now() },
  );
  for (;;) {
    const rows = await ctx.em.execute<PendingRow[]>(
      `select id, line, user_principal_name, input, password, status from user_import_rows
        where import_id = ? and status in ('Pending', 'Creating') order by line limit ?`,
      [operation.id, BATCH],
    );
    if (rows.length === 0) break;
    for (const row of rows) await importRow(actorCtx(), operation, row);
  }
  const counts = await ctx.em.findOneOrFail(UserImport, { id: operation.id }, { refresh: true });
  const status =
    counts.failedRows === 0
      ? UserImportStatus.COMPLETED
      : counts.createdRows === 0
        ? UserImportStatus.FAILED
        : UserImportStatus.COMPLETED_WITH_ERRORS;
  await ctx.em.nativeUpdate(
    UserImport,
    { id: operation.id },
    {
      status,
      finishedAt: deps.clock.now(),
      failureReason: status === UserImportStatus.FAILED ? 'No row could be created (see the rows)' : null,
    },
  );
}

async function importRow(ctx: ServiceContext, operation: UserImport, row: PendingRow): Promise<void> {
  let userId: string | null = null;
  let error: string | null = null;
  if (row.status === UserImportRowStatus.CREATING) userId = await landedBefore(ctx, operation, row);
  if (!userId) {
    await ctx.em.nativeUpdate(UserImportRow, { id: row.id }, { status: UserImportRowStatus.CREATING });
    try {
      const input = { ...row.input, password: row.password } as unknown as CreateUserInput;
      userId = (await new UserService(ctx).create(operation.tenantId, input)).id;
    } catch (failure) {
      error = reasonOf(failure);
    }
  }
  await ctx.em.transactional(async (em) => {
    await em.nativeUpdate(
      UserImportRow,
      { id: row.id },
      {
        status: userId ? UserImportRowStatus.CREATED : UserImportRowStatus.FAILED,
        userId,
        error,
        password: null, // the password is not kept once the row is done
      },
    );
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
        and lower(user_principal_name) = ? and deleted_at is null and created_at >= ?`,
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
    const importPayload = payload as ImportPayload;
    try {
      await runUserImport(orm, deps, importPayload);
    } catch (error) {
      // Retried by graphile-worker; after the last attempt the operation says why it stopped.
      if (helpers.job.attempts >= (helpers.job.max_attempts ?? USER_IMPORT_MAX_ATTEMPTS)) {
        await orm.em.fork().nativeUpdate(
          UserImport,
          { id: importPayload.importId },
          {
            status: UserImportStatus.FAILED,
            finishedAt: deps.clock.now(),
            failureReason: `Stopped after ${helpers.job.attempts} attempts: ${reasonOf(error)}`,
          },
          { filters: false },
        );
      }
      throw error;
    }
  };
}
