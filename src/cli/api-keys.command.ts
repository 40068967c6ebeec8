import { Command, Option } from 'commander';
import { ApiKey } from '../api-keys/api-key.entity.js';
import { ApiKeyService } from '../api-keys/api-key.service.js';
import { PermissionLevel } from '../core/permissions.js';
import type { Scope } from '../core/scope.js';
import {
  CliError,
  contextFor,
  environmentOf,
  findOrganization,
  info,
  withDatabase,
  type EnvironmentChoice,
} from './cli-database.js';
import { envOption, orgOption } from './options.js';
import { formatTable } from './table.js';
import { output } from './cli-io.js';

const LEVELS: Record<string, PermissionLevel> = {
  read: PermissionLevel.READ,
  write: PermissionLevel.WRITE,
  admin: PermissionLevel.ADMIN,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const keyEnvOption = () => envOption('environment: live (svc_sk_live_) or test (sandbox, svc_sk_test_)');

const when = (date: Date | null) => (date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-');

/** `api-keys create | list | revoke`: the key logic is ApiKeyService's, shared with GraphQL and REST. */
export function apiKeysCommand(): Command {
  const command = new Command('api-keys').description('create, list and revoke API keys');

  command
    .command('create')
    .description('create a key; the key alone is printed on the last line of stdout, and only this once')
    .addOption(orgOption())
    .addOption(
      new Option('--level <level>', 'permission level').choices(Object.keys(LEVELS)).makeOptionMandatory(),
    )
    .addOption(keyEnvOption().default('test'))
    .option('--name <name>', 'what the key is for')
    .action(async (options: { org: string; level: string; env: EnvironmentChoice; name?: string }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const level = LEVELS[options.level];
        const name = options.name?.trim() || `CLI ${level} key`;
        if (name.length > 100) throw new CliError('--name must be at most 100 characters');
        const { apiKey, secret } = await new ApiKeyService(contextFor(db, scope, 'cli')).create({
          name,
          level,
        });
        info(
          `Created ${level} key "${apiKey.name}" (id ${apiKey.id}) for ${organization.slug}, ${scope.environment} environment.`,
        );
        info('Store it now: it is not shown again.');
        output(`${secret}\n`);
      });
    });

  command
    .command('list')
    .description('list the keys of an organization and environment, newest first')
    .addOption(orgOption())
    .addOption(keyEnvOption().default('test'))
    .action(async (options: { org: string; env: EnvironmentChoice }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const keys = await new ApiKeyService(contextFor(db, scope, 'cli')).list();
        const rows = keys.map((key) => [
          key.id,
          key.name,
          key.level,
          `${key.prefix}…${key.lastFour}`,
          when(key.createdAt),
          when(key.lastUsedAt),
          when(key.revokedAt),
        ]);
        output(formatTable(['ID', 'NAME', 'LEVEL', 'KEY', 'CREATED', 'LAST USED', 'REVOKED'], rows) + '\n');
      });
    });

  command
    .command('revoke')
    .description('revoke a key: requests with it get 401 from then on')
    .addOption(orgOption())
    .requiredOption('--id <uuid>', 'id of the key (see api-keys list)')
    .addOption(keyEnvOption())
    .action(async (options: { org: string; id: string; env?: EnvironmentChoice }) => {
      if (!UUID.test(options.id)) throw new CliError(`--id must be a UUID, got "${options.id}"`);
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        // Without --env, the key is looked up in both environments of the organization.
        const found = await db.orm.em
          .fork()
          .findOne(ApiKey, { id: options.id, organizationId: organization.id }, { filters: false });
        const environment = options.env ? environmentOf(options.env) : found?.environment;
        if (!found || !environment || found.environment !== environment) {
          throw new CliError(`API key ${options.id} was not found in organization "${organization.slug}".`);
        }
        const scope: Scope = { organizationId: organization.id, environment };
        const key = await new ApiKeyService(contextFor(db, scope, 'cli')).revoke(options.id);
        output(`Revoked ${key.level} key "${key.name}" (${key.prefix}…${key.lastFour}).\n`);
      });
    });

  return command;
}
