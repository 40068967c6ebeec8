import type pg from 'pg';

/**
 * Records every row written to the test database: a row-level trigger on each table logs the table into
 * `fuzz_writes` inside the writing transaction, so a rolled-back write leaves nothing and a committed one
 * is seen. Counters the service keeps per request (rate limits, API key last use) are left out.
 */
const NOT_AUDITED = new Set(['fuzz_writes', 'rate_limits', 'mikro_orm_migrations', 'api_keys']);

export class WriteAudit {
  private lastSeen = 0;

  private constructor(private readonly pool: pg.Pool) {}

  static async install(pool: pg.Pool): Promise<WriteAudit> {
    // SECURITY DEFINER: requests write as the row-level security application role, which has no grant on this
    // table; the audit row is written as its owner whatever role made the change.
    await pool.query(`
      create table fuzz_writes (id bigserial primary key, table_name text not null, operation text not null);
      create function fuzz_audit() returns trigger language plpgsql security definer as $$
      begin
        insert into fuzz_writes (table_name, operation) values (TG_TABLE_NAME, TG_OP);
        return null;
      end $$;`);
    const { rows } = await pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    for (const { table_name: table } of rows.filter((row) => !NOT_AUDITED.has(row.table_name))) {
      await pool.query(
        `create trigger fuzz_audit after insert or update or delete on "${table}" for each row execute function fuzz_audit()`,
      );
    }
    return new WriteAudit(pool);
  }

  /** Tables written since the previous call (with the operation), in order. */
  async writesSinceLastCall(): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string; table_name: string; operation: string }>(
      'select id, table_name, operation from fuzz_writes where id > $1 order by id',
      [this.lastSeen],
    );
    if (rows.length > 0) this.lastSeen = Number(rows[rows.length - 1].id);
    return rows.map((row) => `${row.operation} ${row.table_name}`);
  }
}
