/**
 * The CLI files' in-process commands, run by the jest worker's shared server (onServer `runCli`: the CLI's
 * program with its own ORM on the given database, its output captured, test/helpers/cli.ts) rather than in the
 * file, so a CLI file evaluates none of the app's modules: about 1-2 s of CPU a file (the app's module graph in
 * the file's own registry). Each command family still runs once as the compiled CLI's process (`runCli`).
 */
import type { CliResult } from './cli-process.js';
import { onServer } from './on-server.js';
import { sharedApp, type SharedApp } from './shared-suite.js';

export type Cli = (...args: string[]) => Promise<CliResult>;

/** `args` run by `app`'s process on `databaseUrl`, with `extra` added to the environment `runCli` gives. */
export function cliOn(app: SharedApp, databaseUrl: string, extra: Record<string, string> = {}): Cli {
  return (...args) => onServer(app, 'runCli', databaseUrl, extra, args);
}

/**
 * The shared server and a database of the file's own holding the demo organization (createDemoDatabase, run by
 * the server: a clone of the run's seeded demo, seeded there if this file is the run's first to ask).
 */
export async function demoCliOnServer(): Promise<{ app: SharedApp; databaseUrl: string }> {
  const app = await sharedApp();
  return { app, databaseUrl: await onServer(app, 'createDemoDatabase') };
}
