import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudUserInput,
  CloudUserPatch,
  CloudUserRecord,
  CloudUserRestore,
} from '../provider.js';
import { withLockedObject } from './locked-object.js';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';
import type { SimulatedObjectStore } from './simulated-object-store.js';

/**
 * Changes to a simulated tenant's users and their licenses (`SimulatedCloudProvider`'s user writes): create
 * (once per request key), update, soft delete, restore, purge, session revocation, license assignment.
 */
export class SimulatedUserWrites {
  constructor(
    private readonly store: SimulatedObjectStore,
    /** Removes a purged user's mailbox and files (simulated-user-management.ts). */
    private readonly forgetUser: (
      em: EntityManager,
      tenantExternalId: string,
      userExternalId: string,
    ) => Promise<void>,
  ) {}

  async createUser(tenantExternalId: string, input: CloudUserInput): Promise<CloudUserRecord> {
    if (!input.requestKey) return this.createUserNow(tenantExternalId, input);
    const requestKey = input.requestKey;
    // One user per request key: the key's record and the user are written together, and a repeated key
    // answers the user of the first call (as Microsoft Graph's client request ids let a caller check).
    return this.store.em().transactional(async (em) => {
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
      await this.store.put(em, tenantExternalId, 'write_request', requestKey, {
        userExternalId: created.externalId,
      });
      return created;
    });
  }

  private async createUserNow(
    tenantExternalId: string,
    input: CloudUserInput,
    em = this.store.em(),
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
      createdAt: this.store.clock.now().toISOString(),
      deletedAt: null,
    };
    await this.store.put(
      em,
      tenantExternalId,
      'user',
      record.externalId,
      record as unknown as Record<string, unknown>,
    );
    return record;
  }

  async updateUser(tenantExternalId: string, userExternalId: string, patch: CloudUserPatch): Promise<void> {
    await this.store.patch(tenantExternalId, 'user', userExternalId, patch);
  }

  async deleteUser(tenantExternalId: string, userExternalId: string): Promise<void> {
    await this.store.em().transactional(async (em) => {
      await this.store.patchIn(em, tenantExternalId, 'user', userExternalId, {
        deletedAt: this.store.clock.now().toISOString(),
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
    return withLockedObject(this.store.em(), key, (row) => {
      // Memberships, assignments and the manager were removed by the delete and stay removed. A user
      // already active (a repeated restore) is given the same values: the call converges.
      row.data = { ...row.data, ...restore, deletedAt: null };
      row.updatedAt = this.store.clock.now();
      return row.data as unknown as CloudUserRecord;
    });
  }

  async purgeUser(tenantExternalId: string, userExternalId: string): Promise<boolean> {
    return this.store.em().transactional(async (em) => {
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
      await this.forgetUser(em, tenantExternalId, userExternalId);
      return true;
    });
  }

  async revokeSessions(tenantExternalId: string, userExternalId: string): Promise<void> {
    await this.store.patch(tenantExternalId, 'user', userExternalId, {
      sessionsRevokedAt: this.store.clock.now().toISOString(),
    });
  }

  async assignLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void> {
    const record: CloudLicenseAssignmentRecord = { userExternalId, skuId };
    await this.store.put(this.store.em(), tenantExternalId, 'assignment', `${userExternalId}:${skuId}`, {
      ...record,
    });
  }

  async removeLicense(tenantExternalId: string, userExternalId: string, skuId: string): Promise<void> {
    await this.store.em().nativeDelete(SimulatedCloudObject, {
      tenantExternalId,
      kind: 'assignment',
      externalId: `${userExternalId}:${skuId}`,
    });
  }
}
