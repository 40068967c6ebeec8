import { Command } from 'commander';
import type { Scope } from '../core/scope.js';
import { OAuthClientService } from '../oauth/oauth-client.service.js';
import {
  contextFor,
  environmentOf,
  findOrganization,
  info,
  withDatabase,
  type EnvironmentChoice,
} from './cli-database.js';
import { collect, envOption, orgOption } from './options.js';
import { formatTable } from './table.js';
import { output } from './cli-io.js';

const tokenEnvOption = () =>
  envOption('environment the tokens act in: live or test (sandbox)').default('test');

/** The authorization URL of a new client with its first redirect URI, as the README shows it. */
export function authorizeUrl(publicUrl: string, clientId: string, redirectUri: string): string {
  const query = [
    'response_type=code',
    `client_id=${encodeURIComponent(clientId)}`,
    `redirect_uri=${encodeURIComponent(redirectUri)}`,
    'scope=read:tenants',
  ].join('&');
  return `${publicUrl}/oauth/authorize?${query}`;
}

/** `oauth-clients create | list`: applications using the authorization code flow (docs/oauth.md). */
export function oauthClientsCommand(): Command {
  const command = new Command('oauth-clients').description('register and list OAuth clients');

  command
    .command('create')
    .description(
      'register a client; prints its authorization URL on stderr and {"clientId","clientSecret"} as JSON ' +
        'alone on the last line of stdout',
    )
    .addOption(orgOption())
    .requiredOption('--name <name>', 'shown to members on the consent page')
    .requiredOption('--redirect-uri <uri>', 'allowed redirect_uri (repeat for several)', collect, [])
    .addOption(tokenEnvOption())
    .action(async (options: { org: string; name: string; redirectUri: string[]; env: EnvironmentChoice }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const { client, clientSecret } = await new OAuthClientService(contextFor(db, scope, 'cli')).create({
          name: options.name,
          redirectUris: options.redirectUri,
        });
        info(`Registered "${client.name}" for ${organization.slug}, ${scope.environment} environment.`);
        info('Store the client secret now: it is not shown again.');
        info('Open this in a browser, sign in as a member and Allow (docs/oauth.md):');
        info(authorizeUrl(db.deps.publicUrl, client.clientId, options.redirectUri[0]));
        output(`${JSON.stringify({ clientId: client.clientId, clientSecret })}\n`);
      });
    });

  command
    .command('list')
    .description('list the clients of an organization and environment, newest first')
    .addOption(orgOption())
    .addOption(tokenEnvOption())
    .action(async (options: { org: string; env: EnvironmentChoice }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const page = await new OAuthClientService(contextFor(db, scope, 'cli')).list({ page: 1, limit: 100 });
        const rows = page.items.map((client) => [
          client.clientId,
          client.name,
          client.redirectUris.join(' '),
          client.revokedAt ? 'revoked' : 'active',
        ]);
        output(formatTable(['CLIENT ID', 'NAME', 'REDIRECT URIS', 'STATUS'], rows) + '\n');
      });
    });

  return command;
}
