import type { EntityManager } from '@mikro-orm/postgresql';
import { DAY_MS, type Clock } from '../core/clock.js';
import type { Scope } from '../core/scope.js';
import { computeSecureScore, type ScoredState } from '../secure-score/secure-score.js';
import { TENANT_STATES_SQL } from '../secure-score/secure-score.service.js';
import { AlertSeverity, OPEN_ALERT_STATUSES } from '../alerts/alert.enums.js';
import { ComplianceState } from '../devices/device.enums.js';
import { AccountStatus } from '../users/user.enums.js';

/** A licensed user who is disabled, or has not signed in for this many days, counts as inactive. */
export const INACTIVE_AFTER_DAYS = 30;

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
    // Recounting every tenant materialises every assignment of the batch with its user's activity (~95 MB at a
    // thousand tenants of a thousand users each): with less work memory it spills to disk (64 MB: ~10% slower).
    // A few tenants (the five-minute job's usual batch) read the covering indexes of migration 20270127090000
    // alone; with parallel workers allowed the planner prefers a parallel bitmap scan of the assignments' heap
    // instead, slower on a two-core machine whose other core is serving requests.
    await tx.execute(`set local work_mem = '128MB'`, [], 'run');
    await tx.execute(`set local max_parallel_workers_per_gather = 0`, [], 'run');
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
       ), licensed as (
         select la.tenant_id, la.sku_id, la.user_id,
                coalesce(u.last_sign_in_at, u.created_at) as active_at,
                (u.account_status = ? or coalesce(u.last_sign_in_at, u.created_at) <= ?::timestamptz) as inactive
           from license_assignments la
           -- On the tenant too (a user holds licenses of its own tenant only): both recount indexes lead with
           -- (tenant, user), so the join merges two index-only scans in order instead of hashing every user.
           join users u on u.tenant_id = la.tenant_id and u.id = la.user_id
          where la.tenant_id in (?) and u.deleted_at is null
       ), by_sku as (
         select tenant_id, jsonb_object_agg(sku_id, assignments) as counts
           from (select tenant_id, sku_id, count(*) as assignments from licensed where inactive
                  group by tenant_id, sku_id) s
          group by tenant_id
       ), held_users as (
         select i.tenant_id, count(distinct i.user_id) as users
           from licensed i
           join tenant_licenses held on held.tenant_id = i.tenant_id and held.sku_id = i.sku_id
          where i.inactive
          group by i.tenant_id
       ), crossing as (
         -- The earliest active licensed user reaches the line first; a disabled one is inactive already.
         select tenant_id, min(active_at) + ?::float8 * interval '1 millisecond' as at
           from licensed where not inactive group by tenant_id
       ), scores as (
         select * from jsonb_to_recordset(?::jsonb) as s(tenant_id uuid, percent float8)
       ), alerts as (
         select a.tenant_id, count(*) as open_high
           from target t
           join security_alerts a
             on a.organization_id = t.organization_id and a.environment = t.environment and a.tenant_id = t.id
          where a.severity = ? and a.status in (?)
          group by a.tenant_id
       ), devices as (
         -- The device dashboards' stored counts (kept by triggers on devices): a few rows per tenant.
         select c.tenant_id, sum(c.devices) as total,
                coalesce(sum(c.devices) filter (where c.compliance_state = ?), 0) as non_compliant
           from target t join device_dashboard_counts c on c.tenant_id = t.id
          group by c.tenant_id
       ), backups as (
         select r.tenant_id, min(r.latest) as oldest_latest
           from (select s.tenant_id, s.resource_id, max(s.taken_at) as latest
                   from target t
                   join backup_snapshots s
                     on s.organization_id = t.organization_id and s.environment = t.environment and s.tenant_id = t.id
                  group by s.tenant_id, s.resource_id) r
          group by r.tenant_id
       )
       insert into portal_tenant_aggregates
         (id, organization_id, environment, tenant_id, secure_score_percent, inactive_licensed_users,
          inactive_by_sku, refreshed_at, next_crossing_at, open_high_alerts, devices, non_compliant_devices,
          oldest_latest_backup_at)
       select gen_random_uuid(), t.organization_id, t.environment, t.id, scores.percent, coalesce(h.users, 0),
              coalesce(b.counts, '{}'::jsonb), ?::timestamptz, c.at, coalesce(al.open_high, 0),
              coalesce(d.total, 0), coalesce(d.non_compliant, 0), bk.oldest_latest
         from target t
         left join by_sku b on b.tenant_id = t.id
         left join held_users h on h.tenant_id = t.id
         left join crossing c on c.tenant_id = t.id
         left join scores on scores.tenant_id = t.id
         left join alerts al on al.tenant_id = t.id
         left join devices d on d.tenant_id = t.id
         left join backups bk on bk.tenant_id = t.id
        order by t.id
       on conflict (tenant_id) do update set
         secure_score_percent = excluded.secure_score_percent,
         inactive_licensed_users = excluded.inactive_licensed_users,
         inactive_by_sku = excluded.inactive_by_sku,
         refreshed_at = excluded.refreshed_at,
         next_crossing_at = excluded.next_crossing_at,
         open_high_alerts = excluded.open_high_alerts,
         devices = excluded.devices,
         non_compliant_devices = excluded.non_compliant_devices,
         oldest_latest_backup_at = excluded.oldest_latest_backup_at`,
      [
        tenantIds,
        AccountStatus.DISABLED,
        inactiveSince.toISOString(),
        tenantIds,
        INACTIVE_AFTER_DAYS * DAY_MS,
        JSON.stringify(scores),
        AlertSeverity.HIGH,
        [...OPEN_ALERT_STATUSES],
        ComplianceState.NON_COMPLIANT,
        now.toISOString(),
      ],
      'run',
    );
  }
}
