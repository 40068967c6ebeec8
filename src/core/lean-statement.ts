import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { executeStatement, type NamedStatement } from './perf/kysely-named-statement.js';

/**
 * How a lean read (lean-read.ts) reaches PostgreSQL: its statement with `$n` parameters and the values apart, as a
 * named prepared statement, through the ORM's Kysely client (so a pooled connection is reserved, and given the
 * request's row-level security settings, exactly as for the ORM's own statements: core/db-session.ts).
 *
 * Why: MikroORM's `execute` inlines every value into the text (formatting and escaping them costs the process
 * ~8 KiB and ~1% CPU a request), so PostgreSQL parsed and planned the users page each time: 1.07 ms of backend
 * CPU as sent against 0.97 ms as a named prepared statement (docs/benchmarks.md, seventh and eighth rounds).
 * The name is a hash of the text, and the text depends only on the list's shape (columns, conditions present,
 * order), never on a value, so a connection prepares each shape once and keeps it for its life (the schema only
 * changes at start-up, before any request). PostgreSQL re-plans a prepared statement by itself when the role
 * or a table's definition changes.
 *
 * Only pages whose plan cannot hinge on a value are named (lean-read.ts decides: scope, parent and order, no
 * filter), and the ORM's connections run them on their generic plan from the first execution
 * (`plan_cache_mode = force_generic_plan`, src/db/orm.ts): PostgreSQL, left to choose, costed the generic plan's
 * `limit $n` as a tenth of the tenant and re-planned the users page at every request on the bench's 100,000 users
 * (0.9 ms of planning; docs/benchmarks.md "ninth round"). A generic plan does not know a filter's selectivity
 * (an open status among resolved alerts), so a filtered page goes unnamed with its values in its text, as
 * MikroORM sends its own statements: planned with them, whatever plan_cache_mode says (a statement without
 * parameters has no generic plan).
 *
 * Callers write `?` placeholders as for MikroORM; `x in (?)` / `x not in (?)` with an array value become
 * `x = any($n)` / `x <> all($n)` (one text whatever the number of values); an array anywhere else is refused.
 */
export interface PositionalStatement {
  text: string;
  values: unknown[];
}

const IN_LIST = /\bnot\s+in\s*\(\s*$|\bin\s*\(\s*$/i;

/** A bound value as pg should send it: instants as ISO text (UTC), as MikroORM formats them. */
function boundValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value;
}

/** `?` placeholders → `$n` with the values apart; `\?` is a literal question mark, as in MikroORM. */
export function positional(sql: string, params: readonly unknown[]): PositionalStatement {
  let text = '';
  const values: unknown[] = [];
  let from = 0;
  let next = 0;
  for (let at = sql.indexOf('?'); at !== -1; at = sql.indexOf('?', from)) {
    if (at > 0 && sql[at - 1] === '\\') {
      text += sql.slice(from, at - 1) + '?';
      from = at + 1;
      continue;
    }
    if (sql[at + 1] === '?') throw new Error('lean reads take no `??` identifier placeholders');
    if (next >= params.length)
      throw new Error(`a lean statement has more placeholders than its ${params.length} values`);
    const value = params[next++];
    let before = sql.slice(from, at);
    if (Array.isArray(value)) {
      const list = IN_LIST.exec(before);
      if (!list || sql[at + 1] !== ')')
        throw new Error('a lean statement takes an array value only as `in (?)` or `not in (?)`');
      before = before.slice(0, list.index) + (/^not/i.test(list[0]) ? '<> all(' : '= any(');
      values.push(value.map(boundValue));
    } else values.push(boundValue(value));
    text += `${before}$${values.length}`;
    from = at + 1;
  }
  if (next !== params.length)
    throw new Error(`a lean statement has ${next} placeholders for ${params.length} values`);
  return { text: text + sql.slice(from), values };
}

/**
 * Names per text, bounded: shapes are a few per list, so the bound is only reached by a caller that put values
 * into its text; past it statements go unnamed (still with bound values) rather than filling every connection
 * with prepared statements.
 */
const MAX_NAMED = 1000;
const names = new Map<string, string>();

function statementFor(text: string): NamedStatement | { text: string } {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED) return { text };
    name = `lean_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text };
}

/**
 * Runs a lean read's statement (`?` placeholders, see `positional`) and returns its rows; logged as MikroORM
 * logs its own (with the values inlined when its `query-params` logging is on), so the statement counts and the
 * plan tests see it as before.
 */
export async function runLeanStatement<R>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  options: { named?: boolean } = {},
): Promise<R[]> {
  const unnamed = options.named === false;
  // Unnamed: the values in the text (see above), as MikroORM formats them; named: `$n` parameters.
  const { text, values } = unnamed
    ? { text: em.getPlatform().formatQuery(sql, [...params]), values: [] }
    : positional(sql, params);
  const statement = unnamed ? { text } : statementFor(text);
  const started = Date.now();
  const logger = em.config.getLogger();
  try {
    const result = await executeStatement<R>(em.getConnection().getClient(), statement, values);
    if (logger.isEnabled('query'))
      logger.logQuery({
        query: logged(em, sql, params, text, values, 'name' in statement),
        took: Date.now() - started,
        results: result.rows.length,
        level: 'info',
      });
    return result.rows;
  } catch (error) {
    if (logger.isEnabled('query'))
      logger.logQuery({
        query: logged(em, sql, params, text, values, 'name' in statement),
        took: Date.now() - started,
        level: 'error',
      });
    throw error;
  }
}

/**
 * The text a log shows: MikroORM's own formatting of the values into it when `query-params` logging is on (the
 * plan tests run it again under EXPLAIN), else the text as sent. With it, the statement as sent is written under
 * `[lean-statement]` (JSON `{ text, values }`): test/helpers/list-plan.ts plans it as PostgreSQL's generic plan.
 */
function logged(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  text: string,
  values: unknown[],
  named: boolean,
): string {
  const logger = em.config.getLogger();
  if (!logger.isEnabled('query-params')) return text;
  logger.log('query-params', `[lean-statement] ${JSON.stringify({ text, values, named })}`);
  return em.getPlatform().formatQuery(sql, [...params]);
}
