import { randomInt, randomUUID } from 'node:crypto';
import { Command, Option } from 'commander';
import type { CloudProvider } from '../cloud/cloud-provider.js';
import type { Scope } from '../core/scope.js';
import { AppError } from '../core/errors.js';
import { MAX_PAGE_SIZE } from '../core/page-size.js';
import { listAvailableTenants } from '../tenants/available-tenants.js';
import { onboardTenant } from '../tenants/tenant-onboarding.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { SYNC_STEPS } from '../features.js';
import { syncTenant } from '../tenants/tenant-reconcile.js';
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
import { formatTable } from './table.js';
import { addConsentCommands, simulatedCloudOf } from './tenant-consent.command.js';
import { addTenantViews, missingPermissionsCell } from './tenants-view.command.js';
import { output } from './cli-io.js';

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
 * delegated access (the operator creates the customer for it); returns its external id. Everything is
 * checked before anything is written: a domain another cloud tenant has is refused, and the initial
 * `.onmicrosoft.com` domain is one no tenant has (a clash made the first sync fail on duplicate users).
 */
async function createCloudTenant(
  db: CliDatabase,
  options: OnboardOptions,
  organizationId: string,
): Promise<string> {
  const domain = options.domain!.trim().toLowerCase();
  if (!DOMAIN.test(domain)) throw new CliError(`--domain must be a domain name, got "${options.domain}"`);
  if (domain.endsWith('.onmicrosoft.com'))
    throw new CliError("--domain is the customer's own domain; its .onmicrosoft.com domain is chosen for it");
  const seed = positiveInt(options.seed, '--seed', randomInt(1, 2 ** 31 - 1), 2 ** 31 - 1);
  const employees = positiveInt(options.employees, '--employees', 40, 5000);
  const cloud = simulatedCloudOf(db);
  const [owner] = await cloud.tenantsWithDomains([domain]);
  if (owner)
    throw new CliError(
      `The domain ${domain} already belongs to "${owner.displayName}" (external id ${owner.externalId}) in the ` +
        `simulated cloud; choose another --domain, or onboard that tenant: tenants onboard --external-id ${owner.externalId}`,
    );
  const initialDomain = await cloud.freeInitialDomain(domain.split('.')[0]);
  const { tenant } = await cloud.createTenant({
    externalId: randomUUID(),
    displayName: options.name!.trim(),
    domains: [domain, initialDomain],
    seed,
    employees,
  });
  await cloud.consent.grantDelegatedAccess(tenant.externalId, organizationId);
  info(
    `Created "${tenant.displayName}" (${domain}, ${initialDomain}) in the simulated cloud (external id ` +
      `${tenant.externalId}, seed ${seed}), granting the organization delegated access.`,
  );
  return tenant.externalId;
}

/**
 * Onboards and (unless --no-sync) runs the first sync in one transaction: a sync that fails leaves no tenant
 * behind (it used to stay "active" with no users, every later sync failing), and the message says how to
 * try again. The cloud tenant itself stays: it exists upstream whether or not we administer it.
 */
