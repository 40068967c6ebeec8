import type { Invitation, User } from '@microsoft/microsoft-graph-types';
import { isCloudError } from '../cloud-error.js';
import type { CloudPages } from '../pages.js';
import type {
  CloudGuestInvitation,
  CloudUserInput,
  CloudUserPatch,
  CloudUserRecord,
  CloudUserRestore,
} from '../provider.js';
import type { CloudDirectory } from '../tenant-cloud.js';
import type { GraphTenantClient } from './graph-client.js';
import { readOrganization } from './graph-directory.js';
import { graphGroups, graphSignIns } from './graph-directory-reads.js';
import { cloudUserOf, graphNewUser, graphUserFields, USER_SELECT } from './graph-user-records.js';
import { graphUserRound } from './graph-user-round.js';

/** Where an invited guest lands when the invitation names no page (Graph requires one). */
export const DEFAULT_INVITE_REDIRECT_URL = 'https://myapps.microsoft.com';

const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`;

/**
 * The directory of one customer tenant on Microsoft Graph v1.0 (docs/microsoft365.md, "What each area does
 * live"). The sync reads users with `readUsers` (graph-user-round.ts): a full `/users/delta` round plus the
 * recycle bin, then the changes since the stored deltaLink.
 */
export function graphDirectory(graph: GraphTenantClient, graphUrl: string, now: () => Date): CloudDirectory {
  const userPath = (id: string) => `/users/${encodeURIComponent(id)}`;
  const readUser = async (id: string, roles?: string[]): Promise<CloudUserRecord | null> => {
    try {
      const user = await graph.get<User>(userPath(id), { query: { $select: USER_SELECT } });
      return cloudUserOf(user, { roles });
    } catch (error) {
      if (isCloudError(error, 'NotFound')) return null;
      throw error;
    }
  };
  const setManager = async (id: string, managerId: string | null) => {
    if (managerId === null) {
      try {
        await graph.delete(`${userPath(id)}/manager/$ref`);
      } catch (error) {
        // No manager to remove: the wanted state already.
        if (!isCloudError(error, 'NotFound')) throw error;
      }
      return;
    }
    await graph.put(`${userPath(id)}/manager/$ref`, {
      '@odata.id': `${graphUrl}/v1.0/users/${encodeURIComponent(managerId)}`,
    });
  };
  const findByUpn = async (userPrincipalName: string): Promise<CloudUserRecord | null> => {
    const found = await graph.get<{ value?: User[] }>('/users', {
      query: { $filter: `userPrincipalName eq ${quoted(userPrincipalName)}`, $select: USER_SELECT },
    });
    return found.value?.[0] ? cloudUserOf(found.value[0]) : null;
  };
  const invite = (body: Invitation) => graph.post<Invitation>('/invitations', body);

  return {
    async getTenant() {
      const organization = await readOrganization(graph);
      return {
        externalId: organization.tenantId,
        displayName: organization.displayName,
        domains: organization.domains,
      };
    },

    listUsers(): CloudPages<CloudUserRecord> {
      // Every user (a full round): read whole, since the round's other reads (roles, sign-ins) are too.
      return (async function* () {
        yield (await graphUserRound(graph, graphUrl, null)).users;
      })();
    },

    readUsers: (cursor) => graphUserRound(graph, graphUrl, cursor),

    listGroups: () => graphGroups(graph),

    listSignIns: (since) => graphSignIns(graph, since),

    async createUser(input: CloudUserInput) {
      // Graph has no idempotency key: a retried write looks its user up by UPN before creating it again.
      if (input.requestKey) {
        const existing = await findByUpn(input.userPrincipalName);
        if (existing) return existing;
      }
      const created = await graph.post<User>('/users', graphNewUser(input));
      if (input.managerExternalId) await setManager(created.id!, input.managerExternalId);
      return cloudUserOf(created, { managerId: input.managerExternalId ?? null });
    },

    async updateUser(id: string, patch: CloudUserPatch) {
      const { managerExternalId, ...profile } = patch;
      const fields = graphUserFields(profile);
      if (Object.keys(fields).length > 0) await graph.patch(userPath(id), fields);
      if (managerExternalId !== undefined) await setManager(id, managerExternalId);
    },

    async deleteUser(id: string) {
      await graph.delete(userPath(id));
    },

    async restoreUser(id: string, restore: CloudUserRestore) {
      try {
        await graph.post(`/directory/deletedItems/${encodeURIComponent(id)}/restore`, {});
      } catch (error) {
        if (!isCloudError(error, 'NotFound')) throw error;
        // Not in the recycle bin: restored already (the same values are given again), or purged (null).
        if (!(await readUser(id))) return null;
      }
      await graph.patch(userPath(id), {
        userPrincipalName: restore.userPrincipalName,
        accountEnabled: restore.accountEnabled,
      });
      return readUser(id);
    },

    async purgeUser(id: string) {
      try {
        await graph.delete(`/directory/deletedItems/${encodeURIComponent(id)}`);
        return true;
      } catch (error) {
        if (!isCloudError(error, 'NotFound')) throw error;
        // Not in the recycle bin: active again upstream (false), or gone already (purged: true).
        return (await readUser(id)) === null;
      }
    },

    async revokeSessions(id: string) {
      await graph.post(`${userPath(id)}/revokeSignInSessions`, {});
    },

    async inviteGuest(invitation: CloudGuestInvitation) {
      const sent = await invite({
        invitedUserEmailAddress: invitation.email,
        invitedUserDisplayName: invitation.displayName,
        inviteRedirectUrl: invitation.redirectUrl ?? DEFAULT_INVITE_REDIRECT_URL,
        sendInvitationMessage: invitation.sendInvitation,
        ...(invitation.personalMessage
          ? { invitedUserMessageInfo: { customizedMessageBody: invitation.personalMessage } }
          : {}),
      });
      const guestId = sent.invitedUser?.id ?? '';
      // The invitation takes a display name only; the given name and surname follow (empty ones are not sent).
      const names = graphUserFields({
        ...(invitation.firstName ? { firstName: invitation.firstName } : {}),
        ...(invitation.lastName ? { lastName: invitation.lastName } : {}),
      });
      if (Object.keys(names).length > 0) await graph.patch(userPath(guestId), names);
      const guest = (await readUser(guestId)) ?? cloudUserOf({ ...sent.invitedUser, ...names });
      return {
        ...guest,
        guest: {
          source: 'Invited user',
          invitationStatus: 'Pending',
          invitedBy: invitation.invitedBy,
          invitedAt: guest.createdAt,
          invitationSentAt: invitation.sendInvitation ? now().toISOString() : null,
          acceptedAt: null,
          personalMessage: invitation.personalMessage,
          redirectUrl: invitation.redirectUrl,
        },
      };
    },

    async resendInvitation(id: string) {
      const guest = await readUser(id);
      if (!guest || guest.userType !== 'Guest' || guest.guest?.invitationStatus !== 'Pending') return guest;
      // Graph resends by inviting the same user again (learn.microsoft.com, "invitation: resend").
      await invite({
        invitedUserEmailAddress: guest.mail ?? '',
        inviteRedirectUrl: DEFAULT_INVITE_REDIRECT_URL,
        sendInvitationMessage: true,
        invitedUser: { id },
      });
      return { ...guest, guest: { ...guest.guest, invitationSentAt: now().toISOString() } };
    },
  };
}
