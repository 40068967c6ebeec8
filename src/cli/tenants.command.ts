import { randomInt, randomUUID } from 'node:crypto';
import { Command, Option } from 'commander';
import type { Scope } from '../core/scope.js';
import { onboardTenant } from '../tenants/tenant-onboarding.js';
import { SYNC_STEPS } from '../features.js';
import { reconcileTenant } from '../tenants/tenant-reconcile.js';
import {
  CliError,
  contextFor,
  ENVIRONMENT_CHOICES,
  environmentOf,
  findOrganization,
  info,
  withDatabase,
  type EnvironmentChoice,
  type CliDatabase,
} from './cli-database.js';
import { orgOption } from './options.js';
import { addConsentCommands, simulatedCloudOf } from './tenant-consent.command.js';

interface OnboardOptions {
  org: string;
  env: EnvironmentChoice;
  externalId?: string;
  name?: string;
  domain?: string;
  seed?: string;
  employees?: string;
  sync: boolean;
}

const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function positiveInt(raw: string | undefined, option: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new CliError(`${option} must be a whole number from 1 to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * Creates a new customer in the simulated cloud from --name and --domain, granting the organization
 * delegated access (the operator creates the customer for it); returns its external id.
 */
async function createCloudTenant(
  db: CliDatabase,
  options: OnboardOptions,
  organizationId: string,
): Promise<string> {
  const domain = options.domain!.trim().toLowerCase();
  if (!DOMAIN.test(domain)) throw new CliError(`--domain must be a domain name, got "${options.domain}"`);
  const label = domain.split('.')[0].replace(/-/g, '');
  const cloud = simulatedCloudOf(db);
  const seed = positiveInt(options.seed, '--seed', randomInt(1, 2 ** 31 - 1), 2 ** 31 - 1);
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: options.name!.trim(),
    domains: [domain, `${label}.onmicrosoft.com`],
    seed,
    employees: positiveInt(options.employees, '--employees', 40, 5000),
  });
  await cloud.consent.grantDelegatedAccess(tenant.externalId, organizationId);
  info(
    `Created "${tenant.displayName}" in the simulated cloud (external id ${tenant.externalId}, seed ${seed}), ` +
      'granting the organization delegated access.',
  );
  return tenant.externalId;
}

/** `tenants onboard`: an existing cloud tenant (--external-id) or a new simulated one (--name, --domain). */
export function tenantsCommand(): Command {
  const command = new Command('tenants').description('customer tenants');
  command
    .command('onboard')
    .description('onboard a tenant of the (simulated) upstream cloud and sync it; prints the tenant id last')
    .addOption(orgOption())
    .addOption(
      new Option('--env <env>', 'live or test (sandbox)').choices(ENVIRONMENT_CHOICES).default('test'),
    )
    .option('--external-id <id>', 'tenant id in the upstream cloud')
    .option('--name <name>', 'new simulated tenant: company name')
    .option('--domain <domain>', 'new simulated tenant: default domain, e.g. acme.com')
    .option('--seed <n>', 'new simulated tenant: generator seed (same seed, same directory)')
    .option('--employees <n>', 'new simulated tenant: number of employees (default 40)')
    .option('--no-sync', 'do not run the first sync')
    .action(async (options: OnboardOptions) => {
      const fromCloud = Boolean(options.externalId);
      if (fromCloud === Boolean(options.name || options.domain)) {
        throw new CliError('Give either --external-id, or --name and --domain for a new simulated tenant');
      }
      if (!fromCloud && !(options.name?.trim() && options.domain)) {
        throw new CliError('A new simulated tenant needs both --name and --domain');
      }
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const externalId = options.externalId ?? (await createCloudTenant(db, options, organization.id));
        const ctx = contextFor(db, scope, 'cli');
        const tenant = await onboardTenant(ctx, { externalId });
        info(
          `Onboarded "${tenant.name}" (${tenant.domain}) into ${organization.slug}, ${scope.environment}.`,
        );
        if (options.sync) {
          const summary = await reconcileTenant(ctx, tenant.id, SYNC_STEPS, async () => undefined);
          info(
            `Synced: ${Object.entries(summary)
              .map(([kind, n]) => `${kind} ${n}`)
              .join(', ')}`,
          );
        }
        process.stdout.write(`${tenant.id}\n`);
      });
    });
  addConsentCommands(command);
  return command;
}
