import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11: the rate-limit counters (request windows and OAuth attempt limits) are written on every API
 * request. As a logged table each of those writes went through the write-ahead log and, with durable
 * settings, waited for its flush at commit. The counters only matter for their window (a minute, or an
 * attempt limit's few minutes): unlogged, they cost no WAL and no flush; a database crash empties them
 * (windows start again) and standbys do not carry them (a failover starts fresh windows too).
 */
export class Migration20261227090000_unlogged_rate_limits extends Migration {
  override name = 'Migration20261227090000_unlogged_rate_limits';

  override up(): void | Promise<void> {
    this.addSql(`alter table "rate_limits" set unlogged;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "rate_limits" set logged;`);
  }
}
