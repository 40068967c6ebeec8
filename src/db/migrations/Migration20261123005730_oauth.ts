import { Migration } from '@mikro-orm/migrations';

/** Members (people who sign in), OAuth clients, authorization codes and tokens (issue 4). */
export class Migration20261123005730_oauth extends Migration {
  override name = 'Migration20261123005730_oauth';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "members" ("id" uuid not null, "organization_id" uuid not null, "email" text not null, "role" text not null, "password_hash" text not null, "created_at" timestamptz not null, "last_sign_in_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "members_organization_id_index" on "members" ("organization_id");`);
    this.addSql(
      `alter table "members" add constraint "members_organization_id_email_unique" unique ("organization_id", "email");`,
    );

    this.addSql(
      `create table "oauth_authorization_codes" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "code_hash" text not null, "oauth_client_id" uuid not null, "member_id" uuid not null, "redirect_uri" text not null, "scopes" text[] not null, "code_challenge" text null, "code_challenge_method" text null, "expires_at" timestamptz not null, "consumed_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "oauth_authorization_codes_organization_id_index" on "oauth_authorization_codes" ("organization_id");`,
    );
    this.addSql(
      `alter table "oauth_authorization_codes" add constraint "oauth_authorization_codes_code_hash_unique" unique ("code_hash");`,
    );
    this.addSql(
      `create index "oauth_authorization_codes_oauth_client_id_index" on "oauth_authorization_codes" ("oauth_client_id");`,
    );
    this.addSql(
      `create index "oauth_authorization_codes_member_id_index" on "oauth_authorization_codes" ("member_id");`,
    );

    this.addSql(
      `create table "oauth_clients" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "client_id" text not null, "name" text not null, "redirect_uris" text[] not null, "secret_hash" text not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "oauth_clients_organization_id_index" on "oauth_clients" ("organization_id");`);
    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_client_id_unique" unique ("client_id");`,
    );

    this.addSql(
      `create table "oauth_tokens" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "kind" text not null, "token_hash" text not null, "oauth_client_id" uuid not null, "member_id" uuid not null, "grant_id" uuid not null, "scopes" text[] not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "revoked_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "oauth_tokens_organization_id_index" on "oauth_tokens" ("organization_id");`);
    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create index "oauth_tokens_oauth_client_id_index" on "oauth_tokens" ("oauth_client_id");`);
    this.addSql(`create index "oauth_tokens_member_id_index" on "oauth_tokens" ("member_id");`);
    this.addSql(`create index "oauth_tokens_grant_id_index" on "oauth_tokens" ("grant_id");`);

    this.addSql(
      `alter table "members" add constraint "members_role_check" check ("role" in ('owner', 'admin', 'member'));`,
    );

    this.addSql(
      `alter table "oauth_authorization_codes" add constraint "oauth_authorization_codes_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "oauth_clients" add constraint "oauth_clients_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );

    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(
      `alter table "oauth_tokens" add constraint "oauth_tokens_kind_check" check ("kind" in ('access', 'refresh'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "members" cascade;`);
    this.addSql(`drop table if exists "oauth_authorization_codes" cascade;`);
    this.addSql(`drop table if exists "oauth_clients" cascade;`);
    this.addSql(`drop table if exists "oauth_tokens" cascade;`);
  }
}
