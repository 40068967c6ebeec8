import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import type {
  CloudGroupRecord,
  CloudLicenseAssignmentRecord,
  CloudProvider,
  CloudSignInRecord,
  CloudSkuRecord,
  CloudTenantRecord,
  CloudUserInput,
  CloudUserPatch,
  CloudUserRecord,
} from '../provider.js';
import {
  SimulatedCloudObject,
  SimulatedCloudTenant,
  type SimulatedObjectKind,
} from './simulated-cloud.entity.js';

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
  constructor(
    private readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  private em(): EntityManager {
    return this.orm.em.fork();
  }

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
      { tenantExternalId, kind, externalId, data, updatedAt: this.clock.now() },
      { onConflictFields: ['tenantExternalId', 'kind', 'externalId'], onConflictAction: 'merge' },
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
