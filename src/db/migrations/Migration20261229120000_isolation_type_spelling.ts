import { Migration } from '@mikro-orm/migrations';

/**
 * Isolation types keep SPEC 2.6's spelling on REST ("Full isolation", "Selective isolation"; DECISIONS: enumerations
 * keep the spelling SPEC.md uses), where they were stored and answered as "Full" / "Selective". The GraphQL enum
 * (FULL, SELECTIVE) is unchanged. Stored rows are renamed in place; events already recorded keep what they said.
 */
export class Migration20261229120000_isolation_type_spelling extends Migration {
  override name = 'Migration20261229120000_isolation_type_spelling';

  override up(): void | Promise<void> {
    for (const table of ['devices', 'device_actions']) {
      this.addSql(`alter table "${table}" drop constraint "${table}_isolation_type_check";`);
      this.addSql(
        `update "${table}" set "isolation_type" = "isolation_type" || ' isolation' where "isolation_type" in ('Full', 'Selective');`,
      );
      this.addSql(
        `alter table "${table}" add constraint "${table}_isolation_type_check" check ("isolation_type" in ('Full isolation', 'Selective isolation'));`,
      );
    }
  }

  override down(): void | Promise<void> {
    for (const table of ['devices', 'device_actions']) {
      this.addSql(`alter table "${table}" drop constraint "${table}_isolation_type_check";`);
      this.addSql(
        `update "${table}" set "isolation_type" = replace("isolation_type", ' isolation', '') where "isolation_type" is not null;`,
      );
      this.addSql(
        `alter table "${table}" add constraint "${table}_isolation_type_check" check ("isolation_type" in ('Full', 'Selective'));`,
      );
    }
  }
}
