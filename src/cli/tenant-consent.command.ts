import type { Command } from 'commander';
import { SimulatedCloud } from '../cloud/simulated/index.js';
import { CliError, findOrganization, info, withDatabase, type CliDatabase } from './cli-database.js';
import { orgOption } from './options.js';
import { output } from './cli-io.js';

/** The simulated cloud, whatever provider the server is configured with (grants exist only there). */
export function simulatedCloudOf(db: CliDatabase): SimulatedCloud {
  return db.deps.clouds instanceof SimulatedCloud
    ? db.deps.clouds
    : new SimulatedCloud(db.orm, db.deps.clock);
}

/**
 * `tenants grant` / `tenants revoke-grant`: the operator plays the customer's administrator in the simulated
 * cloud and grants (or revokes) one organization delegated access to a cloud tenant. Both environments of
 * the organization may then onboard it. No API credential can do this (docs/security-model.md).
 */
export function addConsentCommands(tenants: Command): void {
  tenants
    .command('grant')
    .description("simulated cloud: the customer's admin grants an organization delegated access to a tenant")
    .argument('<externalId>', 'tenant id in the simulated cloud')
    .addOption(orgOption())
    .action(async (externalId: string, options: { org: string }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const change = await simulatedCloudOf(db).consent.grantDelegatedAccess(externalId, organization.id);
        if (change.outcome === 'unknownTenant') {
          throw new CliError(`The simulated cloud has no tenant ${externalId}`);
        }
        info(
          change.outcome === 'granted'
            ? `Tenant ${externalId} now grants ${organization.slug} delegated access; it can be onboarded.`
            : `Tenant ${externalId} already grants ${organization.slug} delegated access.`,
        );
        output(`${change.outcome === 'granted' ? 'granted' : 'already granted'}\n`);
      });
    });
  tenants
    .command('revoke-grant')
    .description("simulated cloud: the customer's admin revokes an organization's delegated access")
    .argument('<externalId>', 'tenant id in the simulated cloud')
    .addOption(orgOption())
    .action(async (externalId: string, options: { org: string }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const change = await simulatedCloudOf(db).consent.revokeDelegatedAccess(externalId, organization.id);
        if (change.outcome === 'unknownTenant') {
          throw new CliError(`The simulated cloud has no tenant ${externalId}`);
        }
        info(
          change.outcome === 'revoked'
            ? `Tenant ${externalId} no longer grants ${organization.slug} access; its next sync fails and suspends it.`
            : `Tenant ${externalId} had not granted ${organization.slug} access.`,
        );
        output(`${change.outcome === 'revoked' ? 'revoked' : 'not granted'}\n`);
      });
    });
}
