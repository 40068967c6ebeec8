import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager, type MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import {
  cloudUserRecord,
  type CloudContactInput,
  type CloudContactRecord,
  type CloudGroupRecord,
  type CloudGuestInvitation,
  type CloudGuestRecord,
  type CloudLicenseAssignmentRecord,
  type CloudProvider,
  type CloudRestrictedSenderRecord,
  type CloudSignInRecord,
  type CloudSkuRecord,
  type CloudTenantRecord,
  type CloudUserInput,
  type CloudUserPatch,
  type CloudUserRecord,
  type CloudUserRestore,
} from '../provider.js';
import { SimulatedBackupService } from './simulated-backup.js';
import { SimulatedConnectorSources } from './simulated-connector-source.js';
import { SimulatedUserManagementCloud } from './simulated-user-management.js';
import { withLockedObject } from './locked-object.js';
import {
  SimulatedCloudObject,
  SimulatedCloudTenant,
  type SimulatedObjectKind,
} from './simulated-cloud.entity.js';
import {
  generateDirectory,
  generateRestrictedSenders,
  generateSignInBatch,
  initialDomainOf,
  RESTRICTION_ACTIONS,
  type GeneratedDirectory,
  type SimulatedTenantSpec,
} from './simulated-cloud.generator.js';
import { securityObjectsOf, SimulatedSecurityCloud } from './security.simulated.js';
import { SimulatedPosture } from './simulated-posture.js';
import { SimulatedConsent } from './consent.simulated.js';
import { enrollmentObjectsOf, SimulatedDeviceManagement } from './simulated-device-management.js';
import type { CloudBarrierPolicySet } from '../security-posture.provider.js';

/** Rows per INSERT statement when a generated directory is written. */
const INSERT_CHUNK = 500;

export class CloudObjectNotFoundError extends Error {
  constructor(kind: string, externalId: string) {
    super(`The upstream cloud has no ${kind} ${externalId}`);
  }
}

/**
 * The built-in upstream cloud (DECISIONS "The upstream cloud"): every tenant's directory lives in
 * two tables of the same database, so sync, user changes and licenses work end to end with no network.
 * It runs outside any organization's scope, like a vendor's cloud would.
 */
export class SimulatedCloudProvider implements CloudProvider {
  readonly security: SimulatedSecurityCloud;
  /** The backup service and the compliance connector sources (their own files). */
  readonly backup: SimulatedBackupService;
  readonly connectorSources: SimulatedConnectorSources;
  readonly userManagement: SimulatedUserManagementCloud;
  /** Enrollment attempts (simulated-device-management.ts). */
  readonly deviceManagement: SimulatedDeviceManagement;

  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {
    this.security = new SimulatedSecurityCloud(orm, clock);
    this.backup = new SimulatedBackupService(orm, clock);
    this.connectorSources = new SimulatedConnectorSources(orm, clock);
    this.userManagement = new SimulatedUserManagementCloud(orm, clock);
    this.deviceManagement = new SimulatedDeviceManagement(orm, clock);
  }

  listBackupSnapshots: CloudProvider['listBackupSnapshots'] = (...args) =>
    this.backup.listBackupSnapshots(...args);
  getBackupSnapshot: CloudProvider['getBackupSnapshot'] = (...args) => this.backup.getBackupSnapshot(...args);
  listBackupItems: CloudProvider['listBackupItems'] = (...args) => this.backup.listBackupItems(...args);
  findBackupItems: CloudProvider['findBackupItems'] = (...args) => this.backup.findBackupItems(...args);
  restoreBackupItems: CloudProvider['restoreBackupItems'] = (...args) =>
    this.backup.restoreBackupItems(...args);
  testConnectorConnection: CloudProvider['testConnectorConnection'] = (...args) =>
    this.connectorSources.testConnectorConnection(...args);
  importConnectorData: CloudProvider['importConnectorData'] = (...args) =>
    this.connectorSources.importConnectorData(...args);

  private em(): EntityManager {
    return this.orm.em.fork();
  }

  /** Security controls and information barriers (simulated-posture.ts). */
  readonly posture = new SimulatedPosture(() => this.em(), { now: () => this.clock.now() });
  listSecurityControls = (tenant: string) => this.posture.listSecurityControls(tenant);
  previewSecurityControl = (tenant: string, control: string) =>
    this.posture.previewSecurityControl(tenant, control);
  applySecurityControl = (tenant: string, control: string) =>
    this.posture.applySecurityControl(tenant, control);
  applyInformationBarriers = (tenant: string, policySet: CloudBarrierPolicySet) =>
    this.posture.applyInformationBarriers(tenant, policySet);

