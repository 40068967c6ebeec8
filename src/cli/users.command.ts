import { stringify } from 'csv-stringify/sync';
import { readFile, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { AppError } from '../core/errors.js';
import { startJobRunner } from '../core/jobs.js';
import { USER_IMPORT_TASK, UserImportService } from '../user-management/user-import.service.js';
import {
  UserImport,
  UserImportRow,
  UserImportRowStatus,
  UserImportStatus,
} from '../user-management/user-import.entity.js';
import { userImportTask } from '../user-management/user-import.task.js';
import {
  CliError,
  contextFor,
  ENVIRONMENT_CHOICES,
  environmentOf,
  findOrganization,
  info,
  withDatabase,
  type CliDatabase,
  type EnvironmentChoice,
} from './cli-database.js';
import { importProgress } from './import-progress.js';
import { orgOption } from './options.js';
import { output } from './cli-io.js';

interface ImportOptions {
  org: string;
  env: EnvironmentChoice;
  tenant: string;
  file: string;
}

/** DECISIONS: CSV uploads up to 10 MiB, as through REST. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const POLL_MS = 250;
const FINISHED = new Set<string>([
  UserImportStatus.COMPLETED,
  UserImportStatus.COMPLETED_WITH_ERRORS,
  UserImportStatus.FAILED,
]);

async function readCsv(file: string): Promise<string> {
  const size = await stat(file).then(
    (found) => found.size,
    () => {
      throw new CliError(`--file: cannot read "${file}"`);
    },
  );
  if (size > MAX_FILE_BYTES) throw new CliError(`--file is ${size} bytes; the limit is 10 MiB`);
  return readFile(file, 'utf8');
}

/** The file's problems, one line each (the same list a REST caller gets in `details.fields`). */
function reportRejection(error: unknown): never {
  if (error instanceof AppError) {
    const fields = (error.details as { fields?: Array<{ field: string; problem: string; line?: number }> })
      ?.fields;
    for (const field of fields ?? []) {
      info(`  ${field.line === undefined ? '' : `line ${field.line}, `}${field.field}: ${field.problem}`);
    }
  }
  throw error;
}

/**
 * Submits the file exactly as `POST /api/user-management-identity/users/bulk` does (the same checks, the
 * same operation and queued user-import job), then runs a worker for that task in this process until the
 * operation ends, so the import finishes whether or not a server is running (a running server's worker
 * may take the job instead: the queue gives it to one of them). Exits non-zero when rows failed.
 */
async function importUsers(db: CliDatabase, options: ImportOptions): Promise<void> {
  const organization = await findOrganization(db.orm, options.org);
  const scope = { organizationId: organization.id, environment: environmentOf(options.env) };
  const csv = await readCsv(options.file);
  const submission = await new UserImportService(contextFor(db, scope, 'cli'))
    .submit(options.tenant, csv)
    .catch(reportRejection);
  const operationId = submission.operation.id;
  info(`Queued import ${operationId}: ${submission.operation.totalRows} rows.`);
  // Shown this once, as in the REST answer: the caller hands them to the users. Real CSV (csv-stringify): a
  // password holding a comma or a quote is quoted, so `> passwords.csv` gives a file spreadsheets read right.
  if (submission.generatedPasswords.length > 0)
    output(
      stringify(
        submission.generatedPasswords.map(({ userPrincipalName, password }) => [userPrincipalName, password]),
      ),
    );

  const runner = await startJobRunner({
    pgPool: db.pool,
    taskList: { [USER_IMPORT_TASK]: userImportTask(db.orm, db.deps) },
    concurrency: 1,
    localQueueSize: 1, // this process runs one import
    pollIntervalMs: POLL_MS,
    log: () => undefined,
  });
  const progress = importProgress();
  let operation: UserImport;
  try {
    for (;;) {
      operation = await db.orm.em.fork().findOneOrFail(UserImport, { id: operationId }, { filters: false });
      progress.update(operation);
      if (FINISHED.has(operation.status)) break;
      await sleep(POLL_MS);
    }
  } finally {
    progress.stop();
    await runner.stop();
  }
  const failedRows = await db.orm.em
    .fork()
    .find(
      UserImportRow,
      { importId: operationId, status: UserImportRowStatus.FAILED },
      { filters: false, orderBy: { line: 'asc' }, limit: 50 },
    );
  for (const row of failedRows) info(`  line ${row.line} (${row.userPrincipalName}): ${row.error}`);
  info(
    `Import ${operation.status}: ${operation.createdRows} created, ${operation.failedRows} failed` +
      (operation.failureReason ? ` (${operation.failureReason})` : ''),
  );
  output(`${operationId}\n`); // the CLI's contract: the result alone on the last line
  if (operation.status !== UserImportStatus.COMPLETED) {
    throw new CliError(`${operation.failedRows} of ${operation.totalRows} rows failed`);
  }
}

/** `users import`: bulk creation from a CSV file, the same job as the REST route, with its progress. */
export function usersCommand(): Command {
  const command = new Command('users').description('users of a customer tenant');
  command
    .command('import')
    .description('create users from a CSV file (docs/user-management.md); prints the operation id last')
    .addOption(orgOption())
    .addOption(
      new Option('--env <env>', 'live or test (sandbox)').choices(ENVIRONMENT_CHOICES).default('test'),
    )
    .requiredOption('--tenant <id>', 'tenant id (ours, as in the API)')
    .requiredOption('--file <path>', 'CSV file with the documented header row, up to 10 MiB')
    .action(async (options: ImportOptions) => {
      await withDatabase((db) => importUsers(db, options));
    });
  return command;
}
