import { Migration } from '@mikro-orm/migrations';

export class Migration20261202090000_reliability extends Migration {
  override name = 'Migration20261202090000_reliability';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "secrets_key_checks" ("id" int not null default 1, "check_value" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(
      `alter table "tenant_syncs" add "run_attempts" int not null default 0, add "checkpoint" jsonb null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "secrets_key_checks" cascade;`);

    this.addSql(`alter table "tenant_syncs" drop column "run_attempts", drop column "checkpoint";`);
  }
}
