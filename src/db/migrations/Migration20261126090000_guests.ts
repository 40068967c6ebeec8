import { Migration } from '@mikro-orm/migrations';

/**
 * Guest users (SPEC 2.6 "Guest user", 3.3 "Guest lifecycle"): a guest's mail address, source, invitation
 * status and who invited it when, when the invitation mail went out (null: created silently) and when it
 * was redeemed; an index for a tenant's guests, newest first, and one to find an address already in a
 * tenant. Guests synced before this migration get source "B2B collaboration" and status "N/A" (the next
 * sync brings the upstream values), and their address from the UPN (name_domain#EXT#@...).
 */
export class Migration20261126090000_guests extends Migration {
  override name = 'Migration20261126090000_guests';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "users" add "email" text null, add "guest_source" text null, add "invitation_status" text null, add "invited_by" text null, add "invited_at" timestamptz null, add "invitation_sent_at" timestamptz null, add "invitation_accepted_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "users" add constraint "users_guest_source_check" check ("guest_source" in ('Invited user', 'B2B collaboration', 'External directory'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_invitation_status_check" check ("invitation_status" in ('Pending', 'Accepted', 'N/A'));`,
    );
    this.addSql(
      `create index "users_guests_index" on "users" ("organization_id", "environment", "tenant_id", "created_at" desc, "id" desc) where "user_type" = 'Guest' and "deleted_at" is null;`,
    );
    this.addSql(
      `create index "users_active_email_index" on "users" ("organization_id", "environment", "tenant_id", lower("email")) where "deleted_at" is null;`,
    );
    this.addSql(
      `update "users" set "guest_source" = 'B2B collaboration', "invitation_status" = 'N/A', "email" = lower(regexp_replace(split_part("user_principal_name", '#EXT#', 1), '_([^_]*)$', '@\\1')) where "user_type" = 'Guest' and "user_principal_name" like '%#EXT#@%';`,
    );
    this.addSql(
      `update "users" set "guest_source" = 'B2B collaboration', "invitation_status" = 'N/A' where "user_type" = 'Guest' and "guest_source" is null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "users_active_email_index";`);
    this.addSql(`drop index "users_guests_index";`);
    this.addSql(`alter table "users" drop constraint "users_invitation_status_check";`);
    this.addSql(`alter table "users" drop constraint "users_guest_source_check";`);
    this.addSql(
      `alter table "users" drop column "email", drop column "guest_source", drop column "invitation_status", drop column "invited_by", drop column "invited_at", drop column "invitation_sent_at", drop column "invitation_accepted_at";`,
    );
  }
}
