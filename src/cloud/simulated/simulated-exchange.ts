import { randomUUID } from 'node:crypto';
import type {
  CloudContactInput,
  CloudContactRecord,
  CloudRestrictedSenderRecord,
  CloudUserRecord,
} from '../provider.js';
import { withLockedObject } from './locked-object.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import { RESTRICTION_ACTIONS } from './simulated-restricted-senders.js';
import { cloudObjectNotFound, INSERT_CHUNK, type SimulatedObjectStore } from './simulated-object-store.js';

/** Mail contacts and restricted senders of the simulated cloud's mail service (SPEC 4.2 Exchange, contacts). */
export class SimulatedExchange {
  constructor(private readonly store: SimulatedObjectStore) {}

  listContacts(tenantExternalId: string): Promise<CloudContactRecord[]> {
    return this.store.list(tenantExternalId, 'contact');
  }

  /**
   * A contact arrives from the tenant's on-premises directory (a test and demo hook: a real cloud learns it
   * from its directory sync agent); read-only for the cloud's API and so for ours.
   */
  async addSyncedContact(tenantExternalId: string, input: CloudContactInput): Promise<CloudContactRecord> {
    const em = this.store.em();
    await this.store.requireTenant(em, tenantExternalId);
    const record: CloudContactRecord = {
      ...input,
      externalId: randomUUID(),
      onPremisesSynced: true,
      createdAt: this.store.clock.now().toISOString(),
    };
    await this.store.put(em, tenantExternalId, 'contact', record.externalId, { ...record });
    return record;
  }

  /** Replaces a contact as the on-premises directory changed it (hook, as above). */
  async changeSyncedContact(tenantExternalId: string, contactExternalId: string, input: CloudContactInput) {
    await this.store.patch(tenantExternalId, 'contact', contactExternalId, input);
  }

  async createContacts(tenantExternalId: string, inputs: CloudContactInput[]): Promise<CloudContactRecord[]> {
    const em = this.store.em();
    await this.store.requireTenant(em, tenantExternalId);
    const now = this.store.clock.now();
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
    await this.store.patch(tenantExternalId, 'contact', contactExternalId, input);
  }

  async deleteContact(tenantExternalId: string, contactExternalId: string): Promise<void> {
    await this.store.em().nativeDelete(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'contact',
      externalId: contactExternalId,
    });
  }

  listRestrictedSenders(tenantExternalId: string): Promise<CloudRestrictedSenderRecord[]> {
    return this.store.list(tenantExternalId, 'restricted_sender');
  }

  async unblockSender(
    tenantExternalId: string,
    restrictionExternalId: string,
  ): Promise<CloudRestrictedSenderRecord | null> {
    const key = { tenantExternalId, kind: 'restricted_sender' as const, externalId: restrictionExternalId };
    return withLockedObject(this.store.em(), key, (row) => {
      const record = row.data as unknown as CloudRestrictedSenderRecord;
      if (record.status !== 'Restricted') return record;
      const now = this.store.clock.now();
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
    restrictedAt: Date = this.store.clock.now(),
  ): Promise<CloudRestrictedSenderRecord> {
    const em = this.store.em();
    const user = await em.findOne(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'user',
      externalId: userExternalId,
    });
    if (!user) throw cloudObjectNotFound('user', userExternalId);
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
    await this.store.put(em, tenantExternalId, 'restricted_sender', record.externalId, { ...record });
    return record;
  }
}
