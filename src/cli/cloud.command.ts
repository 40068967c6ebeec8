import { Command, Option } from 'commander';
import { CloudProviderKind } from '../cloud-connection/cloud-connection.enums.js';
import { CloudConnectionService } from '../cloud-connection/cloud-connection.service.js';
import type { CloudConnectionView } from '../cloud-connection/cloud-connection.types.js';
import { Environment, type Scope } from '../core/scope.js';
import { contextFor, findOrganization, info, withDatabase, type CliDatabase } from './cli-database.js';
import { orgOption } from './options.js';
import { formatTable } from './table.js';
import { cliIo, output } from './cli-io.js';

interface ConnectOptions {
  org: string;
  provider: CloudProviderKind;
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
}

/** The live environment of the organization: the only one with a cloud connection. */
async function liveService(db: CliDatabase, slug: string): Promise<CloudConnectionService> {
  const organization = await findOrganization(db.orm, slug);
  const scope: Scope = { organizationId: organization.id, environment: Environment.LIVE };
  return new CloudConnectionService(contextFor(db, scope, 'cli'));
}

/** The status as lines of text (the secret is never among them: the view does not have it). */
export function describeConnection(view: CloudConnectionView): string {
  if (!view.connected) return 'not connected: the live environment has no cloud connection';
  const lines = [
    `provider: ${view.provider}`,
    ...(view.partnerTenantId ? [`partner tenant: ${view.partnerTenantId}`] : []),
    ...(view.clientId
      ? [`client id: ${view.clientId}`, `client secret: ${view.clientSecretSet ? 'set' : '-'}`]
      : []),
    `live provider active: ${view.providerActive ? 'yes' : 'no'}`,
    `last test: ${view.lastTest?.succeeded ? 'succeeded' : 'failed'} at ${view.lastTest?.at.toISOString() ?? '-'}`,
    ...(view.lastTest?.message ? [`  ${view.lastTest.message}`] : []),
    `granted permissions: ${view.grantedPermissions.join(', ') || '-'}`,
    ...(view.adminConsentUrl ? [`customer admin consent: ${view.adminConsentUrl}`] : []),
  ];
  if (view.capabilities.length > 0)
    lines.push(
      '',
      formatTable(
        ['capability', 'available', 'missing permissions'],
        view.capabilities.map((capability) => [
          capability.capability,
          capability.available ? 'yes' : 'no (no API)',
          capability.missingPermissions.join(', ') || '-',
        ]),
      ),
    );
  return lines.join('\n');
}

/** `cloud connect | status | disconnect`: the live environment's cloud connection (CloudConnectionService). */
export function cloudCommand(): Command {
  const command = new Command('cloud').description("the live environment's cloud connection (Microsoft 365)");
  command
    .command('connect')
    .description('connect the live environment to Microsoft 365 (tested first: nothing is saved if it fails)')
    .addOption(orgOption())
    .addOption(
      new Option('--provider <provider>', 'microsoft365, or simulated for development and tests')
        .choices(Object.values(CloudProviderKind))
        .default(CloudProviderKind.MICROSOFT365),
    )
    .option('--tenant-id <id>', 'the partner tenant id (GUID) or its initial domain')
    .option('--client-id <id>', 'the application (client) id of the multi-tenant app')
    .option('--client-secret <secret>', 'a client secret value of the app (stored sealed, never shown)')
    .action(async (options: ConnectOptions) => {
      await withDatabase(async (db) => {
        const service = await liveService(db, options.org);
        const view = await service.connect({
          provider: options.provider,
          partnerTenantId: options.tenantId,
          clientId: options.clientId,
          clientSecret: options.clientSecret,
        });
        info(`Connected the live environment of ${options.org} to ${view.provider}.`);
        output(`${describeConnection(view)}\n`);
      });
    });
  command
    .command('status')
    .description("the live environment's cloud connection, its last test and what is available")
    .addOption(orgOption())
    .action(async (options: { org: string }) => {
      await withDatabase(async (db) => {
        const view = await (await liveService(db, options.org)).get();
        output(`${describeConnection(view)}\n`);
      });
    });
  command
    .command('test')
    .description('test the saved connection again (a fresh token, GET /organization) and record the outcome')
    .addOption(orgOption())
    .action(async (options: { org: string }) => {
      await withDatabase(async (db) => {
        const view = await (await liveService(db, options.org)).test();
        output(`${describeConnection(view)}\n`);
        if (!view.lastTest?.succeeded) cliIo().exitCode = 1;
      });
    });
  command
    .command('disconnect')
    .description('remove the cloud connection of the live environment')
    .addOption(orgOption())
    .action(async (options: { org: string }) => {
      await withDatabase(async (db) => {
        await (await liveService(db, options.org)).disconnect();
        info(`Removed the cloud connection of ${options.org}'s live environment.`);
        output('disconnected\n');
      });
    });
  return command;
}
