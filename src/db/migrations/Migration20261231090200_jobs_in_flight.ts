import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #32 item 4: the jobs an organization-environment has in flight (queued, running, or waiting for a
 * retry; not those that gave up) are capped when a request queues one (src/core/job-limits.ts). The queue's
 * own tables are the service role's, so the request path asks this SECURITY DEFINER function, which answers
 * only the count for the organization and environment it is given. plpgsql: its body is checked when
 * called, so the migration runs before graphile-worker has created its schema.
 */
export class Migration20261231090200_jobs_in_flight extends Migration {
  override name = 'Migration20261231090200_jobs_in_flight';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function jobs_in_flight(p_organization_id text, p_environment text)
        returns integer language plpgsql stable security definer set search_path = pg_catalog, pg_temp as $$
        begin
          return (select count(*)::int from graphile_worker._private_jobs j
                   where j.payload->>'organizationId' = p_organization_id
                     and j.payload->>'environment' = p_environment
                     and j.attempts < j.max_attempts);
        end $$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists jobs_in_flight(text, text);`);
  }
}
