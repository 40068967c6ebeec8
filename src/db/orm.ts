import { Migrator } from '@mikro-orm/migrations';
import type pg from 'pg';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { sessionSettingsOnReserve } from '../core/db-session.js';
import { buildPgRowsWithFactories } from '../core/perf/pg-row-factory.js';
import { SCOPE_FILTER, type Scope } from '../core/scope.js';
import { ALL_ENTITIES, SCOPED_ENTITIES } from './entities.js';
import {
  DEFAULT_DATABASE_TIMEOUTS,
  guardPool,
  timedPoolOptions,
  type DatabaseTimeouts,
} from './database-timeouts.js';
import { MIGRATIONS } from './migrations/index.js';

export interface OrmOptions {
  databaseUrl: string;
  poolMax?: number;
  /** Called with every SQL statement; the query-count tests and the bench count with it. */
  onQuery?: (sql: string) => void;
  /**
   * The non-superuser role the request path acts as (APP_DATABASE_ROLE; docs/security-model.md); unset, the
   * request path keeps the connecting role (row-level security not enforced: ROW_LEVEL_SECURITY).
   */
  appRole?: string;
  /** Connect, statement and no-answer timeouts (db/database-timeouts.ts); the defaults unless given. */
  timeouts?: DatabaseTimeouts;
}

export function ormConfig({
  databaseUrl,
  poolMax = 10,
  onQuery,
  appRole,
  timeouts = DEFAULT_DATABASE_TIMEOUTS,
}: OrmOptions): Options {
  // Rows as fast objects, built by a function per column set (issue #31; a trick on pg's internals, see the file).
  buildPgRowsWithFactories();
  return defineConfig({
    clientUrl: databaseUrl,
    entities: ALL_ENTITIES,
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    // Merged into the pg pool's options: nothing waits for PostgreSQL without a bound (issue #34 item 4).
    driverOptions: {
      ...timedPoolOptions(timeouts),
      // The named lean statements' generic plan from their first execution (src/core/lean-statement.ts): left to
      // choose, PostgreSQL costs a generic `limit $n` as a tenth of the rows and, on the bench's 100,000 users,
      // kept re-planning the users page every time (0.9 ms of planning a request; docs/benchmarks.md "ninth
      // round"). Every other statement on these connections carries no parameters (MikroORM inlines its values,
      // and so do unnamed lean statements), so it is planned with its values whatever this says.
      options: '-c plan_cache_mode=force_generic_plan',
      onPoolCreated: (pool: pg.Pool) => guardPool(pool, timeouts),
    },
    // Row-level security: a connection reserved inside a request's session acts as the application role with
    // the organization's settings; outside one, as the service role (core/db-session.ts).
    onReserveConnection: appRole
      ? (sessionSettingsOnReserve(appRole, onQuery) as (connection: unknown) => Promise<void>)
      : undefined,
    // Lean defaults: no implicit transactions around flush of a single statement, no eager loading.
    forceUtcTimezone: true,
    allowGlobalContext: false,
    // Every scoped entity carries its own organization/environment columns and foreign keys never cross
    // organizations, so the scope filter needs no joins to the entities a row references.
    autoJoinRefsForFilters: false,
    filters: {
      [SCOPE_FILTER]: {
        name: SCOPE_FILTER,
        entity: SCOPED_ENTITIES,
        default: true,
        args: true,
        cond: (args: Scope) => ({ organizationId: args.organizationId, environment: args.environment }),
      },
    },
    // Triggers and SQL functions (the portal's dirty marks, the user search's folding) are written by hand in
    // migrations; the entities do not describe them, so schema diffs must leave them alone.
    schemaGenerator: { ignoreTriggers: true, ignoreRoutines: true, ignorePolicies: true },
    migrations: {
      migrationsList: MIGRATIONS,
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // With their values, so plan tests can run a logged statement again under EXPLAIN (test/helpers/list-plan.ts).
    debug: onQuery ? ['query', 'query-params'] : false,
    logger: onQuery ? (message: string) => onQuery(message) : () => undefined,
  });
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.migrator.up();
}
