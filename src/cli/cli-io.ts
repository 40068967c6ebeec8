import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a CLI run reads its configuration and writes its output. A real run (src/cli/main.ts) uses the
 * process's own; the tests run the same program in their process (`runCli` of src/cli/program.ts) with an
 * environment of their own and captured output, so a command costs no Node start (about 1 s each).
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown };
  /** A stream (not just a writer): the users import draws its progress bar on it when it is a terminal. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Set by a command that ends without an error but must still exit non-zero (`cloud test` that failed). */
  exitCode?: number;
}

export const processIo = (): CliIo => ({ env: process.env, stdout: process.stdout, stderr: process.stderr });

const current = new AsyncLocalStorage<CliIo>();

/** The I/O of the CLI run this code is part of (the process's outside of one). */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo();
}

export function withCliIo<T>(io: CliIo, run: () => Promise<T>): Promise<T> {
  return current.run(io, run);
}

/** The command's result on stdout (informational lines go to stderr through `info`). */
export function output(text: string): void {
  cliIo().stdout.write(text);
}
