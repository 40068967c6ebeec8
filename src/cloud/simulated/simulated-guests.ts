import { randomUUID } from 'node:crypto';
import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import {
  cloudUserRecord,
  type CloudGuestInvitation,
  type CloudGuestRecord,
  type CloudUserRecord,
} from '../provider.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import { initialDomainOf } from './simulated-directory-builder.js';
import type { SimulatedObjectStore } from './simulated-object-store.js';

/**
 * Guest invitations of the simulated cloud (SPEC 2.3 guests; docs/identity.md): the invited user, the
 * invitation mails it "sends" (kept as objects, so tests and demos can see them), resends and redemption.
 */
export class SimulatedGuests {
  constructor(private readonly store: SimulatedObjectStore) {}

  async inviteGuest(tenantExternalId: string, invitation: CloudGuestInvitation): Promise<CloudUserRecord> {
    const em = this.store.em();
    const tenant = await this.store.requireTenant(em, tenantExternalId);
    const now = this.store.clock.now().toISOString();
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
      await this.store.put(tx, tenantExternalId, 'user', record.externalId, { ...record });
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
    return this.store.em().transactional(async (em) => {
      const row = await em.findOne(
        SimulatedCloudObject,
        { tenantExternalId, kind: 'user', externalId: userExternalId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (!row || row.data.deletedAt) return null;
      const record = row.data as unknown as CloudUserRecord;
      if (record.guest?.invitationStatus !== 'Pending') return record;
      const now = this.store.clock.now();
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
    return this.store.em().transactional(async (em) => {
      const row = await em.findOne(SimulatedCloudObject, {
        tenantExternalId,
        kind: 'user',
        externalId: userExternalId,
      });
      const record = row?.data as unknown as CloudUserRecord | undefined;
      if (!row || !record?.guest || record.guest.invitationStatus !== 'Pending') return false;
      const now = this.store.clock.now();
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
    await this.store.put(em, tenantExternalId, 'invitation_mail', id, {
      id,
      userExternalId: guest.externalId,
      to: guest.mail ?? null,
      personalMessage: content.personalMessage,
      redirectUrl: content.redirectUrl,
      sentAt: this.store.clock.now().toISOString(),
    });
  }
}
