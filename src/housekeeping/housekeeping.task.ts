import type { MikroORM } from '@mikro-orm/postgresql';
import type { CronItem, Task } from 'graphile-worker';
import type { Clock } from '../core/clock.js';
import type { AppDeps } from '../core/service-context.js';
import { UserImportStatus } from '../user-management/user-import.entity.js';
import { FAILED_IMPORT_PASSWORD_RETENTION_MS } from '../user-management/user-import.settings.js';
import { DeliveryStatus } from '../webhooks/webhook-delivery.entity.js';

export const HOUSEKEEPING_TASK = 'housekeeping';

/** Every 15 minutes on one process of the fleet: graphile-worker's cron takes a lock per run. */
export const HOUSEKEEPING_CRON: CronItem = {
  task: HOUSEKEEPING_TASK,
  match: '*/15 * * * *',
  identifier: HOUSEKEEPING_TASK,
  options: { backfillPeriod: 0, maxAttempts: 3 },
};

const DAY_MS = 86_400_000;

/** How long rows that only serve as history are kept (docs/decisions.md "Retention"). */
export const RETENTION = {
  /** An expired OAuth code or token is useless; a day of grace keeps reuse detection meaningful. */
  expiredOAuthMs: DAY_MS,
  /** Events, their deliveries and delivery attempts: the delivery log and re-send reach back 30 days. */
  eventHistoryMs: 30 * DAY_MS,
  /**
   * Risky sign-ins already announced (src/security/risky-signins.ts): far longer than any provider keeps
   * sign-in logs (Entra ID: 30 days) or than a sync looks back (since its previous run), so a sign-in
   * reported again is still recognised.
   */
  announcedSignInsMs: 365 * DAY_MS,
  /** The sealed passwords a Failed user import keeps for its retry (src/user-management/user-import.settings.ts). */
  failedImportPasswordsMs: FAILED_IMPORT_PASSWORD_RETENTION_MS,
} as const;

export interface HousekeepingResult {
  rateLimitRows: number;
  oauthCodes: number;
  oauthTokens: number;
  events: number;
  announcedSignIns: number;
  /** Exported items whose download link expired, their contents purged (issue #32 item 7). */
  expiredExportItems: number;
  /** Rows of Failed user imports whose sealed password was erased, the retention after the failure. */
  failedImportPasswords: number;
}

/**
 * Deletes what has expired: rate-limit windows (rate-limiter-flexible is told not to clean up on its own,
 * see rate-limit.ts), OAuth codes and tokens past their expiry, event history past its retention, and
 * announced sign-ins past theirs, and the contents of an export once its download link expired (the link's
 * key too, so the job shows no link), and the sealed passwords a Failed user import kept for its retry once
 * that retention has passed (the import records when, so its retry is refused naming why).
 * An event with a delivery still pending is kept whatever its age, so nothing is lost before it arrives.
 */
export async function runHousekeeping(orm: MikroORM, clock: Clock): Promise<HousekeepingResult> {
  const now = clock.now();
  const oauthCutoff = new Date(now.getTime() - RETENTION.expiredOAuthMs);
  const eventCutoff = new Date(now.getTime() - RETENTION.eventHistoryMs);
  const connection = orm.em.getConnection();
  const count = async (sql: string, params: unknown[]) => {
    const result = await connection.execute<{ affectedRows?: number }>(sql, params, 'run');
    return result.affectedRows ?? 0;
  };
  return {
    rateLimitRows: await count('delete from rate_limits where expire is not null and expire < ?', [
      now.getTime(),
    ]),
    oauthCodes: await count('delete from oauth_authorization_codes where expires_at < ?', [oauthCutoff]),
    oauthTokens: await count('delete from oauth_tokens where expires_at < ?', [oauthCutoff]),
    events: await count(
      `delete from domain_events e where e.occurred_at < ?
          and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = '${DeliveryStatus.PENDING}')`,
      [eventCutoff],
    ),
    announcedSignIns: await count('delete from announced_sign_ins where announced_at < ?', [
      new Date(now.getTime() - RETENTION.announcedSignInsMs),
    ]),
    expiredExportItems: await count(
      `with expired as (
         update restore_jobs set download_secret = null
          where download_expires_at <= ? and download_secret is not null returning id)
       update restore_job_items set exported = null
        where job_id in (select id from expired) and exported is not null`,
      [now],
    ),
    // Only Failed imports: a retried one is Queued again (its failure's clock restarts if it fails again).
    failedImportPasswords: await count(
      `with purged as (
         update user_imports set passwords_purged_at = ?
          where status = '${UserImportStatus.FAILED}' and finished_at <= ? and passwords_purged_at is null
          returning id)
       update user_import_rows set password = null
        where import_id in (select id from purged) and password is not null`,
      [now, new Date(now.getTime() - RETENTION.failedImportPasswordsMs)],
    ),
  };
}

export function housekeepingTask(orm: MikroORM, deps: AppDeps): Task {
  return async (_payload, helpers) => {
    const result = await runHousekeeping(orm, deps.clock);
    helpers.logger.info(`housekeeping: ${JSON.stringify(result)}`);
  };
}
