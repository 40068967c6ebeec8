import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Shell examples of the README and docs/, read and run as written (bash and curl): test/operations'
 * README smoke test and the docs' curl examples share this.
 */

/** Every ```sh block of a Markdown file, in order. */
export function shellBlocks(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

/**
 * The ```sh blocks of a doc's curl examples section (issue #33 item 9): from the block defining `first_id` to
 * the next heading, joined into one script.
 */
export function examplesScript(file: string): string {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('first_id() {');
  if (start === -1) throw new Error(`${file} has no curl examples section`);
  const next = text.indexOf('\n## ', start);
  const section = text.slice(text.lastIndexOf('```sh', start), next === -1 ? undefined : next);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]).join('\n');
}

/** The first ```sh block of `file` that contains `marker`. */
export function shellBlock(file: string, marker: string): string {
  const block = shellBlocks(file).find((text) => text.includes(marker));
  if (!block) throw new Error(`${file} has no sh block with ${marker}`);
  return block;
}

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script under `bash -euo pipefail` with `env` added (KEY, BASE, TENANT...), the origin of the README's
 * examples (http://localhost:4000) replaced by `baseUrl`; in `cwd` when given (files an example writes).
 */
export function runShell(
  script: string,
  baseUrl: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<ShellResult> {
  const local = script.replaceAll('http://localhost:4000', baseUrl);
  return new Promise((resolve) => {
    // --norc: Node's stdio pipes are sockets, and Debian's bash sources /etc/bash.bashrc for a shell whose stdin
    // is a socket at SHLVL 1 (taken for rsh), which fails under -u.
    execFile(
      'bash',
      ['--norc', '-euo', 'pipefail', '-c', local],
      { env: { ...process.env, BASE: baseUrl, ...env }, timeout: 60_000, cwd },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
