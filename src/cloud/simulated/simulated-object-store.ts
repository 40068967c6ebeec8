import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../core/clock.js';
import { CloudError } from '../cloud-error.js';
import {
  SimulatedCloudObject,
  SimulatedCloudTenant,
  type SimulatedObjectKind,
} from './simulated-cloud.entity.js';

/** Rows per INSERT statement when many objects are written at once (a generated directory, a contact import). */
export const INSERT_CHUNK = 500;

/** What the simulated cloud answers for an object it does not hold. */
export function cloudObjectNotFound(kind: string, externalId: string): CloudError {
  return new CloudError('NotFound', `The upstream cloud has no ${kind} ${externalId}`, {
    provider: 'simulated',
  });
}

/**
 * The simulated cloud's objects (`sim_cloud_objects`, one JSON document per tenant, kind and upstream id): the
 * reads and writes every part of the simulated cloud shares (the provider, its guests and Exchange parts).
 */
export class SimulatedObjectStore {
  constructor(
    private readonly orm: MikroORM,
    readonly clock: Clock,
  ) {}

  em(): EntityManager {
    return this.orm.em.fork();
  }

  async list<T>(tenantExternalId: string, kind: SimulatedObjectKind): Promise<T[]> {
    const rows = await this.em().find(
      SimulatedCloudObject,
      { tenantExternalId, kind },
      { orderBy: { externalId: 'asc' }, fields: ['data'] },
    );
    return rows.map((row) => row.data as T);
  }

  async requireTenant(em: EntityManager, tenantExternalId: string): Promise<SimulatedCloudTenant> {
    const tenant = await em.findOne(SimulatedCloudTenant, { externalId: tenantExternalId });
    if (!tenant) throw cloudObjectNotFound('tenant', tenantExternalId);
    return tenant;
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

  /** Merges `patch` into one object, in its own transaction (404-like error when it does not exist). */
  patch(
    tenantExternalId: string,
    kind: SimulatedObjectKind,
    externalId: string,
    patch: object,
  ): Promise<void> {
    return this.em().transactional((em) => this.patchIn(em, tenantExternalId, kind, externalId, patch));
  }

  /** The same inside the caller's transaction. */
  async patchIn(
    em: EntityManager,
    tenantExternalId: string,
    kind: SimulatedObjectKind,
    externalId: string,
    patch: object,
  ): Promise<void> {
    const row = await em.findOne(SimulatedCloudObject, { tenantExternalId, kind, externalId });
    if (!row) throw cloudObjectNotFound(kind, externalId);
    row.data = { ...row.data, ...patch };
    row.updatedAt = this.clock.now();
  }
}
