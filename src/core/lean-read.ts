import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EXACT_TOTAL_LIMIT, pageOffset, type Page, type PageArgs } from './pagination.js';
import type { Scope } from './scope.js';
import type { LeanSelection } from './lean-selection.js';
import { quote, selectedShape, shapeOf, type LeanShape } from './lean-shape.js';
import { runLeanStatement } from './lean-statement.js';

/**
 * Read-only pages without the ORM's per-row work (entity construction, identity map, change tracking),
 * which costs several times the query itself on hot lists (see docs/benchmarks.md). One statement returns
 * the page and the total; the scope condition is added here, so callers cannot forget it.
 *
 * Rows come back as "views": instances of the entity class (its getters such as `available` on a license
 * work) that MikroORM does not manage: never persist or flush them.
 */
type ColumnValue = string | number | boolean | null;
/** A closed range on a column (either end optional), e.g. a date filter. */
export interface LeanRange {
  gte?: string | number | Date;
  lte?: string | number | Date;
}
export type LeanWhere<T> = Partial<Record<keyof T & string, ColumnValue | LeanRange>>;
export type LeanOrder<T> = Partial<Record<keyof T & string, 'asc' | 'desc'>>;

function columnFor(shape: LeanShape, property: string): string {
  const column = shape.columnOf.get(property);
  if (!column) throw new Error(`${shape.table} has no column for property "${property}"`);
  return quote(column);
}

function whereClause<T>(
  shape: LeanShape,
  scope: Scope,
  where: LeanWhere<T>,
): { sql: string; params: unknown[] } {
  const conditions = ['"organization_id" = ?', '"environment" = ?'];
  const params: unknown[] = [scope.organizationId, scope.environment];
  for (const [property, value] of Object.entries(where) as Array<
    [string, ColumnValue | LeanRange | undefined]
  >) {
    if (value === undefined) continue;
    if (value === null) conditions.push(`${columnFor(shape, property)} is null`);
    else if (typeof value === 'object') {
      for (const [operator, bound] of [
        ['>=', value.gte],
        ['<=', value.lte],
      ] as const) {
        if (bound === undefined) continue;
        conditions.push(`${columnFor(shape, property)} ${operator} ?`);
        params.push(bound instanceof Date ? bound.toISOString() : bound);
      }
    } else {
      conditions.push(`${columnFor(shape, property)} = ?`);
      params.push(value);
    }
  }
  return { sql: conditions.join(' and '), params };
}

function toView<T>(shape: LeanShape, row: Record<string, unknown>): T {
  return shape.toView(row) as T;
}

/**
 * A condition equalities cannot say (one of several values, a range, a search), written in SQL against the
 * table's columns with `?` placeholders, e.g. `{ sql: '"severity" = any(?)', params: [['High', 'Low']] }`.
 */
export interface LeanCondition {
  sql: string;
  params: unknown[];
}

/**
 * Computed columns a page reads in the same statement (e.g. the ids of related rows, saving the loader's round
 * trip): `select` is SQL over the entity's table (named by its table name), `read` takes them from each row.
 */
export interface LeanExtra<T> {
  select?: string;
  /**
   * Or rows related to the whole page, in one pass: SQL over `lean_page` (the page's rows, `id` among them)
   * returning `lean_key` (a page row's id) and the computed columns, e.g. an aggregate grouped by the page's ids.
   * One scan of the related table for the page instead of one subquery per row (the users' SKU ids: 0.93 → 0.50
   * ms of PostgreSQL CPU per page of 25, docs/benchmarks.md "eighth round"). Rows without a match read nulls.
   */
  overPage?: string;
  read(view: T, row: Record<string, unknown>): void;
}

export interface LeanContext {
  em: EntityManager;
  scope: Scope;
  /**
   * The process's root EntityManager, when the caller has one at hand (request contexts): a lean read uses only
   * an EntityManager's metadata and connection, which every fork shares, so reading through the root spares a
   * read-only request the fork of an identity map it would never use (its `em` is forked on first access).
   */
  sharedEm?: EntityManager;
}

/** The EntityManager a lean read takes its metadata and connection from (the same for every fork). */
const emOf = (ctx: LeanContext): EntityManager => ctx.sharedEm ?? ctx.em;

/** Declared beside PageInfo, whose totalEstimated description quotes it. */
export { EXACT_TOTAL_LIMIT };

function orderClause<T>(shape: LeanShape, orderBy: LeanOrder<T>): string {
  return (Object.entries(orderBy) as Array<[string, 'asc' | 'desc']>)
    .map(([name, direction]) => `${columnFor(shape, name)} ${direction === 'desc' ? 'desc' : 'asc'}`)
    .join(', ');
}

/**
 * One page of a scoped entity and the total, in one round trip. The page is its own subquery (`order by … limit`),
 * so PostgreSQL reads it through the ordered index and stops after offset + limit rows; the total is a separate
 * capped count (index-only where an index covers the filter). A window `count(*) over ()` beside the page
 * made PostgreSQL read, aggregate and sort the whole tenant for every page (issue #11); the plan tests in
 * test/rest/list-plans*.test.ts keep it from coming back.
 */
