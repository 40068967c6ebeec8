import { randomUUID } from 'node:crypto';
import { raw, type EntityManager } from '@mikro-orm/postgresql';
import type { CloudGroupRecord, CloudUserRecord } from '../../src/cloud/provider.js';
import type { SimulatedCloudProvider } from '../../src/cloud/simulated/simulated-cloud.provider.js';
import type { Scope } from '../../src/core/scope.js';
import { LicenseAssignment, TenantLicense } from '../../src/licenses/license.entity.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { Group, GroupMembership } from '../../src/users/group.entity.js';
import { User } from '../../src/users/user.entity.js';
import { AccountStatus, MfaStatus, UserSource, UserType } from '../../src/users/user.enums.js';
import type { TestApp } from '../helpers/test-app.js';

function scopeOf(tenant: Tenant): Scope {
  return { organizationId: tenant.organizationId, environment: tenant.environment };
}

/** The simulated cloud the test app runs on (the default provider). */
function simulatedCloud(app: TestApp): SimulatedCloudProvider {
  return app.deps.provider as SimulatedCloudProvider;
}

export interface UserFields {
  firstName?: string;
  lastName?: string;
  displayName?: string;
  userPrincipalName?: string;
  jobTitle?: string | null;
  department?: string | null;
  managerId?: string | null;
  usageLocation?: string | null;
  accountStatus?: AccountStatus;
  mfaStatus?: MfaStatus;
  source?: UserSource;
  isServiceAccount?: boolean;
  /** Directory roles, here and in the cloud ("Global Administrator" makes a privileged account). */
  directoryRoles?: string[];
  createdAt?: Date;
  deletedAt?: Date | null;
}

function cloudRecordOf(user: User, managerExternalId: string | null): CloudUserRecord {
  return {
    externalId: user.externalId,
    userPrincipalName: user.userPrincipalName,
    displayName: user.displayName,
    firstName: user.firstName,
    lastName: user.lastName,
    jobTitle: user.jobTitle,
    department: user.department,
    companyName: user.companyName,
    officeLocation: user.officeLocation,
    businessPhone: user.businessPhone,
    mobilePhone: user.mobilePhone,
    employeeId: user.employeeId,
    employeeType: user.employeeType,
    managerExternalId,
    usageLocation: user.usageLocation,
    accountEnabled: user.accountStatus === AccountStatus.ENABLED,
    mfaStatus: user.mfaStatus,
    userType: user.userType,
    onPremisesSynced: user.source === UserSource.SYNCED,
    isServiceAccount: user.isServiceAccount,
    directoryRoles: user.directoryRoles,
    lastSignInAt: null,
    createdAt: user.createdAt.toISOString(),
    deletedAt: user.deletedAt?.toISOString() ?? null,
  };
}

/** A user of the tenant (our row) and its twin in the simulated cloud, so provider calls on it work. */
export async function createUser(app: TestApp, tenant: Tenant, fields: UserFields = {}): Promise<User> {
  const em = app.orm.em.fork();
  const suffix = randomUUID().slice(0, 8);
  const firstName = fields.firstName ?? 'Test';
  const lastName = fields.lastName ?? `User${suffix}`;
  const createdAt = fields.createdAt ?? app.clock.now();
  const user = em.create(User, {
    ...scopeOf(tenant),
    tenantId: tenant.id,
    externalId: randomUUID(),
    firstName,
    lastName,
    displayName: fields.displayName ?? `${firstName} ${lastName}`,
    userPrincipalName: fields.userPrincipalName ?? `user-${suffix}@${tenant.domain}`,
    jobTitle: fields.jobTitle ?? null,
    department: fields.department ?? null,
    managerId: fields.managerId ?? null,
    usageLocation: fields.usageLocation === undefined ? 'US' : fields.usageLocation,
    accountStatus: fields.accountStatus ?? AccountStatus.ENABLED,
    mfaStatus: fields.mfaStatus ?? MfaStatus.DISABLED,
    userType: UserType.MEMBER,
    source: fields.source ?? UserSource.CLOUD,
    isServiceAccount: fields.isServiceAccount ?? false,
    directoryRoles: fields.directoryRoles ?? [],
    createdAt,
    updatedAt: createdAt,
    deletedAt: fields.deletedAt ?? null,
  });
  const manager = user.managerId ? await em.findOneOrFail(User, user.managerId, { filters: false }) : null;
  await em.flush();
  await simulatedCloud(app).put(em, tenant.externalId, 'user', user.externalId, {
    ...cloudRecordOf(user, manager?.externalId ?? null),
  });
  return user;
}

/** The user's twin in the simulated cloud, as the provider stores it. */
export async function cloudUserOf(
  app: TestApp,
  tenant: Tenant,
  externalId: string,
): Promise<CloudUserRecord> {
  const users = await app.deps.provider.listUsers(tenant.externalId);
  const found = users.find((user) => user.externalId === externalId);
  if (!found) throw new Error(`No cloud user ${externalId}`);
  return found;
}

/** A group of the tenant with these members, and its twin (with the same members) in the simulated cloud. */
export async function createGroup(
  app: TestApp,
  tenant: Tenant,
  fields: { displayName?: string; members?: User[] } = {},
): Promise<Group> {
  const em = app.orm.em.fork();
  const members = fields.members ?? [];
  const group = new Group(scopeOf(tenant), {
    tenantId: tenant.id,
    externalId: randomUUID(),
    displayName: fields.displayName ?? `Group ${randomUUID().slice(0, 8)}`,
  });
  em.persist(group);
  for (const member of members) {
    em.persist(new GroupMembership(scopeOf(tenant), { groupId: group.id, userId: member.id }));
  }
  await em.flush();
  const record: CloudGroupRecord = {
    externalId: group.externalId,
    displayName: group.displayName,
    memberExternalIds: members.map((member) => member.externalId),
  };
  await simulatedCloud(app).put(em, tenant.externalId, 'group', group.externalId, { ...record });
  return group;
}

/**
 * Gives the user a seat of the SKU the way the license service would: the assignment row, the
 * SKU's `consumed` raised by one, and the assignment in the simulated cloud.
 */
export async function giveLicense(
  app: TestApp,
  tenant: Tenant,
  user: User,
  license: TenantLicense,
): Promise<LicenseAssignment> {
  const em: EntityManager = app.orm.em.fork();
  const assignment = new LicenseAssignment(scopeOf(tenant), {
    tenantId: tenant.id,
    userId: user.id,
    skuId: license.skuId,
    assignedAt: app.clock.now(),
  });
  await em.transactional(async (tx) => {
    tx.persist(assignment);
    await tx.flush();
    await tx.nativeUpdate(
      TenantLicense,
      { id: license.id },
      { consumed: raw('consumed + 1') },
      { filters: false },
    );
  });
  await simulatedCloud(app).assignLicense(tenant.externalId, user.externalId, license.skuId);
  return assignment;
}
