import type { CloudPages } from '../pages.js';
import type { TenantCloud } from '../tenant-cloud.js';
import type { SimulatedCloudProvider } from './simulated-cloud.provider.js';
import type { SimulatedCall } from './simulated-faults.js';

/**
 * One customer tenant's client of the simulated cloud: each method calls the simulated cloud's own
 * (tenant-first) method with the bound tenant, after the fault a test may have injected for it
 * (simulated-faults.ts); lists are read when their first page is asked for and given in pages of
 * `cloud.pageSize`. Built by SimulatedPartnerCloud.forTenant once consent is established.
 */
export function simulatedTenantCloud(cloud: SimulatedCloudProvider, tenant: string): TenantCloud {
  /** The call, unless a fault is due for it: then the fault, and nothing reaches the cloud. */
  const op = async <T>(call: SimulatedCall, run: () => Promise<T>): Promise<T> => {
    cloud.faults.check(tenant, call);
    return run();
  };
  /** A list: read when iterated, then given page by page. */
  const list = <T>(call: SimulatedCall, load: () => Promise<T[]>): CloudPages<T> => ({
    async *[Symbol.asyncIterator]() {
      cloud.faults.check(tenant, call);
      const all = await load();
      const size = Math.max(1, cloud.pageSize);
      for (let start = 0; start < all.length; start += size) yield all.slice(start, start + size);
    },
  });
  const { security, userManagement, deviceManagement, backup, connectorSources, posture } = cloud;
  return {
    tenantExternalId: tenant,
    directory: {
      getTenant: () => op('directory.getTenant', () => cloud.getTenant(tenant)),
      listUsers: () => list('directory.listUsers', () => cloud.listUsers(tenant)),
      // No change tracking: every round is the whole directory, and no cursor is kept.
      readUsers: () =>
        op('directory.listUsers', async () => ({
          kind: 'complete' as const,
          users: await cloud.listUsers(tenant),
          cursor: null,
          signInActivity: { available: true as const },
        })),
      listGroups: () => list('directory.listGroups', () => cloud.listGroups(tenant)),
      listSignIns: (since) => list('directory.listSignIns', () => cloud.listSignIns(tenant, since)),
      createUser: (input) => op('directory.createUser', () => cloud.createUser(tenant, input)),
      updateUser: (user, patch) => op('directory.updateUser', () => cloud.updateUser(tenant, user, patch)),
      deleteUser: (user) => op('directory.deleteUser', () => cloud.deleteUser(tenant, user)),
      restoreUser: (user, restore) =>
        op('directory.restoreUser', () => cloud.restoreUser(tenant, user, restore)),
      purgeUser: (user) => op('directory.purgeUser', () => cloud.purgeUser(tenant, user)),
      revokeSessions: (user) => op('directory.revokeSessions', () => cloud.revokeSessions(tenant, user)),
      inviteGuest: (invitation) => op('directory.inviteGuest', () => cloud.inviteGuest(tenant, invitation)),
      resendInvitation: (user) =>
        op('directory.resendInvitation', () => cloud.resendInvitation(tenant, user)),
    },
    licenses: {
      listSkus: () => list('licenses.listSkus', () => cloud.listSkus(tenant)),
      listLicenseAssignments: () =>
        list('licenses.listLicenseAssignments', () => cloud.listLicenseAssignments(tenant)),
      assignLicense: (user, sku) =>
        op('licenses.assignLicense', () => cloud.assignLicense(tenant, user, sku)),
      removeLicense: (user, sku) =>
        op('licenses.removeLicense', () => cloud.removeLicense(tenant, user, sku)),
    },
    contacts: {
      listContacts: () => list('contacts.listContacts', () => cloud.listContacts(tenant)),
      createContacts: (inputs) => op('contacts.createContacts', () => cloud.createContacts(tenant, inputs)),
      updateContact: (contact, input) =>
        op('contacts.updateContact', () => cloud.updateContact(tenant, contact, input)),
      deleteContact: (contact) => op('contacts.deleteContact', () => cloud.deleteContact(tenant, contact)),
    },
    exchange: {
      listRestrictedSenders: () =>
        list('exchange.listRestrictedSenders', () => cloud.listRestrictedSenders(tenant)),
      unblockSender: (restriction) =>
        op('exchange.unblockSender', () => cloud.unblockSender(tenant, restriction)),
    },
    security: {
      listAlerts: () => list('security.listAlerts', () => security.listAlerts(tenant)),
      updateAlert: (alert, change) =>
        op('security.updateAlert', () => security.updateAlert(tenant, alert, change)),
      addAlertComment: (alert, comment) =>
        op('security.addAlertComment', () => security.addAlertComment(tenant, alert, comment)),
      listDevices: () => list('security.listDevices', () => security.listDevices(tenant)),
      startDeviceAction: (device, request) =>
        op('security.startDeviceAction', () => security.startDeviceAction(tenant, device, request)),
      getDeviceAction: (action) =>
        op('security.getDeviceAction', () => security.getDeviceAction(tenant, action)),
      listDlpPolicies: () => list('security.listDlpPolicies', () => security.listDlpPolicies(tenant)),
      listDlpAlerts: () => list('security.listDlpAlerts', () => security.listDlpAlerts(tenant)),
    },
    userManagement: {
      // The simulated cloud has every operation.
      assertSupports: async () => undefined,
      resetPassword: (user, reset) =>
        op('userManagement.resetPassword', () => userManagement.resetPassword(tenant, user, reset)),
      getMailbox: (user) => op('userManagement.getMailbox', () => userManagement.getMailbox(tenant, user)),
      convertMailboxToShared: (user) =>
        op('userManagement.convertMailboxToShared', () =>
          userManagement.convertMailboxToShared(tenant, user),
        ),
      addMailboxDelegate: (user, delegate) =>
        op('userManagement.addMailboxDelegate', () =>
          userManagement.addMailboxDelegate(tenant, user, delegate),
        ),
      setAutoReply: (user, message) =>
        op('userManagement.setAutoReply', () => userManagement.setAutoReply(tenant, user, message)),
      removeGroupMember: (group, user) =>
        op('userManagement.removeGroupMember', () => userManagement.removeGroupMember(tenant, group, user)),
      transferFiles: (from, to) =>
        op('userManagement.transferFiles', () => userManagement.transferFiles(tenant, from, to)),
      listDriveItems: (user, page) =>
        op('userManagement.listDriveItems', () => userManagement.listDriveItems(tenant, user, page)),
      grantDriveAccess: (owner, grantee) =>
        op('userManagement.grantDriveAccess', () => userManagement.grantDriveAccess(tenant, owner, grantee)),
    },
    deviceManagement: {
      // The simulated cloud enforces no restriction of its own: our policies decide its attempts at sync.
      enrollmentConfigurations: null,
      listEnrollmentAttempts: (since) =>
        list('deviceManagement.listEnrollmentAttempts', () =>
          deviceManagement.listEnrollmentAttempts(tenant, since),
        ),
    },
    backup: {
      listBackupSnapshots: () => list('backup.listBackupSnapshots', () => backup.listBackupSnapshots(tenant)),
      getBackupSnapshot: (snapshot) =>
        op('backup.getBackupSnapshot', () => backup.getBackupSnapshot(tenant, snapshot)),
      listBackupItems: (snapshot, parent, offset, limit) =>
        op('backup.listBackupItems', () => backup.listBackupItems(tenant, snapshot, parent, offset, limit)),
      findBackupItems: (snapshot, ids) =>
        op('backup.findBackupItems', () => backup.findBackupItems(tenant, snapshot, ids)),
      hasRestoreTarget: (workload, owner) =>
        op('backup.hasRestoreTarget', () => backup.hasRestoreTarget(tenant, workload, owner)),
      // The simulated backup service carries out every restore the API describes.
      checkRestore: () => Promise.resolve(),
      restoreBackupItems: (request) =>
        op('backup.restoreBackupItems', () =>
          backup.restoreBackupItems({ ...request, tenantExternalId: tenant }),
        ),
    },
    connectorSources: {
      testConnectorConnection: (source) =>
        op('connectorSources.testConnectorConnection', () =>
          connectorSources.testConnectorConnection(tenant, source),
        ),
      importConnectorData: (request) =>
        op('connectorSources.importConnectorData', () =>
          connectorSources.importConnectorData(tenant, request),
        ),
    },
    securityPosture: {
      listSecurityControls: () =>
        list('securityPosture.listSecurityControls', () => posture.listSecurityControls(tenant)),
      previewSecurityControl: (control) =>
        op('securityPosture.previewSecurityControl', () => posture.previewSecurityControl(tenant, control)),
      applySecurityControl: (control, requestKey) =>
        op('securityPosture.applySecurityControl', () =>
          posture.applySecurityControl(tenant, control, requestKey),
        ),
      applyInformationBarriers: (policySet) =>
        op('securityPosture.applyInformationBarriers', () =>
          posture.applyInformationBarriers(tenant, policySet),
        ),
    },
  };
}
