import type { AutomaticRepliesSetting, PasswordProfile } from '@microsoft/microsoft-graph-types';
import { CloudError, isCloudError } from '../cloud-error.js';
import type { UserManagementCloud, UserManagementOperation } from '../user-management.provider.js';
import type { GraphTenantClient } from './graph-client.js';
import { MICROSOFT365 } from './graph-errors.js';
import { transferDriveItems } from './graph-onedrive.js';
import { unsupportedError } from './graph-capabilities.js';

/** Graph's 400 for a password its own rules refuse (complexity, banned passwords, recent reuse). */
const PASSWORD_REFUSED =
  /password (does not comply|complexity)|does not comply with password|banned password/i;

const user = (id: string) => `/users/${encodeURIComponent(id)}`;

/** The operations Graph v1.0 has no API for, by the capability they belong to (graph-capabilities.ts says why). */
const UNSUPPORTED: Partial<Record<UserManagementOperation, string>> = {
  getMailbox: 'sharedMailboxes',
  convertMailboxToShared: 'sharedMailboxes',
  addMailboxDelegate: 'mailboxDelegation',
  listDriveItems: 'deletedUserOneDrive',
  grantDriveAccess: 'deletedUserOneDrive',
};

/** A method of a capability Graph v1.0 has no API for. */
const unsupported = (operation: UserManagementOperation) => () =>
  Promise.reject(unsupportedError(UNSUPPORTED[operation]!));

/**
 * Graph's automatic replies (learn.microsoft.com, "Update user mailbox settings"): one message, inside and
 * outside the organization, always on; null turns them off (the messages are kept by Exchange, unused).
 */
function autoReplySetting(message: string | null): AutomaticRepliesSetting {
  if (message === null) return { status: 'disabled' };
  return {
    status: 'alwaysEnabled',
    externalAudience: 'all',
    internalReplyMessage: message,
    externalReplyMessage: message,
  };
}

/**
 * User management of one Microsoft 365 tenant: password reset (`PATCH /users/{id}` passwordProfile), removal
 * from a group (`DELETE /groups/{id}/members/{userId}/$ref`), the automatic reply
 * (`PATCH /users/{id}/mailboxSettings`) and moving a user's files to another's OneDrive (graph-onedrive.ts).
 * The mailbox's type and full-access delegation belong to Exchange Online PowerShell, and a deleted user's
 * OneDrive is no longer reachable through the user (see graph-capabilities.ts): those answer Unsupported
 * naming the capability, never a pretended success.
 */
export function graphUserManagement(graph: GraphTenantClient): UserManagementCloud {
  return {
    async assertSupports(operations) {
      const missing = operations.find((operation) => UNSUPPORTED[operation] !== undefined);
      if (missing) throw unsupportedError(UNSUPPORTED[missing]!);
    },
    async resetPassword(userExternalId, reset) {
      const passwordProfile: PasswordProfile = {
        password: reset.password,
        forceChangePasswordNextSignIn: reset.forceChangeAtNextSignIn,
      };
      await graph.patch(user(userExternalId), { passwordProfile }).catch((error: unknown) => {
        throw isCloudError(error, 'Refused') && PASSWORD_REFUSED.test(error.message)
          ? new CloudError('Refused', error.message, {
              provider: MICROSOFT365,
              cloudCode: error.cloudCode,
              refusal: 'PASSWORD_REJECTED',
              cause: error.cause,
            })
          : error;
      });
    },
    async removeGroupMember(groupExternalId, userExternalId) {
      const path = `/groups/${encodeURIComponent(groupExternalId)}/members/${encodeURIComponent(userExternalId)}/$ref`;
      // 404: not a member (or the group is gone): what was asked already holds.
      await graph.delete(path).catch((error: unknown) => {
        if (!isCloudError(error, 'NotFound')) throw error;
      });
    },
    async setAutoReply(userExternalId, message) {
      await graph.patch(`${user(userExternalId)}/mailboxSettings`, {
        automaticRepliesSetting: autoReplySetting(message),
      });
    },
    getMailbox: unsupported('getMailbox'),
    convertMailboxToShared: unsupported('convertMailboxToShared'),
    addMailboxDelegate: unsupported('addMailboxDelegate'),
    transferFiles: (fromExternalId, toExternalId) => transferDriveItems(graph, fromExternalId, toExternalId),
    listDriveItems: unsupported('listDriveItems'),
    grantDriveAccess: unsupported('grantDriveAccess'),
  };
}
