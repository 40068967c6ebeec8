import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS, type Clock } from '../core/clock.js';
import type { Scope } from '../core/scope.js';
import { computeSecureScore, type ScoredState } from '../secure-score/secure-score.js';
import { TENANT_STATES_SQL } from '../secure-score/secure-score.service.js';
import { AccountStatus } from '../users/user.enums.js';

/** A licensed user who is disabled, or has not signed in for this many days, counts as inactive. */
export const INACTIVE_AFTER_DAYS = 30;

/** Tenants recounted per statement: bounds the memory of one recount whatever the fleet's size. */
export const REFRESH_BATCH_TENANTS = 1000;
/** Dirty marks taken per refresh transaction (a burst of writes is absorbed over several passes). */
const DIRTY_MARKS_PER_PASS = 5000;

/**
 * Recounts the portal's per-tenant aggregates (docs/portal.md "Aggregates"): the secure score, the inactive
 * assignments per SKU and the inactive licensed users. Every write path stays correct under concurrency because
 * nothing is added or subtracted: a refresh recounts whole tenants from the committed rows, and a change that
 * commits after a recount read its rows has left its own dirty mark, which the next refresh sees.
 */
export class PortalAggregates {
  constructor(
    private readonly em: EntityManager,
    private readonly clock: Clock,
  ) {}

  /**
   * Every tenant of every organization, in batches by id (the scheduled full recalculation). The dirty marks
   * already committed when it starts are taken away at the end: every batch read after their changes. Marks
   * committed later stay, whichever batch they concern.
   */
  async refreshAll(): Promise<number> {
    const marks = await this.em
      .getConnection()
      .execute<Array<{ ids: string[] | null }>>(`select jsonb_agg(id) as ids from portal_dirty_tenants`);
    const refreshed = await this.recountEveryTenant();
    const seen = marks[0]?.ids ?? [];
    if (seen.length > 0)
      await this.em
        .getConnection()
        .execute(
          `delete from portal_dirty_tenants where id in (select value::bigint from jsonb_array_elements_text(?::jsonb))`,
          [JSON.stringify(seen)],
          'run',
        );
    return refreshed;
  }

  private async recountEveryTenant(): Promise<number> {
    let after = '00000000-0000-0000-0000-000000000000';
    let refreshed = 0;
    for (;;) {
      const rows = await this.em
        .getConnection()
        .execute<Array<{ id: string }>>(`select id from tenants where id > ? order by id limit ?`, [
          after,
          REFRESH_BATCH_TENANTS,
        ]);
      if (rows.length === 0) return refreshed;
      const ids = rows.map((row) => row.id);
      await this.em.transactional((tx) => this.recount(tx, ids));
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
        await this.recount(tx, ids);
        return { marks: marks.length, tenants: ids.length };
      });
      refreshed += count.tenants;
      if (count.marks < DIRTY_MARKS_PER_PASS) return refreshed;
    }
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

  /** Two statements for any number of tenants: their recommendation states, then one upsert of every figure. */
  private async recount(tx: EntityManager, tenantIds: string[]): Promise<void> {
    if (tenantIds.length === 0) return;
    // The recount hashes every assignment of the batch against its users: with the default 4 MB of work memory
    // that hash spills to disk in batches at a thousand tenants of a thousand users each.
    await tx.execute(`set local work_mem = '64MB'`, [], 'run');
    const now = this.clock.now();
    const inactiveSince = new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
    const states = await tx.execute<Array<{ id: string; states: ScoredState[] }>>(
      `select t.id, ${TENANT_STATES_SQL} as states from tenants t where t.id in (?)`,
      [tenantIds],
    );
    const scores = states.map((tenant) => ({
      tenant_id: tenant.id,
      percent: tenant.states.length > 0 ? computeSecureScore(tenant.states).percentage : null,
    }));
    await tx.execute(
      `with target as (
         select t.id, t.organization_id, t.environment from tenants t where t.id in (?)
       ), inactive as (
         select la.tenant_id, la.sku_id, la.user_id
           from license_assignments la
           join users u on u.id = la.user_id
          where la.tenant_id in (?)
            and u.deleted_at is null
            and (u.account_status = ? or coalesce(u.last_sign_in_at, u.created_at) <= ?::timestamptz)
       ), by_sku as (
         select tenant_id, jsonb_object_agg(sku_id, assignments) as counts
           from (select tenant_id, sku_id, count(*) as assignments from inactive group by tenant_id, sku_id) s
          group by tenant_id
       ), held_users as (
         select i.tenant_id, count(distinct i.user_id) as users
           from inactive i
           join tenant_licenses held on held.tenant_id = i.tenant_id and held.sku_id = i.sku_id
          group by i.tenant_id
       ), scores as (
         select * from jsonb_to_recordset(?::jsonb) as s(tenant_id uuid, percent float8)
       )
       insert into portal_tenant_aggregates
         (id, organization_id, environment, tenant_id, secure_score_percent, inactive_licensed_users,
          inactive_by_sku, refreshed_at)
       select gen_random_uuid(), t.organization_id, t.environment, t.id, scores.percent, coalesce(h.users, 0),
              coalesce(b.counts, '{}'::jsonb), ?::timestamptz
         from target t
         left join by_sku b on b.tenant_id = t.id
         left join held_users h on h.tenant_id = t.id
         left join scores on scores.tenant_id = t.id
        order by t.id
       on conflict (tenant_id) do update set
         secure_score_percent = excluded.secure_score_percent,
         inactive_licensed_users = excluded.inactive_licensed_users,
         inactive_by_sku = excluded.inactive_by_sku,
         refreshed_at = excluded.refreshed_at`,
      [
        tenantIds,
        tenantIds,
        AccountStatus.DISABLED,
        inactiveSince.toISOString(),
        JSON.stringify(scores),
        now.toISOString(),
      ],
      'run',
    );
  }
}
