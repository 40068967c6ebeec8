import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { TEST_SECRETS_KEY } from './test-secrets.js';
import type { CliResult } from './cli-process.js';

export {
  DEMO_DATABASE_TIMEOUT_MS,
  lastLine,
  runCli,
  runCliWithEnv,
  runNpmCli,
  type CliResult,
} from './cli-process.js';

/** A stream that keeps what is written to it. */
function capture(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * The CLI's program (src/cli/program.ts: the same argument parsing, commands and error handling as
 * `runCli`'s compiled process) run in this process, with the environment `runCli` gives the process and its
 * stdout and stderr captured. No Node start (about 1 s a command): for the tests that check what a command
 * does; each command family keeps a test through `runCli` (the real process, its exit code and streams).
 */
export async function runCliInProcess(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return runCliInProcessWithEnv(databaseUrl, {}, ...args);
}

/** `runCliInProcess` with more environment variables, as `runCliWithEnv`. */
export async function runCliInProcessWithEnv(
  databaseUrl: string,
  extra: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<CliResult> {
  const stdout = capture();
  const stderr = capture();
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...extra };
  // Loaded on the first call: a file that only starts processes does not evaluate the whole app.
  const { runCli: runCliProgram } = await import('../../src/cli/program.js');
  const code = await runCliProgram(args, { env, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** The run's database seeded as the CLI's first command seeds a fresh one (createDemoDatabase clones it). */
const DEMO_TEMPLATE = 'msp_test_demo_template';
/** The advisory lock (in the admin database) held while a file seeds DEMO_TEMPLATE or clones it. */
const DEMO_TEMPLATE_LOCK = 2_028_007;

/**
 * A fresh database holding the demo organization as the CLI's first command leaves a fresh database (migrated,
 * demo seeded): a clone of one seeded once per run. The first file to ask seeds it through the CLI's program in
 * its own process (`runCliInProcess`, so the same seed, environment and output as any CLI command's), the others
 * wait for that under an advisory lock and clone it (a few milliseconds, where a seed costs some 3-5 s of CPU
 * and 1 s of PostgreSQL's). For the CLI files that need the demo world but do not test the seeding itself;
 * api-keys-cli and oauth/cli still seed a fresh database with their first command and check that it says so.
 */
export async function createDemoDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  try {
    // Session-level: released when this client ends, also if the seed below fails.
    await admin.query('select pg_advisory_lock($1)', [DEMO_TEMPLATE_LOCK]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [DEMO_TEMPLATE]);
    if (exists.rowCount === 0) await seedDemoTemplate(admin);
    const name = `t_${randomUUID().replace(/-/g, '')}`;
    await admin.query(`create database "${name}" template "${DEMO_TEMPLATE}"`);
    const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    url.pathname = `/${name}`;
    return url.toString();
  } finally {
    await admin.end();
  }
}

/** Seeds a fresh database with a CLI command, then makes it the template (renamed once complete). */
async function seedDemoTemplate(admin: pg.Client): Promise<void> {
  const { createTestDatabase } = await import('./test-app.js');
  const databaseUrl = await createTestDatabase();
  const name = new URL(databaseUrl).pathname.slice(1);
  // With the test key, as the files that seeded with a Graph fake's environment did (their demo connectors'
  // credentials sealed); the keyless files read no sealed secret of the demo (none opens a connector's).
  const seeded = await runCliInProcessWithEnv(
    databaseUrl,
    { SECRETS_KEY: TEST_SECRETS_KEY },
    'tenants',
    'list',
    '--org',
    'demo',
  );
  if (seeded.code !== 0 || !seeded.stderr.includes('Seeded the demo organization'))
    throw new Error(`The demo template was not seeded (exit ${seeded.code}): ${seeded.stderr}`);
  // A renamed (and cloned) database has no sessions: the command closed its pools; one still closing is ended.
  for (let attempt = 1; ; attempt++) {
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    try {
      await admin.query(`alter database "${name}" rename to "${DEMO_TEMPLATE}"`);
      return;
    } catch (error) {
      if (attempt === 20) throw error; // "being accessed by other users" that long is not a closing session
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
