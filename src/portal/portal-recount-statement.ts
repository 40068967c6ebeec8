import { DAY_MS } from '../core/clock.js';
import { AlertSeverity, OPEN_ALERT_STATUSES } from '../alerts/alert.enums.js';
import { ComplianceState } from '../devices/device.enums.js';
import { AccountStatus } from '../users/user.enums.js';

/** A licensed user who is disabled, or has not signed in for this many days, counts as inactive. */
export const INACTIVE_AFTER_DAYS = 30;

/**
 * One upsert of every figure of the tenants (src/portal/portal-aggregates.ts): the license figures from the
 * counts the writes keep (portal_activity_counts), and the health signals of docs/tenant-health.md (open High
 * alerts, devices and Non-Compliant devices, the oldest of the protected resources' newest backups).
 * `scores`: a JSON array of { tenant_id, percent }, the secure scores computed in the caller.
 */
export function recountStatement(
  tenantIds: string[],
  now: Date,
  scores: string,
): { sql: string; params: unknown[] } {
  const inactiveSince = new Date(now.getTime() - INACTIVE_AFTER_DAYS * DAY_MS);
  // The kept counts are by UTC day: days before the line's are inactive, days after it active.
  const lineDay = Math.floor(inactiveSince.getTime() / DAY_MS);
  return {
    sql: `with target as (
         select t.id, t.organization_id, t.environment from tenants t where t.id in (?)
       ), kept as (
         -- Disabled, or last active on a day before the line's: inactive whatever the time of day.
         select c.tenant_id, c.sku_id, sum(c.n) as n
           from portal_activity_counts c
          where c.tenant_id in (?) and (c.disabled or c.day < ?)
          group by c.tenant_id, c.sku_id
       ), edge as (
         -- Enabled users last active on the line's day, at or before the line.
         select u.tenant_id, u.id
           from users u
          where u.tenant_id in (?) and u.deleted_at is null and u.account_status <> ?
            and coalesce(u.last_sign_in_at, u.created_at) >= ?::timestamptz
            and coalesce(u.last_sign_in_at, u.created_at) <= ?::timestamptz
       ), by_sku as (
         select tenant_id, jsonb_object_agg(sku_id, n) as counts
           from (select tenant_id, sku_id, sum(n) as n
                   from (select tenant_id, sku_id, n from kept where sku_id is not null
                         union all
                         select la.tenant_id, la.sku_id, 1
                           from edge e join license_assignments la on la.tenant_id = e.tenant_id and la.user_id = e.id) s
                  group by tenant_id, sku_id having sum(n) > 0) s
          group by tenant_id
       ), held_users as (
         select tenant_id, sum(n) as users
           from (select tenant_id, n from kept where sku_id is null
                 union all
                 select e.tenant_id, 1 from edge e
                  where exists (select 1 from license_assignments la
                                  join tenant_licenses held on held.tenant_id = la.tenant_id and held.sku_id = la.sku_id
                                 where la.tenant_id = e.tenant_id and la.user_id = e.id)) s
          group by tenant_id
       ), next_day as (
         -- Each tenant's first day after the line's with an enabled user's assignment on it.
         select tenant_id, min(day) as day
           from (select c.tenant_id, c.day from portal_activity_counts c
                  where c.tenant_id in (?) and not c.disabled and c.sku_id is not null and c.day > ?
                  group by c.tenant_id, c.day having sum(c.n) > 0) d
          group by tenant_id
       ), crossing as (
         -- The earliest enabled licensed user after the line reaches it first (a disabled one is inactive
         -- already): on the rest of the line's day, else on the next day that has one. Each is a walk of one
         -- day's users in activity order that stops at the first licensed one (the licence probe is a filter,
         -- not a semi-join, so that PostgreSQL walks instead of reading and sorting the whole day).
         select t.id as tenant_id, least(rest.at, later.at) + ?::float8 * interval '1 millisecond' as at
           from target t
           left join next_day d on d.tenant_id = t.id
           left join lateral (
             select coalesce(u.last_sign_in_at, u.created_at) as at
               from users u
              where u.tenant_id = t.id and u.deleted_at is null and u.account_status <> ?
                and coalesce(u.last_sign_in_at, u.created_at) > ?::timestamptz
                and coalesce(u.last_sign_in_at, u.created_at) < ?::timestamptz
                and (select true from license_assignments la where la.tenant_id = u.tenant_id and la.user_id = u.id limit 1)
              order by coalesce(u.last_sign_in_at, u.created_at) limit 1) rest on true
           left join lateral (
             select coalesce(u.last_sign_in_at, u.created_at) as at
               from users u
              where u.tenant_id = t.id and u.deleted_at is null and u.account_status <> ?
                and coalesce(u.last_sign_in_at, u.created_at) >= (date '1970-01-01' + d.day)::timestamp at time zone 'UTC'
                and coalesce(u.last_sign_in_at, u.created_at) < (date '1970-01-01' + d.day + 1)::timestamp at time zone 'UTC'
                and (select true from license_assignments la where la.tenant_id = u.tenant_id and la.user_id = u.id limit 1)
              order by coalesce(u.last_sign_in_at, u.created_at) limit 1) later on true
          where rest.at is not null or later.at is not null
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
    params: [
      tenantIds,
      tenantIds,
      lineDay,
      tenantIds,
      AccountStatus.DISABLED,
      new Date(lineDay * DAY_MS).toISOString(),
      inactiveSince.toISOString(),
      tenantIds,
      lineDay,
      INACTIVE_AFTER_DAYS * DAY_MS,
      AccountStatus.DISABLED,
      inactiveSince.toISOString(),
      new Date((lineDay + 1) * DAY_MS).toISOString(),
      AccountStatus.DISABLED,
      scores,
      AlertSeverity.HIGH,
      [...OPEN_ALERT_STATUSES],
      ComplianceState.NON_COMPLIANT,
      now.toISOString(),
    ],
  };
}
