import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { SimulatedCloudObject } from './simulated-cloud.entity.js';

/** Where a simulated cloud object lives: its tenant, its kind and its id there. */
export interface SimulatedObjectKey {
  tenantExternalId: string;
  kind: SimulatedCloudObject['kind'];
  externalId: string;
}

/** Reads one object locked for update inside the caller's transaction (a second object, e.g. the device). */
export function lockObject(em: EntityManager, key: SimulatedObjectKey): Promise<SimulatedCloudObject | null> {
  return em.findOne(SimulatedCloudObject, { ...key }, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

/**
 * The simulated cloud's read–modify–write of one object: in a transaction, the row locked for update, so
 * two concurrent calls (two workers polling one device action, two unblocks) see each other's change
 * instead of both acting on the old state. `change` edits the row (flushed on commit); null when the
 * object does not exist.
 */
export function withLockedObject<T>(
  em: EntityManager,
  key: SimulatedObjectKey,
  change: (row: SimulatedCloudObject, em: EntityManager) => Promise<T> | T,
): Promise<T | null> {
  return em.transactional(async (tx) => {
    const row = await lockObject(tx, key);
    return row ? change(row, tx) : null;
  });
}
