import { Migration } from '@mikro-orm/migrations';

/**
 * Issue #30: a Microsoft 365 tenant's secure score is Microsoft's (Secure Score, decimal points on its own
 * scale): `cloud_secure_scores` holds the one its sync read last (its row marks the tenant's source), and each
 * recorded day says whose scale it is on.
 */
export class Migration20270127150500_cloud_secure_scores extends Migration {
  override name = 'Migration20270127150500_cloud_secure_scores';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "cloud_secure_scores" ("id" uuid not null, "organization_id" uuid not null, "environment" text not null, "tenant_id" uuid not null, "day" date null, "score" double precision not null, "max_score" double precision not null, "by_category" jsonb not null, "averages" jsonb not null, "read_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "cloud_secure_scores_organization_id_index" on "cloud_secure_scores" ("organization_id");`,
    );
    this.addSql(
      `alter table "cloud_secure_scores" add constraint "cloud_secure_scores_tenant_id_unique" unique ("tenant_id");`,
    );
    this.addSql(
      `alter table "cloud_secure_scores" add constraint "cloud_secure_scores_tenant_id_foreign" foreign key ("tenant_id") references "tenants" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "cloud_secure_scores" add constraint "cloud_secure_scores_environment_check" check ("environment" in ('live', 'sandbox'));`,
    );
    this.addSql(`alter table "secure_score_snapshots" add "source" text not null default 'recommendations';`);
    this.addSql(
      `alter table "secure_score_snapshots" alter column "score" type double precision using ("score"::double precision);`,
    );
    this.addSql(
      `alter table "secure_score_snapshots" alter column "max_score" type double precision using ("max_score"::double precision);`,
    );
    this.addSql(
      `alter table "secure_score_snapshots" add constraint "secure_score_snapshots_source_check" check ("source" in ('recommendations', 'microsoft365'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "cloud_secure_scores" cascade;`);
    this.addSql(`delete from "secure_score_snapshots" where "source" <> 'recommendations';`);
    this.addSql(
      `alter table "secure_score_snapshots" drop constraint "secure_score_snapshots_source_check";`,
    );
    this.addSql(`alter table "secure_score_snapshots" drop column "source";`);
    this.addSql(
      `alter table "secure_score_snapshots" alter column "score" type int using (round("score")::int);`,
    );
    this.addSql(
      `alter table "secure_score_snapshots" alter column "max_score" type int using (round("max_score")::int);`,
    );
  }
}
