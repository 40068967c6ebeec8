import 'reflect-metadata';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const CLI = path.resolve('dist/src/cli/main.js');

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the compiled CLI as a user would, against the given database, with its logs silenced. */
export function runCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return runCliWithEnv(databaseUrl, {}, ...args);
}

/** `runCli` with more environment variables (MICROSOFT_GRAPH_URL of the Graph fake, SECRETS_KEY, ...). */
export function runCliWithEnv(
  databaseUrl: string,
  extra: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<CliResult> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...extra };
  return run(process.execPath, [path.resolve(CLI), ...args], env, 60_000);
}

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

/**
 * The contract command exactly as scripts run it, `npm run -s cli -- …` (which builds first when the sources changed), with the
 * default logging: neither LOG_LEVEL nor NODE_ENV=test (which would silence the logs) is passed on.
 */
export function runNpmCli(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
  delete env.LOG_LEVEL;
  delete env.NODE_ENV;
  delete env.NODE_OPTIONS; // jest's --experimental-vm-modules is not for the CLI
  return run('npm', ['run', '-s', 'cli', '--', ...args], env, 120_000);
}

/** The CLI's contract: the value a script wants is alone on the last line of stdout. */
export const lastLine = (text: string): string => text.trimEnd().split('\n').pop() ?? '';
