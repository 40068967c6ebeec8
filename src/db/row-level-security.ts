/**
 * The idempotent step run after the migrations (start-up, tests' global setup, bench): the application
 * role exists and may use every table, and every table with an `organization_id` column (found in the
 * catalog, so a table added by any later migration is covered without an edit here) has row-level
 * security enabled and forced with the `organization_isolation` policy. docs/security-model.md explains it.
 */
import pg from 'pg';

export const ISOLATION_POLICY = 'organization_isolation';

/**
 * Tables the request path never touches (issue #32 item 7): the migration history, the secrets key check and
 * the rate-limit counters (counted by the guard as the service role, before the organization's session). The
 * application role gets no privilege on them; `organizations` it may read and update, its own row only
 * (the `organization_self` policy of migration 20261231100400), never insert or delete.
 */
export const SERVICE_ONLY_TABLES = ['mikro_orm_migrations', 'secrets_key_checks', 'rate_limits'] as const;
const READ_UPDATE_TABLES = ['organizations'] as const;
const JOB_QUEUE_SCHEMA = 'graphile_worker';

export interface IsolatedTable {
  table: string;
  organizationType: string;
  /** The environment column's type when the table has one (then the policy keys on it too). */
  environmentType: string | null;
}

/** Every table of the public schema with an `organization_id` column. */
export async function tablesWithOrganization(db: pg.ClientBase | pg.Pool): Promise<IsolatedTable[]> {
  const { rows } = await db.query<{
    table: string;
    organization_type: string;
    environment_type: string | null;
  }>(
    `select c.relname as table,
            format_type(org.atttypid, org.atttypmod) as organization_type,
            format_type(env.atttypid, env.atttypmod) as environment_type
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
       join pg_attribute org on org.attrelid = c.oid and org.attname = 'organization_id' and not org.attisdropped
       left join pg_attribute env on env.attrelid = c.oid and env.attname = 'environment' and not env.attisdropped
      where c.relkind in ('r', 'p')
      order by c.relname`,
  );
  return rows.map((row) => ({
    table: row.table,
    organizationType: row.organization_type,
    environmentType: row.environment_type,
  }));
}

/** The policy's condition: rows of the organization (and environment) the connection's settings name. */
export function isolationCondition(table: IsolatedTable): string {
  // nullif: without the settings, current_setting(…, true) is NULL or '' and the condition is never true.
  // The cast is to the column's own type, so the comparison stays sargable on the (organization_id, …) indexes.
  const organization = `organization_id = nullif(current_setting('app.organization_id', true), '')::${table.organizationType}`;
  if (!table.environmentType) return organization;
  return `${organization} and environment = nullif(current_setting('app.environment', true), '')::${table.environmentType}`;
}

/**
 * True when the role exists and may use every public table, the job queue's wrapper exists, and every table
 * with `organization_id` has row-level security enabled, forced and the isolation policy: one catalog read.
 */