async function onboardAndSync(
  db: CliDatabase,
  scope: Scope,
  externalId: string,
  sync: boolean,
): Promise<{ tenant: Tenant; summary: Record<string, number> | null; warnings: readonly string[] }> {
  const ctx = contextFor(db, scope, 'cli');
  try {
    return await ctx.em.transactional(async (em) => {
      const inTransaction = { ...ctx, em };
      const tenant = await onboardTenant(inTransaction, { externalId });
      if (!sync) return { tenant, summary: null, warnings: [] };
      const run = await syncTenant(inTransaction, tenant.id, SYNC_STEPS, async () => undefined);
      if (run.failed) throw run.failed.error;
      return { tenant, summary: run.summary, warnings: run.warnings };
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new CliError(
      `Nothing was onboarded: the first sync of ${externalId} failed (${error instanceof Error ? error.message : String(error)}). ` +
        `Try again with: tenants onboard --org <org> --external-id ${externalId}`,
    );
  }
}

/**
 * What the operator does when no customer is listed, by how the provider's customers consent: the simulated
 * cloud's operator grants in the customer's place (`tenants grant`); on Microsoft 365 (a provider with an
 * admin-consent URL) the customer's administrator consents to the app, after which the customer can be onboarded
 * by its tenant id even before it is listed (delegatedAdminCustomers lists GDAP relationships only).
 */
function noCustomerHint(provider: CloudProvider, slug: string, env: EnvironmentChoice): string {
  if (!provider.consentUrl)
    return `No customer grants ${slug} delegated access yet (tenants grant <externalId> --org ${slug}).`;
  return (
    `No customer lists your partner tenant yet (${provider.name}: delegatedAdminCustomers, a GDAP relationship ` +
    `in Partner Center). To onboard a customer, its administrator consents to your app at its admin-consent URL ` +
    `(npm run -s cli -- cloud status --org ${slug}: "customer admin consent", with the customer's tenant id), then: ` +
    `npm run -s cli -- tenants onboard --org ${slug} --env ${env} --external-id <customer tenant id> ` +
    `(docs/microsoft365.md, "GDAP and customer consent").`
  );
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
        const { tenant, summary, warnings } = await onboardAndSync(db, scope, externalId, options.sync);
        info(
          `Onboarded "${tenant.name}" (${tenant.domain}) into ${organization.slug}, ${scope.environment}.`,
        );
        if (summary)
          info(
            `Synced: ${Object.entries(summary)
              .map(([kind, n]) => `${kind} ${n}`)
              .join(', ')}`,
          );
        // What the sync could not do (an area the tenant's cloud has no API for, a user skipped): said, not hidden.
        for (const warning of warnings) info(`Note: ${warning}`);
        const permissions = tenant.cloudPermissions;
        if (permissions)
          info(
            `Cloud permissions missing: ${missingPermissionsCell(permissions)}` +
              (permissions.disabledCapabilities.length > 0
                ? ` (disabled: ${permissions.disabledCapabilities.map((row) => row.capability).join(', ')}; ` +
                  `tenants show ${tenant.id} --org ${organization.slug} --env ${options.env})`
                : ''),
          );
        output(`${tenant.id}\n`);
      });
    });
  command
    .command('available')
    .description('customer tenants that grant the organization delegated access: the external ids to onboard')
    .addOption(orgOption())
    .addOption(
      new Option('--env <env>', 'live or test (sandbox)').choices(ENVIRONMENT_CHOICES).default('test'),
    )
    .action(async (options: { org: string; env: EnvironmentChoice }) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const ctx = contextFor(db, scope, 'cli');
        const rows: string[][] = [];
        let after: string | null = null;
        do {
          const page = await listAvailableTenants(ctx, { limit: MAX_PAGE_SIZE, after });
          for (const item of page.items)
            rows.push([
              item.externalId,
              item.displayName,
              // Customers held by the other environment or another organization cannot be onboarded here.
              item.tenantId ? `onboarded (${item.tenantId})` : item.status.toLowerCase(),
            ]);
          after = page.pageInfo.nextCursor;
        } while (after);
        if (rows.length === 0) {
          info(noCustomerHint(await ctx.cloud.provider(), organization.slug, options.env));
          return;
        }
        output(`${formatTable(['EXTERNAL ID', 'NAME', 'STATUS'], rows)}\n`);
        // The hint names the listed environment: without --env a live list's hint would onboard into the sandbox.
        const env = options.env === 'live' ? ' --env live' : '';
        info(
          `Onboard one: npm run -s cli -- tenants onboard --org ${organization.slug}${env} --external-id <EXTERNAL ID>`,
        );
      });
    });
  addConsentCommands(command);
  addTenantViews(command);
  return command;
}
