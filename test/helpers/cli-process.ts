/**
 * The CLI run as a user runs it, as a process (the compiled CLI, or `npm run -s cli`), and what its output means:
 * nothing of the app is loaded here, so a test file that only starts CLI processes (and runs its other commands
 * on a worker's server, cli-on-server.ts) stays light. test/helpers/cli.ts re-exports all of it beside the
 * in-process runner.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

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

/** A hook that calls createDemoDatabase may seed, or wait for a seed: up to a minute on the loaded machine. */
export const DEMO_DATABASE_TIMEOUT_MS = 120_000;
