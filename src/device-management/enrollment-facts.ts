import { createHash } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { OsPlatform } from '../devices/device.enums.js';
import type { Scope } from '../core/scope.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import {
  DEFAULT_DEVICE_LIMIT,
  DEFAULT_PLATFORM_LIMIT,
  DEFAULT_POLICY_NAME,
  RestrictionType,
} from './enrollment.enums.js';
import type { EnrollingUser } from './enrollment-evaluation.js';

const DEFAULT_DESCRIPTION = 'Built-in default: applies to every user after all other policies';

/**
 * The id of a tenant's built-in default, the same before and after it is stored (a hash of the tenant id), so
 * reads can show it without writing and an edit of it can create it first.
 */
export function defaultPolicyId(tenantId: string): string {
  const hex = createHash('sha256').update(`enrollment-default:${tenantId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Stores the tenant's built-in default policy unless it exists (SPEC 8.3: 15 per user; 5 Windows, 5 iOS,
 * 5 Android; assigned to all users; last), as `defaultPolicy` shows it. One statement; the partial unique
 * index on `is_default` makes two concurrent first writes create one. Only writes (create, edit, reorder,
 * sync) call it, inside their transaction. The caller has checked that the tenant is the organization's.
 */
export async function ensureDefaultPolicy(em: EntityManager, scope: Scope, tenantId: string, now: Date) {
  await em.execute(
    `insert into enrollment_restrictions (id, organization_id, environment, tenant_id, name, description,
       restriction_type, is_default, priority, version, assigned_to_all_users, group_ids, platform_restrictions,
       device_limit, platform_limits, group_overrides, created_at, updated_at)
     select ?, ?, ?, ?, ?, ?, ?, true,
       1 + (select count(*) from enrollment_restrictions where organization_id = ? and environment = ?
              and tenant_id = ? and not is_default),
       1, true, '{}', '[]', ?, ?::jsonb, '[]', ?, ?
     on conflict do nothing`,
    [
      defaultPolicyId(tenantId),
      scope.organizationId,
      scope.environment,
      tenantId,
      DEFAULT_POLICY_NAME,
      DEFAULT_DESCRIPTION,
      RestrictionType.DEVICE_LIMIT,
      scope.organizationId,
      scope.environment,
      tenantId,
      DEFAULT_DEVICE_LIMIT,
      JSON.stringify(DEFAULT_PLATFORM_LIMITS),
      now,
      now,
    ],
  );
}

const DEFAULT_PLATFORM_LIMITS = [OsPlatform.WINDOWS, OsPlatform.IOS, OsPlatform.ANDROID].map((platform) => ({
  platform,
  limit: DEFAULT_PLATFORM_LIMIT,
}));

/**
 * The default as it will be stored, for reads of a tenant that has none yet (nothing is written): the list
 * and the dry evaluation. `since` stands for its creation time (the tenant's).
 */
export function defaultPolicy(scope: Scope, tenantId: string, since: Date): EnrollmentRestriction {
  const policy = Object.create(EnrollmentRestriction.prototype as object) as EnrollmentRestriction;
  return Object.assign(policy, {
    id: defaultPolicyId(tenantId),
    organizationId: scope.organizationId,
    environment: scope.environment,
    tenantId,
    name: DEFAULT_POLICY_NAME,
    description: DEFAULT_DESCRIPTION,
    restrictionType: RestrictionType.DEVICE_LIMIT,
    isDefault: true,
    priority: 1,
    version: 1,
    assignedToAllUsers: true,
    groupIds: [],
    platformRestrictions: [],
    deviceLimit: DEFAULT_DEVICE_LIMIT,
    platformLimits: DEFAULT_PLATFORM_LIMITS,
    groupOverrides: [],
    createdAt: since,
    updatedAt: since,
  });
}

/**
 * Stores the tenant's default unless it exists, then locks its row: every change to a tenant's order (create,
 * reorder) takes this lock first in its save, so two of them never interleave and priorities stay 1..n with
 * the default n+1. Never held while the cloud answers (enrollment-cloud-write.ts).
 */
export async function lockDefaultPolicy(
  em: EntityManager,
  scope: Scope,
  tenantId: string,
  now: Date,
): Promise<EnrollmentRestriction> {
  await ensureDefaultPolicy(em, scope, tenantId, now);
  return em.findOneOrFail(
    EnrollmentRestriction,
    { tenantId, isDefault: true },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );
}

/** The tenant's policies (the default included), in any order. */
export function policiesOf(em: EntityManager, tenantId: string): Promise<EnrollmentRestriction[]> {
  return em.find(EnrollmentRestriction, { tenantId }, { orderBy: { isDefault: 'asc', priority: 'asc' } });
}

interface FactsRow {
  external_id: string;
  id: string;
  group_ids: string[];
  counts: Record<string, number>;
}

/**
 * What the engine needs about several users of a tenant (by their upstream ids), in one statement: our user
 * id, the groups they are in, their devices per OS platform.
 */
export async function enrollingUsers(
  em: EntityManager,
  scope: Scope,
  tenantId: string,
  by: { externalIds?: string[]; ids?: string[] },
): Promise<Map<string, EnrollingUser & { id: string; externalId: string }>> {
  const key = by.ids ? 'id' : 'external_id';
  const rows = await em.execute<FactsRow[]>(
    `select u.external_id, u.id,
       array(select gm.group_id from group_memberships gm where gm.user_id = u.id) as group_ids,
       coalesce((select jsonb_object_agg(c.os_platform, c.n) from (select d.os_platform, count(*)::int as n
         from devices d where d.organization_id = u.organization_id and d.environment = u.environment
           and d.tenant_id = u.tenant_id and d.user_id = u.id group by d.os_platform) c), '{}'::jsonb) as counts
     from users u where u.organization_id = ? and u.environment = ? and u.tenant_id = ? and u.${key} in (?)`,
    [scope.organizationId, scope.environment, tenantId, by.ids ?? by.externalIds ?? []],
  );
  return new Map(
    rows.map((row) => [
      by.ids ? row.id : row.external_id,
      {
        id: row.id,
        externalId: row.external_id,
        groupIds: new Set(row.group_ids),
        deviceCounts: new Map(Object.entries(row.counts) as Array<[OsPlatform, number]>),
      },
    ]),
  );
}
