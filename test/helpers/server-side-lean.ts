/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for the differential and perf files of the REST
 * dispatch table and the lean plans (test/rest/dispatch, test/http/graphql-lean-run, test/perf): the server's
 * counters of which way a request went, its two route tables, its statement recorder and its lean statements,
 * read by the server from its own modules, so that such a file can run on a server of the worker's realm without
 * evaluating the app's modules itself. What they return is plain data, but the recorder.
 */
import { restDispatchTaken } from '../../rest-adapter/dispatch.js';
import type { RouteDefinition } from '../../rest-adapter/route.js';
import { runInOrganizationSession } from '../../src/core/db-session.js';
import { leanRunCounts } from '../../src/core/lean-plan/lean-run.js';
import { findLeanPage } from '../../src/core/lean-read.js';
import { setLeanColumnPruning } from '../../src/core/lean-selection.js';
import { runLeanStatement } from '../../src/core/lean-statement.js';
import { PageArgs } from '../../src/core/pagination.js';
import type { Scope } from '../../src/core/scope.js';
import { FEATURE_ROUTES, VERSIONED_ROUTES } from '../../src/features.js';
import { graphqlLeanRunCounts as graphqlCounts } from '../../src/http/graphql-lean-run.js';
import { User } from '../../src/users/user.entity.js';
import type { RoundTripRecorder } from './round-trips.js';
import type { TestApp } from './test-app.js';

/** A route of a table as plain data: what the differential files read of it. */
export type RouteData = Pick<RouteDefinition, 'method' | 'path' | 'operation' | 'tenant' | 'csvBody'>;

const dataOf = ({ method, path, operation, tenant, csvBody }: RouteDefinition): RouteData => ({
  method,
  path,
  operation,
  tenant,
  csvBody,
});

/** The versioned table (mounted at /v1) and the features' table (at /api and /v1/api), in their order. */
async function routeTables(): Promise<{ versioned: RouteData[]; features: RouteData[] }> {
  return { versioned: VERSIONED_ROUTES.map(dataOf), features: FEATURE_ROUTES.map(dataOf) };
}

/** REST reads the dispatch table took in this process (rest-adapter/dispatch.ts). */
async function restDispatchCount(): Promise<number> {
  return restDispatchTaken();
}

/** REST runs of a document's plan in this process, answered and handed back (src/core/lean-plan/lean-run.ts). */
async function restLeanRunCounts(): Promise<{ answered: number; handedBack: number }> {
  return leanRunCounts();
}

/** GraphQL runs of a plan in this process: started, answered, handed back (src/http/graphql-lean-run.ts). */
async function graphqlLeanRunCounts(): Promise<{ started: number; answered: number; handedBack: number }> {
  return graphqlCounts();
}

/**
 * The server's statement recorder (TestAppOptions' `recordRoundTrips`): this realm's `pg`, the one its pools use.
 * The file calls it as its own (`during`, `delayAnswers`); what it records are this realm's arrays.
 */
async function roundTripRecorder(app: TestApp): Promise<RoundTripRecorder> {
  if (!app.roundTrips) throw new Error('The server records no statements: start it with `recordRoundTrips`');
  return app.roundTrips;
}

/**
 * `runLeanStatement` (src/core/lean-statement.ts: a named prepared statement unless `named` is false) on the
 * server's root EntityManager, in `scope`'s organization session: the rows (test/perf/lean-statements).
 */
function leanStatementIn(
  app: TestApp,
  scope: Scope,
  sql: string,
  params: unknown[],
): Promise<Array<Record<string, unknown>>> {
  return runInOrganizationSession(scope, () =>
    runLeanStatement<Record<string, unknown>>(app.orm.em, sql, params),
  );
}

/** Lean pages read only their fields' columns (src/core/lean-selection.ts) unless switched off, server-wide. */
async function leanColumnPruning(_app: TestApp, on: boolean): Promise<void> {
  setLeanColumnPruning(on);
}

/**
 * A page of a tenant's users read as a lean view of `fields` only (`computed`: the columns each computed field is
 * declared to read), and what reading each of `reads` on its first item gave: the value's type, or the error's
 * message (test/perf/lean-columns-differential: a computed field declared short throws).
 */
async function leanUsersPage(
  app: TestApp,
  scope: Scope,
  tenantId: string,
  view: { fields: string[]; computed: Record<string, Array<keyof User & string>> },
  reads: string[],
): Promise<{ items: number; read: Record<string, { type: string } | { error: string }> }> {
  const page = await findLeanPage(
    { em: app.orm.em.fork(), scope },
    User,
    { tenantId, deletedAt: null },
    Object.assign(new PageArgs(), { page: 1, limit: 5 }),
    { createdAt: 'desc', id: 'desc' },
    [],
    undefined,
    { fields: new Set(view.fields), computed: view.computed },
  );
  const read: Record<string, { type: string } | { error: string }> = {};
  for (const field of reads) {
    try {
      read[field] = { type: typeof page.items[0]?.[field as keyof User] };
    } catch (error) {
      read[field] = { error: (error as Error).message };
    }
  }
  return { items: page.items.length, read };
}

export const SERVER_SIDE_LEAN = {
  leanColumnPruning,
  leanUsersPage,
  roundTripRecorder,
  leanStatementIn,
  routeTables,
  restDispatchCount,
  restLeanRunCounts,
  graphqlLeanRunCounts,
};
