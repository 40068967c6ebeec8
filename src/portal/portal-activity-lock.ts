import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Takes the per-tenant locks of the portal's kept counts (docs/portal.md "One writer per tenant at a time") for
 * several tenants at once, in the one order every taker uses: `portal_activity_lock` (the counts' migration) sorts
 * by tenant id, and the triggers take theirs through it. A transaction that writes the users, assignments or held
 * SKUs of more than one tenant in separate statements calls this first with all of them: each trigger's lock is
 * then one it already holds (transaction-level advisory locks are re-entrant), so it never holds A while waiting
 * for B against a transaction doing the reverse (the deadlock docs/portal.md "Why the lock stays" describes).
 */
export async function lockPortalCounts(em: EntityManager, tenantIds: readonly string[]): Promise<void> {
  if (tenantIds.length === 0) return;
  await em.execute('select portal_activity_lock(array[?]::uuid[])', [[...tenantIds]]);
}
