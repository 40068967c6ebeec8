import { Option, type Command } from 'commander';
import type { Scope } from '../core/scope.js';
import { MAX_PAGE_SIZE } from '../core/page-size.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import type { TenantCloudPermissions } from '../tenants/tenant.types.js';
import { TenantService } from '../tenants/tenant.service.js';
import {
  CliError,
  contextFor,
  ENVIRONMENT_CHOICES,
  environmentOf,
  findOrganization,
  info,
  withDatabase,
  type EnvironmentChoice,
} from './cli-database.js';
import { output } from './cli-io.js';
import { orgOption } from './options.js';
import { formatTable } from './table.js';

type ViewOptions = { org: string; env: EnvironmentChoice };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const envOption = () =>
  new Option('--env <env>', 'live or test (sandbox)').choices(ENVIRONMENT_CHOICES).default('test');

/**
 * The tenant's `cloudPermissions` in one cell, as GraphQL and REST give them: "-" where the cloud has no
 * per-permission consent (the sandbox, the simulated cloud) or before the first answer, "none missing", or
 * the permissions the customer's consent lacks.
 */
export function missingPermissionsCell(permissions: TenantCloudPermissions | null): string {
  if (!permissions) return '-';
  return permissions.missingPermissions.join(', ') || 'none missing';
}

/** `cloudPermissions` as lines, for `tenants show` and after `tenants onboard`. */
export function describeCloudPermissions(permissions: TenantCloudPermissions | null): string[] {
  if (!permissions)
    return ['cloud permissions: - (no per-permission consent in this cloud, or not read yet)'];
  const lines = [
    `cloud permissions checked: ${permissions.checkedAt.toISOString()}`,
    `granted permissions: ${permissions.grantedPermissions.join(', ') || '-'}`,
    `missing permissions: ${permissions.missingPermissions.join(', ') || '-'}`,
  ];
  if (permissions.disabledCapabilities.length > 0)
    lines.push(
      '',
      formatTable(
        ['disabled capability', 'missing permissions'],
        permissions.disabledCapabilities.map((row) => [row.capability, row.missingPermissions.join(', ')]),
      ),
    );
  return lines;
}

function describeTenant(tenant: Tenant): string {
  return [
    `id: ${tenant.id}`,
    `name: ${tenant.name}`,
    `domain: ${tenant.domain}`,
    `external id: ${tenant.externalId}`,
    `status: ${tenant.status}`,
    `last synced: ${tenant.lastSyncedAt?.toISOString() ?? '-'}`,
    ...describeCloudPermissions(tenant.cloudPermissions),
  ].join('\n');
}

/** `tenants list | show`: the organization's onboarded tenants, with what their consent lacks. */
export function addTenantViews(tenants: Command): void {
  tenants
    .command('list')
    .description("the organization's tenants, newest first, with the permissions their consent lacks")
    .addOption(orgOption())
    .addOption(envOption())
    .action(async (options: ViewOptions) => {
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const service = new TenantService(contextFor(db, scope, 'cli'));
        const rows: string[][] = [];
        for (let page = 1; ; page++) {
          const { items, pageInfo } = await service.list({ page, limit: MAX_PAGE_SIZE });
          for (const tenant of items)
            rows.push([
              tenant.id,
              tenant.name,
              tenant.domain,
              tenant.status,
              missingPermissionsCell(tenant.cloudPermissions),
            ]);
          if (page * MAX_PAGE_SIZE >= pageInfo.total || items.length === 0) break;
        }
        if (rows.length === 0) {
          info(`${organization.slug} has no tenant in ${scope.environment} yet (tenants onboard).`);
          return;
        }
        output(`${formatTable(['ID', 'NAME', 'DOMAIN', 'STATUS', 'MISSING PERMISSIONS'], rows)}\n`);
      });
    });
  tenants
    .command('show')
    .description(
      'one tenant: its status, last sync and cloud permissions (granted, missing, what they disable)',
    )
    .argument('<id>', 'the tenant id (tenants list)')
    .addOption(orgOption())
    .addOption(envOption())
    .action(async (id: string, options: ViewOptions) => {
      if (!UUID.test(id)) throw new CliError(`<id> must be a tenant id (a UUID), got "${id}"`);
      await withDatabase(async (db) => {
        const organization = await findOrganization(db.orm, options.org);
        const scope: Scope = { organizationId: organization.id, environment: environmentOf(options.env) };
        const tenant = await new TenantService(contextFor(db, scope, 'cli')).get(id);
        output(`${describeTenant(tenant)}\n`);
      });
    });
}
