import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../core/clock.js';
import type { Scope } from '../core/scope.js';
import { computeSecureScore, percentageOf, type ScoredState } from '../secure-score/secure-score.js';
import { TENANT_STATES_SQL } from '../secure-score/secure-score.service.js';
import { recountStatement } from './portal-recount-statement.js';

export { INACTIVE_AFTER_DAYS } from './portal-recount-statement.js';

/** Tenants recounted per statement: bounds the memory of one recount whatever the fleet's size. */
export const REFRESH_BATCH_TENANTS = 1000;
/** Dirty marks taken per refresh transaction (a burst of writes is absorbed over several passes). */
const DIRTY_MARKS_PER_PASS = 5000;

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Recounts the portal's per-tenant aggregates (docs/portal.md "Aggregates"): the secure score, the inactive
 * assignments per SKU and the inactive licensed users, and tenant health's other stored signals (alerts,
 * devices, backups; their age against the clock is taken at read time, so it moves no figure). Every write path stays correct under concurrency because
 * nothing is added or subtracted: a refresh recounts whole tenants from the committed rows, and a change that
 * commits after a recount read its rows has left its own dirty mark, which the next refresh sees. The clock is
 * the only other thing that changes a figure, and only when a licensed user crosses the 30-day line: each
 * recount stores when the tenant's next crossing falls (`next_crossing_at`), so the scheduled job recounts the
 * tenants whose crossing has come and only confirms the others.
 */
export class PortalAggregates {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /**
   * The scheduled five-minute job: brings every tenant's figures up to the clock's time. Marked tenants are
   * recounted (refreshDirty); then tenants without figures or whose next crossing has come; the rest are exact
   * as stored (no write marked them and no user of theirs crossed the line since their recount), so their
   * `refreshed_at` moves to now in one statement. A write committing meanwhile keeps its mark and its tenant's
   * time, as in any recount. Returns the tenants recounted.
   */
  async refreshAll(): Promise<number> {
    await this.foldActivityCounts();
    const marked = await this.refreshDirty();
    const now = this.clock.now();
    const due = await this.recountTenants(
      `left join portal_tenant_aggregates a on a.tenant_id = t.id
        where (a.tenant_id is null or a.next_crossing_at <= ?::timestamptz)`,
      [now.toISOString()],
      now,
    );
    await this.em.getConnection().execute(
      `update portal_tenant_aggregates a set refreshed_at = ?::timestamptz
        where a.refreshed_at < ?::timestamptz
          and (a.next_crossing_at is null or a.next_crossing_at > ?::timestamptz)
          and not exists (select 1 from portal_dirty_tenants d where d.tenant_id = a.tenant_id)`,
      [now.toISOString(), now.toISOString(), now.toISOString()],
      'run',
    );
    return marked + due;
  }

  /**
   * The writes' triggers add a delta row per key and statement to portal_activity_counts; this folds each key's
   * rows into one (dropping those that sum to zero), in one statement. Deleting the rows it read and inserting
   * their sum together keeps every figure: a delta committed meanwhile was not read, so it stays as it is.
   */
  async foldActivityCounts(): Promise<void> {
    await this.em.getConnection().execute(
      `with folded as (
         delete from portal_activity_counts c
          using (select tenant_id, day, sku_id, disabled from portal_activity_counts
                  group by tenant_id, day, sku_id, disabled having count(*) > 1 or sum(n) = 0) k
          where c.tenant_id = k.tenant_id and c.day = k.day and c.sku_id is not distinct from k.sku_id
            and c.disabled = k.disabled
          returning c.organization_id, c.environment, c.tenant_id, c.sku_id, c.day, c.disabled, c.n
       )
       insert into portal_activity_counts (organization_id, environment, tenant_id, sku_id, day, disabled, n)
       select organization_id, environment, tenant_id, sku_id, day, disabled, sum(n)
         from folded group by organization_id, environment, tenant_id, sku_id, day, disabled
       having sum(n) <> 0`,
      [],
      'run',
    );
  }

  /**
   * Every tenant of every organization, whatever its marks and crossing (the bench's worst case: the first run,
   * or every tenant due at once). Marks stay for refreshDirty. Returns the tenants recounted.
   */
  async recountEveryTenant(): Promise<number> {
    return this.recountTenants('where true', [], this.clock.now());
  }