  /** Delegated admin relationships: which partners each tenant granted (consent.simulated.ts). */
  readonly consent = new SimulatedConsent(() => this.em(), { now: () => this.clock.now() });
  getDelegatedAccess: CloudProvider['getDelegatedAccess'] = (...args) =>
    this.consent.getDelegatedAccess(...args);

  private async list<T>(tenantExternalId: string, kind: SimulatedObjectKind): Promise<T[]> {
    const rows = await this.em().find(
      SimulatedCloudObject,
      { tenantExternalId, kind },
      { orderBy: { externalId: 'asc' }, fields: ['data'] },
    );
    return rows.map((row) => row.data as T);
  }

  private async requireTenant(em: EntityManager, tenantExternalId: string): Promise<SimulatedCloudTenant> {
    const tenant = await em.findOne(SimulatedCloudTenant, { externalId: tenantExternalId });
    if (!tenant) throw new CloudObjectNotFoundError('tenant', tenantExternalId);
    return tenant;
  }

  async getTenant(tenantExternalId: string): Promise<CloudTenantRecord> {
    const tenant = await this.requireTenant(this.em(), tenantExternalId);
    return { externalId: tenant.externalId, displayName: tenant.displayName, domains: tenant.domains };
  }

  listUsers(tenantExternalId: string): Promise<CloudUserRecord[]> {
    return this.list(tenantExternalId, 'user');
  }

  listSkus(tenantExternalId: string): Promise<CloudSkuRecord[]> {
    return this.list(tenantExternalId, 'sku');
  }

  listGroups(tenantExternalId: string): Promise<CloudGroupRecord[]> {
    return this.list(tenantExternalId, 'group');
  }

  listLicenseAssignments(tenantExternalId: string): Promise<CloudLicenseAssignmentRecord[]> {
    return this.list(tenantExternalId, 'assignment');
  }

  async listSignIns(tenantExternalId: string, since: Date | null): Promise<CloudSignInRecord[]> {
    const all = await this.list<CloudSignInRecord>(tenantExternalId, 'sign_in');
    return since ? all.filter((signIn) => new Date(signIn.createdAt) > since) : all;
  }

  async createUser(tenantExternalId: string, input: CloudUserInput): Promise<CloudUserRecord> {
    const em = this.em();
    await this.requireTenant(em, tenantExternalId);
    const { password: _password, ...profile } = input;
    void _password; // the simulated cloud checks nothing more; a real one would set it on the account
    const record: CloudUserRecord = {
      ...profile,
      externalId: randomUUID(),
      onPremisesSynced: false,
      lastSignInAt: null,
      createdAt: this.clock.now().toISOString(),
      deletedAt: null,
    };
    await this.put(
      em,
      tenantExternalId,
      'user',
      record.externalId,
      record as unknown as Record<string, unknown>,
    );
    return record;
  }

  async updateUser(tenantExternalId: string, userExternalId: string, patch: CloudUserPatch): Promise<void> {
    await this.patch(tenantExternalId, 'user', userExternalId, patch);
  }

