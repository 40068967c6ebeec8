import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import {
  type CloudGroupRecord,
  type CloudLicenseAssignmentRecord,
  type CloudSignInRecord,
  type CloudSkuRecord,
  type CloudTenantRecord,
  type CloudUserRecord,
} from '../provider.js';
import { SimulatedBackupService } from './simulated-backup.js';
import { SimulatedConnectorSources } from './simulated-connector-source.js';
import { SimulatedUserManagementCloud } from './simulated-user-management.js';
import { SimulatedExchange } from './simulated-exchange.js';
import { SimulatedGuests } from './simulated-guests.js';
import { SimulatedObjectStore } from './simulated-object-store.js';
import { SimulatedTenants } from './simulated-tenants.js';
import { SimulatedUserWrites } from './simulated-user-writes.js';
import type { SimulatedObjectKind } from './simulated-cloud.entity.js';
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
    this.userWrites = new SimulatedUserWrites(this.store, (em, tenant, user) =>
      this.userManagement.forgetUser(em, tenant, user),
    );
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

  /** Users and their licenses written (simulated-user-writes.ts). */
  private readonly userWrites: SimulatedUserWrites;
  createUser: SimulatedUserWrites['createUser'] = (...args) => this.userWrites.createUser(...args);
  updateUser: SimulatedUserWrites['updateUser'] = (...args) => this.userWrites.updateUser(...args);
  deleteUser: SimulatedUserWrites['deleteUser'] = (...args) => this.userWrites.deleteUser(...args);
  restoreUser: SimulatedUserWrites['restoreUser'] = (...args) => this.userWrites.restoreUser(...args);
  purgeUser: SimulatedUserWrites['purgeUser'] = (...args) => this.userWrites.purgeUser(...args);
  revokeSessions: SimulatedUserWrites['revokeSessions'] = (...args) =>
    this.userWrites.revokeSessions(...args);
  assignLicense: SimulatedUserWrites['assignLicense'] = (...args) => this.userWrites.assignLicense(...args);
  removeLicense: SimulatedUserWrites['removeLicense'] = (...args) => this.userWrites.removeLicense(...args);

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
}
