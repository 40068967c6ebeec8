import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #11, row-level security: the stale guests' "inactive since" (the last sign-in, else the pending
 * invitation's last sending or the acceptance, else the invitation or creation) was a COALESCE/GREATEST
 * expression in the request's statement. Under the organization policy such an expression is not leakproof, so
 * it could not be an index condition: the page read every guest of the tenant and sorted them. A stored generated
 * column holds it (every part is immutable on timestamptz and text); the list compares and orders the plain
 * column, which the index below serves as requests run it.
 *
 * The column is set for guests that are not removed only (null otherwise), and the list's statement names no
 * separate `user_type`/`deleted_at` condition: the planner multiplies the selectivities of conditions it takes as
 * independent, and "is a guest" times "inactive before the cutoff" (a cutoff only guests meet) made its estimate
 * so low that it preferred reading all the tenant's stale guests and sorting them over the ordered index.
 */
export class Migration20261225090100_guest_inactive_since extends Migration {
  override name = 'Migration20261225090100_guest_inactive_since';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add column "guest_inactive_since" timestamptz generated always as (case when user_type = 'Guest' and deleted_at is null then coalesce(last_sign_in_at, case when invitation_status = 'Pending' then greatest(invited_at, invitation_sent_at) else invitation_accepted_at end, invited_at, created_at) else null end) stored;`,
    );
    this.addSql(`drop index "users_stale_guests_index";`);
    this.addSql(
      `create index "users_stale_guests_index" on "users" ("organization_id", "environment", "tenant_id", "guest_inactive_since", "id") where "guest_inactive_since" is not null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_stale_guests_index";`);
    this.addSql(`alter table "users" drop column "guest_inactive_since";`);
    this.addSql(
      `create index "users_stale_guests_index" on "users" ("organization_id", "environment", "tenant_id", (coalesce(last_sign_in_at, case when invitation_status = 'Pending' then greatest(invited_at, invitation_sent_at) else invitation_accepted_at end, invited_at, created_at)), "id") where "user_type" = 'Guest' and "deleted_at" is null;`,
    );
  }
}