  async deleteUser(tenantExternalId: string, userExternalId: string): Promise<void> {
    await this.em().transactional(async (em) => {
      await this.patchIn(em, tenantExternalId, 'user', userExternalId, {
        deletedAt: this.clock.now().toISOString(),
        accountEnabled: false,
        managerExternalId: null,
      });
      await em.nativeDelete(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'assignment',
        externalId: { $like: `${userExternalId}:%` },
      });
      const groups = await em.find(SimulatedCloudObject, { tenantExternalId, kind: 'group' });
      for (const group of groups) {
        const data = group.data as unknown as CloudGroupRecord;
        if (data.memberExternalIds.includes(userExternalId)) {
          group.data = {
            ...data,
            memberExternalIds: data.memberExternalIds.filter((id) => id !== userExternalId),
          };
        }
      }
    });
  }

  async restoreUser(
    tenantExternalId: string,
    userExternalId: string,
    restore: CloudUserRestore,
  ): Promise<CloudUserRecord | null> {
    const key = { tenantExternalId, kind: 'user' as const, externalId: userExternalId };
    return withLockedObject(this.em(), key, (row) => {
      // Memberships, assignments and the manager were removed by the delete and stay removed. A user
      // already active (a repeated restore) is given the same values: the call converges.
      row.data = { ...row.data, ...restore, deletedAt: null };
      row.updatedAt = this.clock.now();
      return row.data as unknown as CloudUserRecord;
    });
  }

  async purgeUser(tenantExternalId: string, userExternalId: string): Promise<boolean> {
    return this.em().transactional(async (em) => {
      const connection = em.getConnection();
      const removed = await connection.execute<{ affectedRows?: number }>(
        `delete from sim_cloud_objects
          where tenant_external_id = ? and kind = 'user' and external_id = ? and data->>'deletedAt' is not null`,
        [tenantExternalId, userExternalId],
        'run',
      );
      if ((removed.affectedRows ?? 0) === 0) {
        const present = await em.count(SimulatedCloudObject, {
          tenantExternalId,
          kind: 'user',
          externalId: userExternalId,
        });
        if (present > 0) return false; // active upstream: not in the recycle bin
      }
      await em.nativeDelete(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'assignment',
        externalId: { $like: `${userExternalId}:%` },
      });
      await this.userManagement.forgetUser(em, tenantExternalId, userExternalId);
      return true;
    });
  }

  async inviteGuest(tenantExternalId: string, invitation: CloudGuestInvitation): Promise<CloudUserRecord> {
    const em = this.em();
    const tenant = await this.requireTenant(em, tenantExternalId);
    const now = this.clock.now().toISOString();
    const email = invitation.email.toLowerCase();
    const guest: CloudGuestRecord = {
      source: 'Invited user',
      invitationStatus: 'Pending',
      invitedBy: invitation.invitedBy,
      invitedAt: now,
      invitationSentAt: invitation.sendInvitation ? now : null,
      acceptedAt: null,
      personalMessage: invitation.personalMessage,
      redirectUrl: invitation.redirectUrl,
    };
    const record = cloudUserRecord({
      externalId: randomUUID(),
      userPrincipalName: `${email.replace('@', '_')}#EXT#@${initialDomainOf(tenant.domains)}`,
      displayName: invitation.displayName,
      firstName: invitation.firstName,
      lastName: invitation.lastName,
      userType: 'Guest',
      createdAt: now,
      mail: email,
      guest,
    });
    await em.transactional(async (tx) => {
      await this.put(tx, tenantExternalId, 'user', record.externalId, { ...record });
      if (invitation.sendInvitation) {
        await this.mailInvitation(tx, tenantExternalId, record, {
          personalMessage: invitation.personalMessage,
          redirectUrl: invitation.redirectUrl,
        });
      }
    });
    return record;
  }

  async resendInvitation(tenantExternalId: string, userExternalId: string): Promise<CloudUserRecord | null> {
    return this.em().transactional(async (em) => {
      const row = await em.findOne(
        SimulatedCloudObject,
        { tenantExternalId, kind: 'user', externalId: userExternalId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!row || row.data.deletedAt) return null;
      const record = row.data as unknown as CloudUserRecord;
      if (record.guest?.invitationStatus !== 'Pending') return record;
      const now = this.clock.now();
      const updated: CloudUserRecord = {
        ...record,
        guest: { ...record.guest, invitationSentAt: now.toISOString() },
      };
      row.data = { ...updated };
      row.updatedAt = now;
      await this.mailInvitation(em, tenantExternalId, updated, {
        personalMessage: record.guest.personalMessage ?? null,
        redirectUrl: record.guest.redirectUrl ?? null,
      });
      return updated;
    });
  }

  /**
   * The guest redeems its invitation (a test and demo hook: a real cloud learns it from the guest):
   * Pending becomes Accepted upstream, and the next sync brings it into our rows. False when the user is
   * not a guest with a pending invitation.
   */
  async acceptInvitation(tenantExternalId: string, userExternalId: string): Promise<boolean> {
    return this.em().transactional(async (em) => {
      const row = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'user',
        externalId: userExternalId,
      });
      const record = row?.data as unknown as CloudUserRecord | undefined;
      if (!row || !record?.guest || record.guest.invitationStatus !== 'Pending') return false;
      const now = this.clock.now();
      row.data = {
        ...row.data,
        guest: { ...record.guest, invitationStatus: 'Accepted', acceptedAt: now.toISOString() },
      };
      row.updatedAt = now;
      return true;
    });
  }

  private async mailInvitation(
    em: EntityManager,
    tenantExternalId: string,
    guest: CloudUserRecord,
    content: { personalMessage: string | null; redirectUrl: string | null },
  ): Promise<void> {
    const id = randomUUID();
    await this.put(em, tenantExternalId, 'invitation_mail', id, {
      id,
      userExternalId: guest.externalId,
      to: guest.mail ?? null,
      personalMessage: content.personalMessage,
      redirectUrl: content.redirectUrl,
      sentAt: this.clock.now().toISOString(),
    });
  }

  async createContacts(tenantExternalId: string, inputs: CloudContactInput[]): Promise<CloudContactRecord[]> {
    const em = this.em();
    await this.requireTenant(em, tenantExternalId);
    const now = this.clock.now();
    const records: CloudContactRecord[] = inputs.map((input) => ({
      ...input,
      externalId: randomUUID(),
      onPremisesSynced: false,
      createdAt: now.toISOString(),
    }));
    await em.transactional(async (tx) => {
      for (let start = 0; start < records.length; start += INSERT_CHUNK) {
        await tx.insertMany(
          SimulatedCloudObject,
          records.slice(start, start + INSERT_CHUNK).map((record) => ({
            id: randomUUID(),
            tenantExternalId,
            kind: 'contact' as const,
            externalId: record.externalId,
            data: { ...record },
            updatedAt: now,
          })),
        );
      }
    });
    return records;
  }

  async updateContact(
    tenantExternalId: string,
    contactExternalId: string,
    input: CloudContactInput,
  ): Promise<void> {
    await this.patch(tenantExternalId, 'contact', contactExternalId, input);
  }

  async deleteContact(tenantExternalId: string, contactExternalId: string): Promise<void> {
    await this.em().nativeDelete(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'contact',
      externalId: contactExternalId,
    });
  }

  listRestrictedSenders(tenantExternalId: string): Promise<CloudRestrictedSenderRecord[]> {
    return this.list(tenantExternalId, 'restricted_sender');
  }

  async unblockSender(
    tenantExternalId: string,
    restrictionExternalId: string,
  ): Promise<CloudRestrictedSenderRecord | null> {
    const key = { tenantExternalId, kind: 'restricted_sender' as const, externalId: restrictionExternalId };
    return withLockedObject(this.em(), key, (row) => {
      const record = row.data as unknown as CloudRestrictedSenderRecord;
      if (record.status !== 'Restricted') return record;
      const now = this.clock.now();
      const unblocked: CloudRestrictedSenderRecord = {
        ...record,
        status: 'Unblocked',
        unblockedAt: now.toISOString(),
      };
      row.data = { ...unblocked };
      row.updatedAt = now;
      return unblocked;
    });
  }

  /**
   * The cloud's mail service restricts a sender (a test and demo hook: a real cloud does it on its own).
   * The user is a user of the tenant; the restriction starts now unless `restrictedAt` is given.
   */
  async restrictSender(
    tenantExternalId: string,
    userExternalId: string,
    reason: CloudRestrictedSenderRecord['reason'],
    restrictedAt: Date = this.clock.now(),
  ): Promise<CloudRestrictedSenderRecord> {
    const em = this.em();
    const user = await em.findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'user',
      externalId: userExternalId,
    });
    if (!user) throw new CloudObjectNotFoundError('user', userExternalId);
    const data = user.data as unknown as CloudUserRecord;
    const record: CloudRestrictedSenderRecord = {
      externalId: randomUUID(),
      userExternalId,
      userPrincipalName: data.userPrincipalName,
      displayName: data.displayName,
      restrictedAt: restrictedAt.toISOString(),
      reason,
      status: 'Restricted',
      actionRequired: RESTRICTION_ACTIONS[reason],
      unblockedAt: null,
    };
    await this.put(em, tenantExternalId, 'restricted_sender', record.externalId, { ...record });
    return record;
  }

  async revokeSessions(tenantExternalId: string, userExternalId: string): Promise<void> {
    await this.patch(tenantExternalId, 'user', userExternalId, {
      sessionsRevokedAt: this.clock.now().toISOString(),
    });
  }

  async assignLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void> {
    const record: CloudLicenseAssignmentRecord = { userExternalId, skuId };
    await this.put(this.em(), tenantExternalId, 'assignment', `${userExternalId}:${skuId}`, { ...record });
  }

  async removeLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void> {
    await this.em().nativeDelete(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'assignment',
      externalId: `${userExternalId}:${skuId}`,
    });
  }

  /**
   * Creates a tenant in the simulated cloud with a generated directory (simulated-cloud.generator.ts),
   * written with a few multi-row INSERTs in one transaction. A tenant that already exists is left as it
   * is (`created: false`), so seeding twice or from two processes at once is harmless.
   */
  async createTenant(spec: SimulatedTenantSpec): Promise<{ tenant: CloudTenantRecord; created: boolean }> {
    const directory = await generateDirectory(spec, this.clock.now());
    const created = await this.em().transactional((em) => this.writeDirectory(em, directory));
    return { tenant: directory.tenant, created };
  }

  private async writeDirectory(em: EntityManager, directory: GeneratedDirectory): Promise<boolean> {
    const { tenant } = directory;
    const inserted = await em
      .createQueryBuilder(SimulatedCloudTenant)
      .insert({
        externalId: tenant.externalId,
        displayName: tenant.displayName,
        domains: tenant.domains,
        seed: directory.seed,
        tick: 0,
      })
      .onConflict('externalId')
      .ignore()
      .execute('run');
    if (!inserted.affectedRows) return false;
    const updatedAt = this.clock.now();
    const row = (kind: SimulatedObjectKind, externalId: string, data: object) => ({
      id: randomUUID(),
      tenantExternalId: tenant.externalId,
      kind,
      externalId,
      data: data as Record<string, unknown>,
      updatedAt,
    });
    const rows = [
      ...directory.users.map((user) => row('user', user.externalId, user)),
      ...directory.skus.map((sku) => row('sku', sku.skuId, sku)),
      ...directory.groups.map((group) => row('group', group.externalId, group)),
      ...directory.assignments.map((a) => row('assignment', `${a.userExternalId}:${a.skuId}`, a)),
      ...directory.signIns.map((signIn) => row('sign_in', signIn.id, signIn)),
      ...generateRestrictedSenders(directory.users, directory.seed, updatedAt).map((sender) =>
        row('restricted_sender', sender.externalId, sender),
      ),
      ...securityObjectsOf(directory.users, directory.seed, updatedAt).map((o) =>
        row(o.kind, o.externalId, o.data),
      ),
      ...enrollmentObjectsOf(tenant.externalId, directory.users, updatedAt).map((o) =>
        row(o.kind, o.externalId, o.data),
      ),
    ];
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await em.insertMany(SimulatedCloudObject, rows.slice(start, start + INSERT_CHUNK));
    }
    return true;
  }

  /**
   * Lets time pass upstream by one step: a few people sign in now (one of them riskily, from an
   * unfamiliar place) and their lastSignInAt moves. Deterministic per tenant seed and step (`tick`).
   * Sync never calls this (a sync with no upstream change changes nothing); tests and demos do.
   */
  async advance(tenantExternalId: string): Promise<CloudSignInRecord[]> {
    return this.em().transactional(async (em) => {
      const tenant = await em.findOne(
        SimulatedCloudTenant,
        { externalId: tenantExternalId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!tenant) throw new CloudObjectNotFoundError('tenant', tenantExternalId);
      tenant.tick += 1;
      const userRows = await em.find(SimulatedCloudObject, { tenantExternalId, kind: 'user' });
      const users = userRows.map((userRow) => userRow.data as unknown as CloudUserRecord);
      const signIns = await generateSignInBatch(users, tenant.seed, tenant.tick, this.clock.now());
      const byUpn = new Map(userRows.map((userRow) => [String(userRow.data.userPrincipalName), userRow]));
      for (const signIn of signIns) {
        const userRow = byUpn.get(signIn.userPrincipalName)!;
        const last = userRow.data.lastSignInAt as string | null;
        if (!last || last < signIn.createdAt) {
          userRow.data = { ...userRow.data, lastSignInAt: signIn.createdAt };
          userRow.updatedAt = this.clock.now();
        }
        em.create(SimulatedCloudObject, {
          tenantExternalId,
          kind: 'sign_in',
          externalId: signIn.id,
          data: { ...signIn },
          updatedAt: this.clock.now(),
        });
      }
      await em.flush();
      return signIns;
    });
  }

  /** Inserts or replaces one object. */
  async put(
    em: EntityManager,
    tenantExternalId: string,
    kind: SimulatedObjectKind,
    externalId: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    await em.upsert(
      SimulatedCloudObject,
      // A plain-object upsert gets no property defaults: the id is given here, and kept on conflict.
      { id: randomUUID(), tenantExternalId, kind, externalId, data, updatedAt: this.clock.now() },
      {
        onConflictFields: ['tenantExternalId', 'kind', 'externalId'],
        onConflictAction: 'merge',
        onConflictMergeFields: ['data', 'updatedAt'],
      },
    );
  }

  private patch(
    tenantExternalId: string,
    kind: SimulatedObjectKind,
    externalId: string,
    patch: object,
  ): Promise<void> {
    return this.em().transactional((em) => this.patchIn(em, tenantExternalId, kind, externalId, patch));
  }

  private async patchIn(
    em: EntityManager,
    tenantExternalId: string,
    kind: SimulatedObjectKind,
    externalId: string,
    patch: object,
  ): Promise<void> {
    const row = await em.findOne(SimulatedCloudObject, { tenantExternalId, kind, externalId });
    if (!row) throw new CloudObjectNotFoundError(kind, externalId);
    row.data = { ...row.data, ...patch };
    row.updatedAt = this.clock.now();
  }
}
