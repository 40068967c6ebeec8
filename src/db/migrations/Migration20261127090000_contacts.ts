import { Migration } from '@mikro-orm/migrations';

/**
 * Mail contacts of a tenant (SPEC 2.6 "Contact", 4.2 /api/identity/contacts): the contact's fields, its
 * upstream id and source; an address unique per tenant (case-insensitive) and an index for the address
 * book order (display name, then id).
 */
export class Migration20261127090000_contacts extends Migration {
  override name = 'Migration20261127090000_contacts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "contacts" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "external_id" varchar(255) not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "display_name" varchar(255) not null, "email" varchar(255) not null, "company" text null, "job_title" text null, "business_phone" text null, "mobile_phone" text null, "department" text null, "show_in_address_list" boolean not null default true, "manager" text null, "street" text null, "city" text null, "state" text null, "postal_code" text null, "country" text null, "notes" text null, "email_aliases" text[] not null, "source" text not null default 'Cloud', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "contacts_organization_id_index" on "contacts" ("organization_id");`);
    this.addSql(
      `create index "contacts_display_name_index" on "contacts" ("organization_id", "environment", "tenant_id", lower("display_name"), "id");`,
    );
    this.addSql(
      `create unique index "contacts_email_unique" on "contacts" ("organization_id", "environment", "tenant_id", lower("email"));`,
    );
    this.addSql(
      `alter table "contacts" add constraint "contacts_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "contacts" add constraint "contacts_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "contacts" add constraint "contacts_source_check" check ("source" in ('Cloud', 'Synced'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "contacts" cascade;`);
  }
}
