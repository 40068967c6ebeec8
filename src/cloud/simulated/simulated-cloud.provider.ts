import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import {
  type CloudGroupRecord,
  type CloudLicenseAssignmentRecord,
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
import { SimulatedExchange } from './simulated-exchange.js';
import { SimulatedGuests } from './simulated-guests.js';
import { SimulatedObjectStore } from './simulated-object-store.js';
import { SimulatedTenants } from './simulated-tenants.js';
import { SimulatedCloudObject, type SimulatedObjectKind } from './simulated-cloud.entity.js';
import { SimulatedSecurityCloud } from './security.simulated.js';
import { SimulatedPosture } from './simulated-posture.js';
import { SimulatedConsent } from './consent.simulated.js';
import { SimulatedDeviceManagement } from './simulated-device-management.js';
import type { CloudBarrierPolicySet } from '../security-posture.provider.js';
import { SimulatedFaults } from './simulated-faults.js';

/**
 * The built-in upstream cloud (DECISIONS "The upstream cloud"): every tenant's directory lives in
 * two tables of the same database, so sync, user changes and licenses work end to end with no network.
 * It runs outside any organization's scope, like a vendor's cloud would.
 *
 * Its methods take the tenant first: the simulated cloud's own API, which the clients partners get
 * (SimulatedCloud.forPartner, simulated-cloud.ts), the operator's CLI, the demo seed and tests use.
 */
export class SimulatedCloudProvider {
  private readonly store: SimulatedObjectStore;
  readonly security: SimulatedSecurityCloud;
  /** The backup service and the compliance connector sources (their own files). */
  readonly backup: SimulatedBackupService;
  readonly connectorSources: SimulatedConnectorSources;
  readonly userManagement: SimulatedUserManagementCloud;
  /** Enrollment attempts (simulated-device-management.ts). */
  readonly deviceManagement: SimulatedDeviceManagement;

  /** Items per page of a tenant client's lists (Graph's default for users is 100); tests make it small. */
  pageSize: number;

  constructor(
    orm: MikroORM,
    private readonly clock: Clock,
    options: { pageSize?: number } = {},
  ) {
    this.pageSize = options.pageSize ?? 100;
    this.store = new SimulatedObjectStore(orm, clock);
    this.guests = new SimulatedGuests(this.store);
    this.exchange = new SimulatedExchange(this.store);
    this.tenants = new SimulatedTenants(this.store);
    this.security = new SimulatedSecurityCloud(orm, clock);
    this.backup = new SimulatedBackupService(orm, clock);
    this.connectorSources = new SimulatedConnectorSources(orm, clock);
    this.userManagement = new SimulatedUserManagementCloud(orm, clock, this.store);
    this.deviceManagement = new SimulatedDeviceManagement(orm, clock);
  }

  listBackupSnapshots: SimulatedBackupService['listBackupSnapshots'] = (...args) =>
    this.backup.listBackupSnapshots(...args);
  getBackupSnapshot: SimulatedBackupService['getBackupSnapshot'] = (...args) =>
    this.backup.getBackupSnapshot(...args);
  listBackupItems: SimulatedBackupService['listBackupItems'] = (...args) =>
    this.backup.listBackupItems(...args);
  findBackupItems: SimulatedBackupService['findBackupItems'] = (...args) =>
    this.backup.findBackupItems(...args);
  hasRestoreTarget: SimulatedBackupService['hasRestoreTarget'] = (...args) =>
    this.backup.hasRestoreTarget(...args);
  restoreBackupItems: SimulatedBackupService['restoreBackupItems'] = (...args) =>
    this.backup.restoreBackupItems(...args);
  testConnectorConnection: SimulatedConnectorSources['testConnectorConnection'] = (...args) =>
    this.connectorSources.testConnectorConnection(...args);
  importConnectorData: SimulatedConnectorSources['importConnectorData'] = (...args) =>
    this.connectorSources.importConnectorData(...args);

  private em(): EntityManager {
    return this.store.em();
  }

  /** Failures a test asks of the next calls of a tenant's client (simulated-faults.ts). */
  readonly faults = new SimulatedFaults();

  /** Security controls and information barriers (simulated-posture.ts). */
  readonly posture = new SimulatedPosture(() => this.em(), { now: () => this.clock.now() });
  listSecurityControls = (tenant: string) => this.posture.listSecurityControls(tenant);
  previewSecurityControl = (tenant: string, control: string) =>
    this.posture.previewSecurityControl(tenant, control);
  applySecurityControl = (tenant: string, control: string, requestKey?: string) =>
    this.posture.applySecurityControl(tenant, control, requestKey);
  applyInformationBarriers = (tenant: string, policySet: CloudBarrierPolicySet) =>
    this.posture.applyInformationBarriers(tenant, policySet);

  /** Delegated admin relationships: which partners each tenant granted (consent.simulated.ts). */
  readonly consent = new SimulatedConsent(() => this.em(), { now: () => this.clock.now() });
  getDelegatedAccess: SimulatedConsent['getDelegatedAccess'] = (...args) =>
    this.consent.getDelegatedAccess(...args);
  listDelegatedCustomers: SimulatedConsent['listDelegatedCustomers'] = (request) =>
    this.consent.listDelegatedCustomers(request);

  private list<T>(tenantExternalId: string, kind: SimulatedObjectKind): Promise<T[]> {
    return this.store.list<T>(tenantExternalId, kind);
  }

  async getTenant(tenantExternalId: string): Promise<CloudTenantRecord> {
    const tenant = await this.store.requireTenant(this.em(), tenantExternalId);
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
    if (!input.requestKey) return this.createUserNow(tenantExternalId, input);
    const requestKey = input.requestKey;
    // One user per request key: the key's record and the user are written together, and a repeated key
    // answers the user of the first call (as Microsoft Graph's client request ids let a caller check).
    return this.em().transactional(async (em) => {
      const seen = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'write_request',
        externalId: requestKey,
      });
      if (seen) {
        const user = await em.findOne(SimulatedCloudObject, {
          tenantExternalId,
          kind: 'user',
          externalId: (seen.data as { userExternalId: string }).userExternalId,
        });
        if (user) return user.data as unknown as CloudUserRecord;
      }
      const created = await this.createUserNow(tenantExternalId, input, em);
      await this.put(em, tenantExternalId, 'write_request', requestKey, {
        userExternalId: created.externalId,
      });
      return created;
    });
  }

  private async createUserNow(
    tenantExternalId: string,
    input: CloudUserInput,
    em = this.em(),
  ): Promise<CloudUserRecord> {
    await this.store.requireTenant(em, tenantExternalId);
    const { password: _password, requestKey: _requestKey, ...profile } = input;
    void _requestKey;
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
      await this.store.patchIn(em, tenantExternalId, 'user', userExternalId, {
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

  /** Guest invitations (simulated-guests.ts); mail contacts and restricted senders (simulated-exchange.ts). */
  readonly guests: SimulatedGuests;
  readonly exchange: SimulatedExchange;
  inviteGuest: SimulatedGuests['inviteGuest'] = (...args) => this.guests.inviteGuest(...args);
  resendInvitation: SimulatedGuests['resendInvitation'] = (...args) => this.guests.resendInvitation(...args);
  /** A test and demo hook: the guest redeems its invitation. */
  acceptInvitation = (tenantExternalId: string, userExternalId: string) =>
    this.guests.acceptInvitation(tenantExternalId, userExternalId);
  listContacts: SimulatedExchange['listContacts'] = (...args) => this.exchange.listContacts(...args);
  createContacts: SimulatedExchange['createContacts'] = (...args) => this.exchange.createContacts(...args);
  updateContact: SimulatedExchange['updateContact'] = (...args) => this.exchange.updateContact(...args);
  deleteContact: SimulatedExchange['deleteContact'] = (...args) => this.exchange.deleteContact(...args);
  listRestrictedSenders: SimulatedExchange['listRestrictedSenders'] = (...args) =>
    this.exchange.listRestrictedSenders(...args);
  unblockSender: SimulatedExchange['unblockSender'] = (...args) => this.exchange.unblockSender(...args);
  /** A test and demo hook: the mail service restricts a sender. */
  restrictSender: SimulatedExchange['restrictSender'] = (...args) => this.exchange.restrictSender(...args);

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

  /** Tenants with their generated directories, and time passing upstream (simulated-tenants.ts). */
  readonly tenants: SimulatedTenants;
  createTenant: SimulatedTenants['createTenant'] = (...args) => this.tenants.createTenant(...args);
  advance: SimulatedTenants['advance'] = (...args) => this.tenants.advance(...args);
  tenantsWithDomains: SimulatedTenants['tenantsWithDomains'] = (...args) =>
    this.tenants.tenantsWithDomains(...args);
  freeInitialDomain: SimulatedTenants['freeInitialDomain'] = (...args) =>
    this.tenants.freeInitialDomain(...args);

  /** Inserts or replaces one object (tests and the factories write upstream objects through it). */
  put: SimulatedObjectStore['put'] = (...args) => this.store.put(...args);

  private patch: SimulatedObjectStore['patch'] = (...args) => this.store.patch(...args);
}
