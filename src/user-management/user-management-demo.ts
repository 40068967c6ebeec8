import type { MikroORM } from '@mikro-orm/postgresql';
import { createJobContext } from '../context.js';
import type { Scope } from '../core/scope.js';
import type { AppDeps } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { AccountStatus, UserSource, UserType } from '../users/user.enums.js';
import { OffboardingService } from './offboarding.service.js';
import { runOffboarding } from './offboarding.task.js';
import { UserImportService } from './user-import.service.js';
import { runUserImport } from './user-import.task.js';

const DEMO_ACTOR = 'system:demo-seed';

/** Three new starters (fixed values, so the demo looks the same on every fresh clone). */
const newStarters = (domain: string) =>
  'UserPrincipalName,FirstName,LastName,JobTitle,Department,UsageLocation\n' +
  `noor.haddad@${domain},Noor,Haddad,Analyst,Finance,GB\n` +
  `mateo.ruiz@${domain},Mateo,Ruiz,Engineer,Engineering,ES\n` +
  `lena.fischer@${domain},Lena,Fischer,Designer,Marketing,DE\n`;

/**
 * The user-management area's demo data (issue #14): a finished bulk import and a finished offboarding in
 * the first demo tenant, made through the same services and jobs as the API. Run after the demo seed's
 * transaction committed (the jobs read on their own connections); each job is run here at once, so the
 * copies the services queued find their operation finished and do nothing.
 */
export async function seedUserManagementDemo(
  orm: MikroORM,
  deps: AppDeps,
  scope: Scope,
  tenant: Tenant,
): Promise<void> {
  const ctx = createJobContext(orm, deps, scope, DEMO_ACTOR);
  const submission = await new UserImportService(ctx).submit(tenant.id, newStarters(tenant.domain));
  await runUserImport(orm, deps, { importId: submission.operation.id, ...scope });

  // The leaver: the first licensed cloud-only member of staff, alphabetically (stable across clones).
  const [leaver] = await createJobContext(orm, deps, scope, DEMO_ACTOR).em.find(
    User,
    {
      tenantId: tenant.id,
      deletedAt: null,
      source: UserSource.CLOUD,
      userType: UserType.MEMBER,
      accountStatus: AccountStatus.ENABLED,
      isServiceAccount: false,
    },
    { orderBy: { userPrincipalName: 'asc' }, limit: 1 },
  );
  if (!leaver) return;
  const offboarding = await new OffboardingService(createJobContext(orm, deps, scope, DEMO_ACTOR)).start(
    tenant.id,
    leaver.id,
    {
      convertMailboxToShared: true,
      autoReplyMessage: 'I have left the company. Please write to the team mailbox instead.',
      removeLicenses: true,
      removeFromGroups: true,
      deleteUser: false,
    },
  );
  await runOffboarding(orm, deps, { offboardingId: offboarding.id, ...scope });
}