  /** The tenants `condition` selects (alias t for tenants), recounted in batches by id, one transaction each. */
  private async recountTenants(condition: string, params: unknown[], now: Date): Promise<number> {
    let after = FIRST_ID;
    let refreshed = 0;
    for (;;) {
      const rows = await this.em
        .getConnection()
        .execute<Array<{ id: string }>>(
          `select t.id from tenants t ${condition} and t.id > ? order by t.id limit ?`,
          [...params, after, REFRESH_BATCH_TENANTS],
        );
      if (rows.length === 0) return refreshed;
      const ids = rows.map((row) => row.id);
      await this.em.transactional((tx) => this.recount(tx, ids, now));
      refreshed += ids.length;
      if (rows.length < REFRESH_BATCH_TENANTS) return refreshed;
      after = ids[ids.length - 1];
    }
  }

  /**
   * Tenants marked dirty (of `scope` only, when given): each pass deletes the marks it sees and recounts those
   * tenants in one transaction, so a failed recount leaves its marks for the next try.
   */
  async refreshDirty(scope?: Scope): Promise<number> {
    let refreshed = 0;
    for (;;) {
      const count = await this.em.transactional(async (tx) => {
        const marks = await tx.execute<Array<{ tenant_id: string }>>(
          `delete from portal_dirty_tenants where id in (
             select id from portal_dirty_tenants
              where (?::uuid is null or (organization_id = ?::uuid and environment = ?))
              order by id limit ?)
           returning tenant_id`,
          [
            scope?.organizationId ?? null,
            scope?.organizationId ?? null,
            scope?.environment ?? null,
            DIRTY_MARKS_PER_PASS,
          ],
        );
        const ids = [...new Set(marks.map((mark) => mark.tenant_id))].sort();
        await this.recount(tx, ids, this.clock.now());
        return { marks: marks.length, tenants: ids.length };
      });
      refreshed += count.tenants;
      if (count.marks < DIRTY_MARKS_PER_PASS) return refreshed;
    }
  }

  /**
   * One tenant's figures recounted inside the caller's transaction (`this.em`: a tenant sync's), so the health
   * and the portal are right from the moment the sync commits instead of a minute later (issue #33 item 10).
   */
  async recountInTransaction(tenantId: string): Promise<void> {
    await this.recount(this.em, [tenantId], this.clock.now());
  }

  /** Whether any tenant of the scope changed since it was last counted (one indexed probe). */
  async hasDirty(scope: Scope): Promise<boolean> {
    const rows = await this.em
      .getConnection()
      .execute<Array<{ one: number }>>(
        `select 1 as one from portal_dirty_tenants where organization_id = ? and environment = ? limit 1`,
        [scope.organizationId, scope.environment],
      );
    return rows.length > 0;
  }

  /**
   * Two statements for any number of tenants: their recommendation states, then one upsert of every figure
   * (the license figures, and the health signals of docs/tenant-health.md: open High alerts, devices and
   * Non-Compliant devices, the oldest of the protected resources' newest backups).
   */
  private async recount(tx: EntityManager, tenantIds: string[], now: Date): Promise<void> {
    if (tenantIds.length === 0) return;
    // Nothing here reads every user: a tenant's counts by day of last activity are kept by the writes
    // (portal_activity_counts, docs/portal.md), and only the users whose last activity falls on the day the 30-day
    // line crosses are read one by one, from users_activity_index, with each tenant's next to cross it. With
    // parallel workers allowed the planner may pick a parallel scan, slower on a two-core machine whose other core
    // is serving requests.
    await tx.execute(`set local max_parallel_workers_per_gather = 0`, [], 'run');
    // A tenant whose sync read Microsoft's Secure Score is judged by that score, as its secure-score answer is
    // (source microsoft365, docs/microsoft365.md); the others by the score computed from their recommendations.
    const states = await tx.execute<
      Array<{ id: string; states: ScoredState[]; cloud_score: number | null; cloud_max_score: number | null }>
    >(
      `select t.id, ${TENANT_STATES_SQL} as states, c.score as cloud_score, c.max_score as cloud_max_score
         from tenants t left join cloud_secure_scores c on c.tenant_id = t.id
        where t.id in (?)`,
      [tenantIds],
    );
    const scores = states.map((tenant) => ({
      tenant_id: tenant.id,
      percent:
        tenant.cloud_score !== null && tenant.cloud_max_score !== null
          ? percentageOf({ score: tenant.cloud_score, maxScore: tenant.cloud_max_score })
          : tenant.states.length > 0
            ? computeSecureScore(tenant.states).percentage
            : null,
    }));
    const statement = recountStatement(tenantIds, now, JSON.stringify(scores));
    await tx.execute(statement.sql, statement.params, 'run');
  }
}
