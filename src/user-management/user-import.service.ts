import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '../core/errors.js';
import type { Scope } from '../core/scope.js';
import { enqueueJob } from '../core/jobs.js';
import { TRACKED_JOB_QUEUE_ATTEMPTS } from '../core/tracked-job.js';
import { findLeanPage } from '../core/lean-read.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { ServiceContext } from '../core/service-context.js';
import { TenantService } from '../tenants/tenant.service.js';
import { generatePassword, passwordProblems } from '../users/password.js';
import { User } from '../users/user.entity.js';
import { upnDomainProblems } from '../users/user.rules.js';
import { readUsersCsv, rowProblemsError } from './user-csv.js';
import { UserImport, UserImportRow, UserImportRowStatus, UserImportStatus } from './user-import.entity.js';
import type { GeneratedImportPassword, UserImportSubmission } from './user-import.types.js';
import { webhookSettingsOf } from '../webhooks/webhook.settings.js';
import { FAILED_IMPORT_PASSWORD_RETENTION_DAYS } from './user-import.settings.js';

export const USER_IMPORT_TASK = 'user-import';
/** graphile-worker attempts before the import is marked Failed with the last error. */
export const USER_IMPORT_MAX_ATTEMPTS = TRACKED_JOB_QUEUE_ATTEMPTS;
const INSERT_CHUNK = 500;

/** One run at a time per import; a retry after a failure queues a new job under the same key. */
function enqueueImport(em: ServiceContext['em'], importId: string, scope: Scope) {
  return enqueueJob(
    em,
    USER_IMPORT_TASK,
    { importId, ...scope },
    { jobKey: `user-import:${importId}`, maxAttempts: USER_IMPORT_MAX_ATTEMPTS },
  );
}

/**
 * UPNs among `upns` that an import of the tenant still queued or running is to create (its rows not yet
 * created or failed): the up-front "already taken" check sees only existing users (issue #33 item 10).
 */
async function queuedUpns(
  em: ServiceContext['em'],
  tenantId: string,
  upns: string[],
): Promise<Array<{ upn: string; importId: string }>> {
  if (upns.length === 0) return [];
  const rows = await em.execute<Array<{ upn: string; import_id: string }>>(
    `select distinct on (r.user_principal_name) r.user_principal_name as upn, r.import_id
       from user_imports i join user_import_rows r on r.import_id = i.id
      where i.tenant_id = ? and i.status in (?) and r.status in (?) and r.user_principal_name in (?)
      order by r.user_principal_name, r.import_id`,
    [
      tenantId,
      [UserImportStatus.QUEUED, UserImportStatus.RUNNING],
      [UserImportRowStatus.PENDING, UserImportRowStatus.CREATING],
      upns,
    ],
  );
  return rows.map((row) => ({ upn: row.upn, importId: row.import_id }));
}

/**
 * Bulk user creation from CSV (issue #14 item 4). The whole file is checked before anything is written
 * (one 400 listing every bad row); a good file becomes an operation with one row per user, run by the
 * user-import job (user-import.task.ts), where each row succeeds or fails on its own.
 */
export class UserImportService {
  constructor(private readonly ctx: ServiceContext) {}

