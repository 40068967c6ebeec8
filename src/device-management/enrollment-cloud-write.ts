import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  CloudEnrollmentConfigurations,
  CloudEnrollmentSettings,
  CloudEnrollmentTargets,
} from '../cloud/device-management.provider.js';
import { allPages } from '../cloud/pages.js';
import { ConflictError } from '../core/errors.js';
import { Group } from '../users/group.entity.js';
import { cloudSettingsOf, driftOf } from './enrollment-cloud.js';
import type { RestrictionType } from './enrollment.enums.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import type { PolicyDraft } from './enrollment-policy.validation.js';

/**
 * Our policies written to Intune (docs/microsoft365.md "Enrollment restrictions"), BEFORE anything is stored
 * and outside every transaction and lock: the service saves after the cloud answered, in a short transaction
 * (enrollment-policy.service.ts, enrollment-order.service.ts). So a refusal, a throttled or failing cloud, or
 * a crash before the save leaves nothing stored, and no lock waits on Graph. Every write is safe to repeat: a
 * create is keyed (it finds the configuration an earlier try made by kind and name), and the other calls set
 * values (`PATCH`, `assign`, `setPriority` to a place read from Intune's current order).
 *
 * Intune orders each kind (platform restrictions, device limits) on its own, 1..n, its default of the kind at
 * 0 and applied last; we order all our policies together. A policy's place in Intune is therefore its place
 * among ours of the same kind, ours first (configurations made only in the portal come after them).
 */

/** Who a policy applies to, with the cloud's ids of its groups. */
async function targetsOf(
  em: EntityManager,
  policy: Pick<PolicyDraft, 'assignedToAllUsers' | 'groupIds'>,
): Promise<CloudEnrollmentTargets> {
  if (policy.assignedToAllUsers) return { allUsers: true, groupExternalIds: [] };
  const groups = await em.find(Group, { id: { $in: policy.groupIds } }, { fields: ['externalId'] });
  return { allUsers: false, groupExternalIds: groups.map((group) => group.externalId) };
}

const kindOf = (type: RestrictionType): CloudEnrollmentSettings['kind'] =>
  type === 'Device Type Restrictions' ? 'platformRestrictions' : 'limit';

/**
 * A 409 when another policy of the tenant is written to that configuration (same kind and name): checked
 * before writing over it, and again in the save's transaction (a concurrent create may have taken it).
 */
export async function assertCloudIdFree(em: EntityManager, tenantId: string, cloudId: string, name: string) {
  const holder = await em.findOne(EnrollmentRestriction, { tenantId, cloudId }, { refresh: true });
  if (holder)
    throw new ConflictError(
      `Another enrollment restriction of the tenant (${holder.id}) is written to the Intune configuration ` +
        `named "${name}": give this one another name`,
      { field: 'name' },
    );
}

export interface CloudCreated {
  cloudId: string;
  /** Made by this call (not found from an earlier try): what a refused save removes again. */
  createdNow: boolean;
}

/**
 * A new policy's configuration: created under a request key (a retry finds the one an earlier try made), its
 * settings written again when what it found differs, moved to `place` among ours of its kind when Intune put
 * it elsewhere, then assigned. 501 before any write when Intune cannot hold the policy. A step failing after
 * Intune took the create undoes it (undoCreateInCloud): a failed create leaves nothing in Intune.
 */
export async function createInCloud(
  em: EntityManager,
  configurations: CloudEnrollmentConfigurations,
  tenantId: string,
  draft: PolicyDraft,
  place: number,
): Promise<CloudCreated> {
  const settings = cloudSettingsOf(draft);
  const made = await configurations.create(settings, `enrollment-restriction:${tenantId}:${draft.name}`);
  const created: CloudCreated = { cloudId: made.id, createdNow: !made.adopted };
  try {
    await assertCloudIdFree(em, tenantId, made.id, draft.name);
    if (driftOf(settings, made)) await configurations.update(made.id, settings);
    if (made.priority !== place) await configurations.setPriority(made.id, place);
    await configurations.assign(made.id, await targetsOf(em, draft));
  } catch (error) {
    await undoCreateInCloud(em, configurations, tenantId, created);
    throw error;
  }
  return created;
}

