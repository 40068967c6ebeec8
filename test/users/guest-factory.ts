/** A guest user row and its cloud twin, made with the app's ORM (test/helpers/server-side.ts runs it). */
import { randomUUID } from 'node:crypto';
import { cloudUserRecord } from '../../src/cloud/provider.js';
import type { SimulatedCloud } from '../../src/cloud/simulated/index.js';
import type { Tenant } from '../../src/tenants/tenant.entity.js';
import { User } from '../../src/users/user.entity.js';
import {
  AccountStatus,
  GuestSource,
  InvitationStatus,
  MfaStatus,
  UserSource,
  UserType,
} from '../../src/users/user.enums.js';
import type { TestApp } from '../helpers/test-app.js';

export interface GuestFields {
  email?: string;
  invitationStatus?: InvitationStatus;
  guestSource?: GuestSource;
  lastSignInAt?: Date | null;
  invitedAt?: Date | null;
  invitationSentAt?: Date | null;
  invitationAcceptedAt?: Date | null;
  createdAt?: Date;
}

/** A guest of the tenant as a sync would have brought it (our row and its twin in the simulated cloud). */
export async function createGuest(app: TestApp, tenant: Tenant, fields: GuestFields = {}): Promise<User> {
  const em = app.orm.em.fork();
  const email = fields.email ?? `guest-${randomUUID().slice(0, 8)}@partner.example.org`;
  const createdAt = fields.createdAt ?? app.clock.now();
  const status = fields.invitationStatus ?? InvitationStatus.ACCEPTED;
  const invitedAt = fields.invitedAt === undefined ? createdAt : fields.invitedAt;
  const user = em.create(User, {
    organizationId: tenant.organizationId,
    environment: tenant.environment,
    tenantId: tenant.id,
    externalId: randomUUID(),
    firstName: 'Guest',
    lastName: email.split('@')[0],
    displayName: `Guest ${email}`,
    userPrincipalName: `${email.replace('@', '_')}#EXT#@${tenant.domain}`,
    userType: UserType.GUEST,
    source: UserSource.CLOUD,
    accountStatus: AccountStatus.ENABLED,
    mfaStatus: MfaStatus.DISABLED,
    email,
    guestSource: fields.guestSource ?? GuestSource.B2B_COLLABORATION,
    invitationStatus: status,
    invitedAt,
    invitationSentAt: fields.invitationSentAt === undefined ? invitedAt : fields.invitationSentAt,
    invitationAcceptedAt:
      fields.invitationAcceptedAt === undefined
        ? status === InvitationStatus.ACCEPTED
          ? createdAt
          : null
        : fields.invitationAcceptedAt,
    lastSignInAt: fields.lastSignInAt ?? null,
    createdAt,
    updatedAt: createdAt,
  });
  await em.flush();
  const record = cloudUserRecord({
    externalId: user.externalId,
    userPrincipalName: user.userPrincipalName,
    displayName: user.displayName,
    firstName: user.firstName,
    lastName: user.lastName,
    userType: 'Guest',
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    createdAt: createdAt.toISOString(),
    mail: email,
    guest: {
      source: user.guestSource!,
      invitationStatus: status,
      invitedBy: null,
      invitedAt: invitedAt?.toISOString() ?? null,
      invitationSentAt: user.invitationSentAt?.toISOString() ?? null,
      acceptedAt: user.invitationAcceptedAt?.toISOString() ?? null,
    },
  });
  await (app.deps.clouds as SimulatedCloud).put(em, tenant.externalId, 'user', user.externalId, {
    ...record,
  });
  return user;
}
