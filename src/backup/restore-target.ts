import { ConflictError, InvalidRequestError } from '../core/errors.js';
import type { ServiceContext } from '../core/service-context.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { upnDomainProblems } from '../users/user.rules.js';
import type { BackupSnapshot } from './backup-snapshot.entity.js';
import { BackupWorkload, RestoreTargetType } from './backup.enums.js';
import { locationOwner } from './restore-location.js';
import type { StartRestoreInput } from './backup.types.js';

const FIELD = 'target.location';

/**
 * A Different location must exist in the receiving tenant (docs/backup.md "Targets"): the mailbox or drive
 * owner's address is on one of its domains (the rule user creation and restore apply, user.rules.ts) and is
 * a live user there; a site or team is one of its own. The shape was checked before (restore-request.ts).
 * Without this a restore "completed" into an address nobody owns, items the customer could never find.
 */
export async function checkDifferentLocation(
  ctx: ServiceContext,
  input: StartRestoreInput,
  targetTenant: Tenant,
): Promise<void> {
  if (input.target.type !== RestoreTargetType.DIFFERENT_LOCATION || !input.target.location) return;
  const location = input.target.location;
  const personal =
    input.workload === BackupWorkload.MAILBOX || input.workload === BackupWorkload.PERSONAL_FILE_STORAGE;
  // user@domain/folder → user@domain; /sites/name/library → /sites/name (the shape was checked before).
  const owner = locationOwner(input.workload, location);
  if (owner === null) return;
  if (personal) {
    const problems = upnDomainProblems(owner.toLowerCase(), targetTenant, FIELD);
    if (problems.length) throw new InvalidRequestError('The restore request is not valid', problems);
  }
  if (
    !(await (
      await ctx.cloud.forTenant(targetTenant.externalId)
    ).backup.hasRestoreTarget(input.workload, owner))
  ) {
    const what = personal
      ? `no active user ${owner} (mailbox or drive owner)`
      : `no ${input.workload === BackupWorkload.SITE_COLLABORATION ? 'site' : 'team'} ${owner}`;
    throw InvalidRequestError.field(FIELD, `tenant ${targetTenant.name} has ${what}`);
  }
}

/**
 * A soft-deleted user's mailbox and drive are preserved with their backups (SPEC 3.4), so Export and
 * Different location restore from them; Original location would write into a deleted user's mailbox,
 * which nobody can open until the user is restored: 409 saying so, instead of a restore nobody sees.
 */
export async function checkOwnerNotDeleted(
  ctx: ServiceContext,
  input: StartRestoreInput,
  snapshot: BackupSnapshot,
): Promise<void> {
  if (input.target.type !== RestoreTargetType.ORIGINAL_LOCATION || !snapshot.userId) return;
  const owner = await ctx.em.findOne(
    User,
    { id: snapshot.userId, deletedAt: { $ne: null } },
    { fields: ['id', 'userPrincipalName', 'deletedAt'] },
  );
  if (!owner) return;
  throw new ConflictError(
    `${owner.userPrincipalName} is deleted: restore the user first to restore to the original location, ` +
      'or restore to a different location or export',
    { userId: owner.id, deletedAt: owner.deletedAt!.toISOString() },
  );
}