export async function findLeanPage<T extends object>(
  ctx: LeanContext,
  entity: EntityClass<T>,
  where: LeanWhere<T>,
  args: PageArgs,
  orderBy: LeanOrder<T>,
  conditions: LeanCondition[] = [],
  extra?: LeanExtra<T>,
  /** Only the columns of these fields (lean-selection.ts); every column without it. */
  selection?: LeanSelection<T>,
): Promise<Page<T>> {
  const shape = selectedShape(shapeOf(emOf(ctx), entity), selection);
  const filter = whereClause(shape, ctx.scope, where);
  for (const condition of conditions) {
    filter.sql += ` and (${condition.sql})`;
    filter.params.push(...condition.params);
  }
  const { rows, pageInfo } = await findPageRows<Record<string, unknown>>(
    ctx,
    shape.table,
    filter,
    orderClause(shape, orderBy),
    args,
    extra?.select ? `${shape.selectList}, ${extra.select}` : shape.selectList,
    '',
    // Prepared only when the list's plan cannot hinge on a value: a filter's selectivity (a status, a range, a
    // search) is what a generic plan does not know, so a filtered page is planned with its values every time.
    {
      prepared:
        conditions.length === 0 &&
        !Object.values(where).some((value) => value !== null && typeof value === 'object'),
      overPage: extra?.overPage,
    },
  );
  const items = rows.map((row) => {
    const view = toView<T>(shape, row);
    extra?.read(view, row);
    return view;
  });
  return { items, pageInfo };
}

/**
 * The same page-and-count statement for a list with its own SQL (an order by an expression such as
 * `lower(display_name)`, computed columns): `filter` must hold the scope condition, `order` should match an
 * index of `table` that starts with the filter's equalities, `select` may add computed columns and `alias` names
 * the table in `filter`, `order` and `select`.
 */
export async function findPageRows<R extends object>(
  ctx: LeanContext,
  table: string,
  filter: { sql: string; params: unknown[] },
  order: string,
  args: PageArgs,
  select = '*',
  alias = '',
  /**
   * As a named prepared statement (lean-statement.ts): for a page whose plan does not hinge on its values (the
   * scope, a parent, the order); a filtered page is better planned with its values each time (unnamed).
   */
  options: { prepared?: boolean; overPage?: string } = {},
): Promise<{ rows: R[]; pageInfo: Page<R>['pageInfo'] }> {
  const from = alias ? `${quote(table)} ${alias}` : quote(table);
  // The count's cap is a constant of the text; the page's limit and offset are values (one statement per shape).
  const count = `(select count(*) as lean_total from (select 1 from ${from} where ${filter.sql} limit ${EXACT_TOTAL_LIMIT + 1}) capped) lean_count`;
  const page =
    `select true as lean_row, ${select === '*' ? `${alias || quote(table)}.*` : select} from ${from} ` +
    `where ${filter.sql}${order ? ` order by ${order}` : ''} limit ? offset ?`;
  const rows = await runLeanStatement<R & { lean_total: string; lean_row: boolean }>(
    emOf(ctx),
    options.overPage
      ? // The page's order kept as the lateral form below keeps it: each row of the page, in turn, joined to its
        // related row (a lateral lookup, so no hash join can reorder them).
        `with lean_page as (${page}), lean_extra as (${options.overPage}) ` +
          `select lean_count.lean_total, lean_page.*, lean_extra.* from ${count} left join lean_page on true ` +
          `left join lateral (select * from lean_extra where lean_extra.lean_key = lean_page.id) lean_extra on true`
      : `select lean_count.lean_total, lean_page.* from ${count} left join lateral (${page}) lean_page on true`,
    options.overPage
      ? [...filter.params, args.limit, pageOffset(args), ...filter.params]
      : [...filter.params, ...filter.params, args.limit, pageOffset(args)],
    { named: options.prepared ?? false },
  );
  let total = rows.length > 0 ? Number(rows[0].lean_total) : 0;
  const totalEstimated = total > EXACT_TOTAL_LIMIT;
  if (totalEstimated) total = await estimatedTotal(ctx, from, filter, total);
  return {
    rows: rows.filter((row) => row.lean_row),
    pageInfo: { page: args.page, limit: args.limit, total, totalEstimated },
  };
}

/** The planner's row estimate for the filter (never below what the capped count already saw). */
async function estimatedTotal(
  ctx: LeanContext,
  table: string,
  filter: { sql: string; params: unknown[] },
  atLeast: number,
): Promise<number> {
  // Unnamed: a rare statement (only past EXACT_TOTAL_LIMIT), not worth a prepared statement per connection.
  const [explained] = await runLeanStatement<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
    emOf(ctx),
    `explain (format json) select 1 from ${table} where ${filter.sql}`,
    filter.params,
    { named: false },
  );
  const planRows = explained?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0;
  return Math.max(atLeast, Math.round(planRows));
}

/** Every row of a scoped entity whose `property` is one of `values` (a loader's batch), as views. */
export async function findLeanIn<T extends object>(
  ctx: LeanContext,
  entity: EntityClass<T>,
  property: keyof T & string,
  values: readonly string[],
  orderBy: LeanOrder<T> = {},
): Promise<T[]> {
  if (values.length === 0) return [];
  const shape = shapeOf(emOf(ctx), entity);
  const filter = whereClause(shape, ctx.scope, {});
  const order = orderClause(shape, orderBy);
  const rows = await runLeanStatement<Record<string, unknown>>(
    emOf(ctx),
    `select ${shape.selectList} from ${quote(shape.table)} where ${filter.sql} and ${columnFor(shape, property)} in (?)` +
      (order ? ` order by ${order}` : ''),
    [...filter.params, [...values]],
  );
  return rows.map((row) => toView<T>(shape, row));
}
