/**
 * Written against kysely 0.29.6, the copy @mikro-orm/postgresql 7.2.1 loads (checked at start-up:
 * ./versions.ts).
 *
 * Why: a lean read (src/core/lean-statement.ts) sends its statement with `$n` parameters as a named prepared
 * statement, so PostgreSQL parses and plans its shape once per connection instead of once per request
 * (docs/benchmarks.md "eighth round, SQL of a list"). It must go through the ORM's Kysely client: that is where
 * a pooled connection is reserved and given the request's row-level security settings (core/db-session.ts's
 * `onReserveConnection` hook), exactly as for every other statement. MikroORM's `execute` inlines the values
 * into the text and Kysely's compiled queries have no field for a statement name.
 *
 * The internals: Kysely's `PostgresConnection.executeQuery` (dialect/postgres/postgres-driver.js) calls
 * `client.query(compiledQuery.sql, compiledQuery.parameters)` on pg's client, and pg's `client.query` takes a
 * query config `{ name, text }` as its first argument as readily as a text (documented pg API: "Prepared
 * statements"). A compiled query whose `sql` is that config reaches pg unchanged. A Kysely release that reads
 * or rewrites `sql` as a string before passing it on would break it loudly (a pg or TypeError on every lean
 * read); one that stopped passing `sql` through would too. test/core/perf-tricks.test.ts checks it against
 * the installed Kysely; every lean-read test (test/users, test/licenses, test/rls, test/perf) runs through it.
 */
import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';

/** pg's query config for a named prepared statement (pg's own `QueryConfig`, without the values). */
export interface NamedStatement {
  /** Unique per text on a connection: pg refuses one name for two texts. */
  name: string;
  text: string;
}

/**
 * Runs `statement` with `values` through `client` (the ORM's Kysely instance or a transaction of it): reserved
 * as any ORM statement is, its values bound by pg. A statement without a name is sent unnamed (parsed and planned
 * every time, still with bound values).
 */
export async function executeStatement<R>(
  client: Pick<Kysely<unknown>, 'executeQuery'>,
  statement: NamedStatement | { name?: undefined; text: string },
  values: readonly unknown[],
): Promise<QueryResult<R>> {
  const raw = CompiledQuery.raw(statement.text, values as unknown[]);
  if (statement.name === undefined) return client.executeQuery<R>(raw);
  // A fresh config each time: pg writes `values` into the object it is given.
  const config = { name: statement.name, text: statement.text };
  return client.executeQuery<R>({ ...raw, sql: config as unknown as string });
}
