import type { FieldProblem } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { upnDomainProblems } from '../users/user.rules.js';
import type { ConnectorUserMapping } from './connector.entity.js';

/**
 * Where a connector's imported items go (issue #32 item 5): every `mappings[].userPrincipalName` and the
 * `fallbackMailbox` must be an address on one of the tenant's domains and an active (not deleted) user of
 * the tenant, the rule restore targets follow (src/backup/restore-target.ts). Before, any address was taken
 * — `exfil@attacker.example` received the archive. Problems are added to `problems` naming each field
 * (400, nothing written); the domains are checked first, and only addresses on them are looked up, in one
 * statement over the users' folded-UPN index.
 */
export async function checkMappingTargets(
  ctx: ServiceContext,
  tenant: Tenant,
  mapping: ConnectorUserMapping,
  problems: FieldProblem[],
): Promise<void> {
  const targets: Array<{ field: string; address: string }> = mapping.mappings.map((entry, index) => ({
    field: `userMapping.mappings.${index}.userPrincipalName`,
    address: entry.userPrincipalName.trim().toLowerCase(),
  }));
  if (mapping.fallbackMailbox)
    targets.push({
      field: 'userMapping.fallbackMailbox',
      address: mapping.fallbackMailbox.trim().toLowerCase(),
    });
  const onDomains: typeof targets = [];
  for (const target of targets) {
    if (problems.some((problem) => problem.field === target.field)) continue; // not an address at all
    const wrongDomain = upnDomainProblems(target.address, tenant, target.field);
    if (wrongDomain.length) problems.push(...wrongDomain);
    else onDomains.push(target);
  }
  if (onDomains.length === 0) return;
  const rows = await ctx.em.getConnection().execute<{ upn: string }[]>(
    `select user_principal_name_folded as upn from "users"
      where organization_id = ? and environment = ? and tenant_id = ? and deleted_at is null
        and user_principal_name_folded in (?)`,
    [
      ctx.scope.organizationId,
      ctx.scope.environment,
      tenant.id,
      [...new Set(onDomains.map((target) => target.address))],
    ],
  );
  const users = new Set(rows.map((row) => row.upn));
  for (const target of onDomains)
    if (!users.has(target.address))
      problems.push({
        field: target.field,
        problem: `tenant ${tenant.name} has no active user ${target.address}`,
      });
}