/**
 * Undoes a create that failed after Intune took it (a later call refused, throttled or failing; the save
 * refused or failing): the configuration is deleted when this call made it and no policy holds it, so the
 * caller's error (a 409, or a 503 that says "nothing changed") holds for Intune too. A configuration found
 * from an earlier try stays (its retry needs it), as does anything when the holder cannot be read (the save
 * may have committed) or the delete fails: the error the caller gets says more than the delete's, and the
 * create's retry finds (adopts) the configuration by kind and name.
 */
export async function undoCreateInCloud(
  em: EntityManager,
  configurations: CloudEnrollmentConfigurations,
  tenantId: string,
  created: CloudCreated,
): Promise<void> {
  if (!created.createdNow) return;
  const held = await em
    .findOne(EnrollmentRestriction, { tenantId, cloudId: created.cloudId }, { refresh: true })
    .then(
      (holder) => holder !== null,
      () => true,
    );
  if (held) return;
  await configurations.remove(created.cloudId).catch(() => undefined);
}

/**
 * A changed policy written over its configuration (`PATCH`, then `assign`); the default is Intune's built-in
 * device limit of its kind (priority 0, found by the first write), of which only the limit is written: Intune
 * assigns it to everyone. Answers the configuration's id (the default's, found now the first time).
 */
export async function updateInCloud(
  em: EntityManager,
  configurations: CloudEnrollmentConfigurations,
  policy: Pick<EnrollmentRestriction, 'cloudId' | 'isDefault' | 'tenantId' | 'priority'>,
  draft: PolicyDraft,
): Promise<string | null> {
  const settings = cloudSettingsOf(draft);
  if (policy.isDefault) {
    let cloudId = policy.cloudId;
    if (!cloudId) {
      const all = (await allPages(configurations.list())).flat();
      const builtIn = all.find((found) => found.kind === 'limit' && found.priority === 0);
      if (!builtIn) throw new ConflictError('The tenant has no default Intune device limit to write to');
      cloudId = builtIn.id;
    }
    await configurations.update(cloudId, settings);
    return cloudId;
  }
  if (!policy.cloudId) {
    // Stored before Intune was connected (or while it could not hold it): created now, at its place.
    const before = await em.count(EnrollmentRestriction, {
      tenantId: policy.tenantId,
      isDefault: false,
      restrictionType: draft.restrictionType,
      priority: { $lt: policy.priority },
      cloudId: { $ne: null },
    });
    return (await createInCloud(em, configurations, policy.tenantId, draft, before + 1)).cloudId;
  }
  await configurations.update(policy.cloudId, settings);
  await configurations.assign(policy.cloudId, await targetsOf(em, draft));
  return policy.cloudId;
}

/**
 * Intune's order made ours: for each kind, our configurations first, in our order (`ordered`: every
 * non-default policy of the tenant, first first). Intune's current order is read (one list), then each of
 * ours not yet at its place is moved there top down with `setPriority`, which shifts the others of its kind:
 * only what moved is written, and a repeat after a partial run finishes it.
 */
export async function alignCloudOrder(
  configurations: CloudEnrollmentConfigurations,
  ordered: readonly Pick<EnrollmentRestriction, 'cloudId' | 'restrictionType'>[],
): Promise<void> {
  const all = (await allPages(configurations.list())).flat();
  for (const kind of ['platformRestrictions', 'limit'] as const) {
    const current = all
      .filter((found) => found.kind === kind && found.priority > 0)
      .sort((a, b) => a.priority - b.priority)
      .map((found) => found.id);
    const ours = ordered
      .filter((policy) => kindOf(policy.restrictionType) === kind && policy.cloudId)
      .map((policy) => policy.cloudId!)
      .filter((id) => current.includes(id));
    for (const [index, id] of ours.entries()) {
      if (current[index] === id) continue;
      await configurations.setPriority(id, index + 1);
      current.splice(current.indexOf(id), 1);
      current.splice(index, 0, id);
    }
  }
}