async function alreadyApplied(client: pg.ClientBase, appRole: string): Promise<boolean> {
  const role = await client.query(`select 1 from pg_roles where rolname = $1`, [appRole]);
  if (!role.rowCount) return false;
  const restricted = [...SERVICE_ONLY_TABLES, ...READ_UPDATE_TABLES].map((t) => `'${t}'`).join(', ');
  const privileges = ['select', 'insert', 'update', 'delete']
    .map((privilege) => `not has_table_privilege($1, c.oid, '${privilege}')`)
    .join(' or ');
  const serviceOnly = SERVICE_ONLY_TABLES.map((t) => `'${t}'`).join(', ');
  const readUpdate = READ_UPDATE_TABLES.map((t) => `'${t}'`).join(', ');
  const { rows } = await client.query<{ ok: boolean }>(
    `select not exists (
          select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
           where c.relkind in ('r', 'p') and c.relname not in (${restricted}) and (${privileges}))
        and not exists (
          select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
           where c.relkind in ('r', 'p') and (
             (c.relname in (${serviceOnly}) and (has_table_privilege($1, c.oid, 'select')
               or has_table_privilege($1, c.oid, 'insert') or has_table_privilege($1, c.oid, 'update')
               or has_table_privilege($1, c.oid, 'delete')))
             or (c.relname in (${readUpdate}) and (has_table_privilege($1, c.oid, 'insert')
               or has_table_privilege($1, c.oid, 'delete')))))
        and not exists (
          select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
            join pg_attribute a on a.attrelid = c.oid and a.attname = 'organization_id' and not a.attisdropped
           where c.relkind in ('r', 'p')
             and (not c.relrowsecurity or not c.relforcerowsecurity
                  or not exists (select 1 from pg_policies p where p.schemaname = 'public'
                                  and p.tablename = c.relname and p.policyname = $2)))
        and (not exists (select 1 from pg_namespace where nspname = $3)
             or exists (select 1 from pg_proc where proname = $4)) as ok`,
    [appRole, ISOLATION_POLICY, JOB_QUEUE_SCHEMA, 'enqueue_job'],
  );
  return rows[0]?.ok === true;
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Creates what is missing; run with the service role (owner of the tables, BYPASSRLS or superuser).
 * Concurrent runs (several processes starting together) are serialized by an advisory lock.
 */
export async function applyRowLevelSecurity(pool: pg.Pool, appRole: string): Promise<IsolatedTable[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`select pg_advisory_xact_lock(hashtext('msp:row-level-security'))`);
    const { rows: me } = await client.query<{ bypasses: boolean }>(
      `select rolsuper or rolbypassrls as bypasses from pg_roles where rolname = current_user`,
    );
    if (!me[0]?.bypasses)
      throw new Error(
        'The database role of DATABASE_URL must bypass row-level security (superuser or BYPASSRLS): it runs ' +
          'migrations, jobs and the event fan-out for every organization (docs/security-model.md).',
      );
    // Already in place (every start but the first after a migration): change nothing. The DDL below takes
    // table locks, and a CLI or second instance starting beside a busy server must not deadlock with it.
    if (await alreadyApplied(client, appRole)) {
      await client.query('commit');
      return await tablesWithOrganization(client);
    }
    await ensureApplicationRole(client, appRole);
    const role = quoteIdentifier(appRole);
    await client.query(`grant usage on schema public to ${role}`);
    await client.query(`grant select, insert, update, delete on all tables in schema public to ${role}`);
    // …but what the request path needs only (issue #32 item 7); a table that does not exist yet is skipped.
    for (const table of SERVICE_ONLY_TABLES)
      await client.query(
        `do $$ begin if to_regclass('public.${table}') is not null then
           revoke all on public.${table} from ${role}; end if; end $$`,
      );
    for (const table of READ_UPDATE_TABLES)
      await client.query(`revoke insert, delete, truncate on public.${table} from ${role}`);
    await client.query(`grant usage, select, update on all sequences in schema public to ${role}`);
    // Request transactions queue jobs (core/jobs.ts); the queue's own tables stay the service role's.
    const queue = await client.query(`select 1 from pg_namespace where nspname = $1`, [JOB_QUEUE_SCHEMA]);
    if (queue.rowCount) {
      await client.query(`grant usage on schema ${JOB_QUEUE_SCHEMA} to ${role}`);
      await client.query(
        `grant select, insert, update, delete on all tables in schema ${JOB_QUEUE_SCHEMA} to ${role}`,
      );
      await client.query(
        `grant usage, select, update on all sequences in schema ${JOB_QUEUE_SCHEMA} to ${role}`,
      );
      await createEnqueueFunction(client, role);
    }
    const tables = await tablesWithOrganization(client);
    const { rows: existing } = await client.query<{ tablename: string }>(
      `select tablename from pg_policies where schemaname = 'public' and policyname = $1`,
      [ISOLATION_POLICY],
    );
    const withPolicy = new Set(existing.map((row) => row.tablename));
    for (const table of tables) {
      const name = quoteIdentifier(table.table);
      // Both are no-ops when already set; FORCE subjects the table's owner too.
      await client.query(`alter table ${name} enable row level security`);
      await client.query(`alter table ${name} force row level security`);
      if (withPolicy.has(table.table)) continue;
      const condition = isolationCondition(table);
      await client.query(
        `create policy ${ISOLATION_POLICY} on ${name} for all using (${condition}) with check (${condition})`,
      );
    }
    await client.query('commit');
    return tables;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * `enqueue_job(…)`: graphile_worker.add_job with the same named arguments, run as its owner (the service
 * role). The queue's private tables have row-level security without policies for other roles, so the
 * application role may queue jobs only through this function, inside its own transaction.
 */
export const ENQUEUE_JOB_FUNCTION = 'enqueue_job';

async function createEnqueueFunction(client: pg.PoolClient, role: string): Promise<void> {
  // plpgsql: its body is checked when called, so the function does not pin add_job's exact overloads.
  await client.query(`
    create or replace function public.${ENQUEUE_JOB_FUNCTION}(identifier text, payload json,
        queue_name text default null, run_at timestamptz default null, max_attempts integer default null,
        job_key text default null) returns bigint
      language plpgsql volatile security definer set search_path = pg_catalog, pg_temp as $$
      begin
        return (${JOB_QUEUE_SCHEMA}.add_job(identifier, payload, queue_name => queue_name, run_at => run_at,
          max_attempts => max_attempts, job_key => job_key)).id;
      end $$`);
  await client.query(
    `revoke all on function public.${ENQUEUE_JOB_FUNCTION}(text, json, text, timestamptz, integer, text) from public`,
  );
  await client.query(
    `grant execute on function public.${ENQUEUE_JOB_FUNCTION}(text, json, text, timestamptz, integer, text) to ${role}`,
  );
}

/** The request path's role: no login, no bypass; the service role may SET ROLE to it. */
async function ensureApplicationRole(client: pg.PoolClient, appRole: string): Promise<void> {
  const { rows } = await client.query<{ bypasses: boolean; super: boolean }>(
    `select rolbypassrls as bypasses, rolsuper as super from pg_roles where rolname = $1`,
    [appRole],
  );
  if (rows[0]?.bypasses || rows[0]?.super)
    throw new Error(`APP_DATABASE_ROLE ${appRole} must not be a superuser nor bypass row-level security`);
  if (!rows[0]) {
    // Roles belong to the cluster: two databases of one server (tests) may create it at the same time.
    await client.query('savepoint create_role');
    try {
      await client.query(`create role ${quoteIdentifier(appRole)} nologin nosuperuser nobypassrls`);
      await client.query('release savepoint create_role');
    } catch (error) {
      if ((error as { code?: string }).code !== '42710' && (error as { code?: string }).code !== '23505')
        throw error;
      await client.query('rollback to savepoint create_role');
    }
  }
  const { rows: member } = await client.query<{ member: boolean }>(
    `select pg_has_role(current_user, $1, 'MEMBER') as member`,
    [appRole],
  );
  if (!member[0]?.member) await client.query(`grant ${quoteIdentifier(appRole)} to current_user`);
}