  async submit(tenantId: string, csv: string): Promise<UserImportSubmission> {
    const tenant = await new TenantService(this.ctx).get(tenantId);
    const { rows, problems } = await readUsersCsv(csv);
    const lineOfUpn = new Map<string, number>();
    for (const { line, input } of rows) {
      const upn = input.userPrincipalName.trim().toLowerCase();
      if (problems.some((p) => p.line === line && p.field === 'UserPrincipalName')) continue;
      for (const p of upnDomainProblems(upn, tenant))
        problems.push({ ...p, line, field: 'UserPrincipalName' });
      if (input.password) {
        for (const p of passwordProblems(input.password, tenant.passwordPolicy)) {
          problems.push({ ...p, line, field: 'Password' });
        }
      }
      const first = lineOfUpn.get(upn);
      if (first !== undefined) {
        problems.push({ line, field: 'UserPrincipalName', problem: `repeats the UPN of line ${first}` });
      } else lineOfUpn.set(upn, line);
    }
    const taken = await this.ctx.em.find(
      User,
      {
        // The folded column, not lower(...): the unique index serves it under row-level security.
        userPrincipalNameFolded: { $in: [...lineOfUpn.keys()] },
        deletedAt: null,
      },
      { fields: ['userPrincipalName'] },
    );
    for (const user of taken) {
      const line = lineOfUpn.get(user.userPrincipalName.toLowerCase())!;
      problems.push({ line, field: 'UserPrincipalName', problem: 'is already taken by another user' });
    }
    if (problems.length > 0) throw rowProblemsError(problems);

    const generatedPasswords: GeneratedImportPassword[] = [];
    const operation = await this.ctx.em.transactional(async (em) => {
      // One submission per tenant at a time past this point, so two imports sent together cannot both
      // queue the same user (the check below would not see the other's uncommitted rows).
      await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`user-import:${tenantId}`]);
      const queued = await queuedUpns(em, tenantId, [...lineOfUpn.keys()]);
      if (queued.length > 0)
        throw rowProblemsError(
          queued.map(({ upn, importId }) => ({
            line: lineOfUpn.get(upn)!,
            field: 'UserPrincipalName',
            problem: `is already queued to be created by import ${importId}`,
          })),
        );
      const now = this.ctx.clock.now();
      const created = em.create(UserImport, {
        ...this.ctx.scope,
        tenantId,
        totalRows: rows.length,
        createdBy: this.ctx.actor,
        createdAt: now,
      });
      await em.flush();
      const { secretBox } = webhookSettingsOf(this.ctx);
      const records = rows.map(({ line, input }) => {
        const userPrincipalName = input.userPrincipalName.trim().toLowerCase();
        let password = input.password ?? null;
        if (password === null) {
          password = generatePassword(tenant.passwordPolicy);
          generatedPasswords.push({ line, userPrincipalName, password });
        }
        const { password: _omitted, ...fields } = input;
        void _omitted; // kept apart, in the row's password column, until the user exists
        return {
          id: randomUUID(),
          ...this.ctx.scope,
          importId: created.id,
          line,
          userPrincipalName,
          input: { ...fields },
          // Sealed like connector credentials: a pending row must not hold a password in clear (issue #32).
          password: secretBox.seal(password),
        };
      });
      for (let start = 0; start < records.length; start += INSERT_CHUNK) {
        await em.insertMany(UserImportRow, records.slice(start, start + INSERT_CHUNK));
      }
      await enqueueImport(em, created.id, this.ctx.scope);
      return created;
    });
    return { operation, generatedPasswords };
  }

  async get(tenantId: string, id: string): Promise<UserImport> {
    await new TenantService(this.ctx).get(tenantId);
    const found = await this.ctx.em.findOne(UserImport, { id, tenantId });
    if (!found) throw new NotFoundError('User import', id);
    return found;
  }

  /**
   * A Failed import runs again for its remaining rows only (issue #34 item 3): the rows still Pending or
   * Creating (a Creating row whose user landed is recorded as Created, not sent again); Created and Failed
   * rows stay as they are. 409 unless the import is Failed with rows remaining whose passwords are still kept.
   */
  async retry(tenantId: string, id: string): Promise<UserImport> {
    const operation = await this.get(tenantId, id);
    if (operation.status !== UserImportStatus.FAILED) {
      throw new ConflictError(`User import ${id} is ${operation.status}: only a Failed one can be retried`, {
        from: operation.status,
        to: UserImportStatus.QUEUED,
        allowed: [UserImportStatus.FAILED],
      });
    }
    const remaining = await this.ctx.em.count(UserImportRow, {
      importId: id,
      status: { $in: [UserImportRowStatus.PENDING, UserImportRowStatus.CREATING] },
    });
    if (remaining === 0) {
      throw new ConflictError(`User import ${id} has no remaining rows: every row was created or failed`, {
        remainingRows: 0,
      });
    }
    if (operation.passwordsPurgedAt) {
      // The rows' passwords are gone (FAILED_IMPORT_PASSWORD_RETENTION_DAYS after the failure): creating the
      // users now would need passwords nobody was given, so the rows must be submitted again.
      throw new ConflictError(
        `User import ${id} can no longer be retried: the passwords of its ${remaining} remaining row(s) were ` +
          `erased on ${operation.passwordsPurgedAt.toISOString()}, ${FAILED_IMPORT_PASSWORD_RETENTION_DAYS} days ` +
          `after it failed; submit those rows again as a new import`,
        {
          reason: 'PASSWORDS_PURGED',
          passwordsPurgedAt: operation.passwordsPurgedAt.toISOString(),
          retentionDays: FAILED_IMPORT_PASSWORD_RETENTION_DAYS,
          remainingRows: remaining,
        },
      );
    }
    return this.ctx.em.transactional(async (em) => {
      const claimed = await em.nativeUpdate(
        UserImport,
        { id, status: UserImportStatus.FAILED },
        // A fresh run count: the retry is a new start, not a crash loop (core/tracked-job.ts).
        { status: UserImportStatus.QUEUED, failureReason: null, finishedAt: null, runAttempts: 0 },
      );
      if (claimed === 0) throw new ConflictError(`User import ${id} was retried by another request`);
      await enqueueImport(em, id, this.ctx.scope);
      return em.findOneOrFail(UserImport, { id }, { refresh: true });
    });
  }

  /** A page of the rows with their outcome, in file order. */
  rows(importId: string, page: PageArgs): Promise<Page<UserImportRow>> {
    return findLeanPage(this.ctx, UserImportRow, { importId }, page, { line: 'asc' });
  }
}
