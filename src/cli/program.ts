import { Command, CommanderError } from 'commander';
import { AppError, toAppError, type FieldProblem } from '../core/errors.js';
import { apiKeysCommand } from './api-keys.command.js';
import { CliError } from './cli-database.js';
import { withCliIo, type CliIo } from './cli-io.js';
import { cloudCommand } from './cloud.command.js';
import { membersCommand } from './members.command.js';
import { oauthClientsCommand } from './oauth-clients.command.js';
import { organizationsCommand } from './organizations.command.js';
import { tenantsCommand } from './tenants.command.js';
import { usersCommand } from './users.command.js';

function createProgram(io: CliIo): Command {
  const program = new Command('cli')
    .description(
      'MSP administration platform: organizations, API keys, tenants, members, OAuth clients, user imports and the cloud connection',
    )
    .option(
      '--url <origin>',
      'the server this CLI administers, for the links it prints (default: PUBLIC_URL, else the server running on DATA_DIR, else http://localhost:$PORT)',
    )
    .hook('preAction', (command) => {
      const { url } = command.opts<{ url?: string }>();
      if (url) io.env.PUBLIC_URL = url.replace(/\/+$/, '');
    })
    .addCommand(apiKeysCommand())
    .addCommand(tenantsCommand())
    .addCommand(membersCommand())
    .addCommand(oauthClientsCommand())
    .addCommand(organizationsCommand())
    .addCommand(usersCommand())
    .addCommand(cloudCommand())
    .showHelpAfterError();
  // Commander would call process.exit on a usage error or --help: it throws instead (its message already
  // written to `io`), so the run ends the same way in a process and in a test that runs it in its own.
  const configure = (command: Command): void => {
    command.exitOverride().configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
    command.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/**
 * Runs the CLI on `argv` (the arguments after the script's name) and resolves to its exit code. Output,
 * errors and the environment are `io`'s: src/cli/main.ts passes the process's.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  return withCliIo(io, async () => {
    try {
      await createProgram(io).parseAsync(argv, { from: 'user' });
      return io.exitCode ?? 0;
    } catch (error) {
      if (error instanceof CommanderError) return error.exitCode;
      // One line (and the fields of a refused input), never a stack trace: a mistake on the command line is
      // not a crash to report. An unexpected failure says so; LOG_LEVEL=debug adds its stack for a bug report.
      const expected =
        error instanceof CliError || error instanceof AppError || toAppError(error).code !== 'INTERNAL_ERROR';
      io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      const fields = error instanceof AppError ? error.details.fields : undefined;
      if (Array.isArray(fields))
        for (const { field, problem } of fields as FieldProblem[])
          io.stderr.write(`  ${field}: ${problem}\n`);
      if (!expected) {
        const debug = ['debug', 'trace'].includes(io.env.LOG_LEVEL ?? '');
        if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
        else io.stderr.write('(unexpected: LOG_LEVEL=debug shows where it failed)\n');
      }
      return 1;
    }
  });
}
