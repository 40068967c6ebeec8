/**
 * Written against @mikro-orm/core 7.2.1 (checked at start-up: ./versions.ts); the generated constructor
 * relies on V8's object shapes (Node 24), which affect its speed only, never its result.
 *
 * Why: lean pages (src/core/lean-read.ts) return "views", instances of the entity class that MikroORM does
 * not manage, built without the ORM's per-row work. Copying a row's columns in a loop with computed keys
 * (`view[property] = …`) turned every view into a V8 dictionary after a dozen properties, which cost about 3
 * µs per row to build and made every later field read a hash lookup (issue #11: 6% of a REST list's CPU). A
 * constructor generated with `new Function`, one named assignment per property in a fixed order, keeps V8's
 * fast properties. Its source is generated from entity metadata only (property and column names,
 * JSON-quoted), never from input.
 *
 * The internals: MikroORM puts a setter for every mapped property on the entity class's prototype
 * (EntityHelper.defineProperties, run when the ORM starts: on first assignment it installs the instance's own
 * accessors over its `__helper` data), and `__helper`, `__meta`, `toJSON` beside them; a view is not managed,
 * so assigning through those setters would fail. The view prototype sits under the entity's prototype
 * (`instanceof` and the class's own getters, such as a license's `available`, keep working, which
 * type-graphql relies on) and shadows every mapped property with a plain data property, so those setters are
 * never reached. A MikroORM release that puts other accessors on the prototype, or reads ORM state from the
 * class's getters, would reach views unshadowed. test/core/lean-columns.test.ts and
 * test/core/lean-timestamps.test.ts compare views with MikroORM's entities.
 */
import type { EntityClass } from '@mikro-orm/core';
import { parseTimestamp } from '../iso-time.js';

/** A mapped property of a lean view and the column it is read from. */
export interface ViewColumn {
  property: string;
  column: string;
  /** A timestamp column: the value goes through `parseTimestamp`. */
  isDate: boolean;
}

/**
 * A prototype under the entity class (so `instanceof` and the class's getters work) that shadows every mapped
 * property with a plain data property: MikroORM's setters on the class prototype need a managed entity.
 */
export function viewPrototypeOf(entityClass: EntityClass<object>, properties: string[]): object {
  const view = Object.create(entityClass.prototype as object) as object;
  for (const property of properties) {
    Object.defineProperty(view, property, {
      value: undefined,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
  return view;
}

/**
 * The prototype of a view built from some of the columns (a pruned page, core/lean-selection.ts): the columns
 * read as in viewPrototypeOf, every other mapped property an accessor that throws, so code that needs a column
 * the selection did not declare fails loudly instead of reading `undefined` (and an assignment to one throws in
 * strict code, having no setter).
 */
export function prunedViewPrototypeOf(
  entityClass: EntityClass<object>,
  read: string[],
  notRead: string[],
  table: string,
): object {
  const view = viewPrototypeOf(entityClass, read);
  for (const property of notRead) {
    Object.defineProperty(view, property, {
      get() {
        throw new Error(
          `${table}: "${property}" was not read for this lean view (declare the columns a computed field reads ` +
            'in its LeanSelection, core/lean-selection.ts)',
        );
      },
      enumerable: false,
      configurable: true,
    });
  }
  return view;
}

type ViewConstructor = new (row: Record<string, unknown>) => object;

/** A function that copies the columns of a row into a new view over `prototype`, in one fixed order. */
export function viewConstructorOf(
  prototype: object,
  columns: readonly ViewColumn[],
): (row: Record<string, unknown>) => object {
  const body = columns
    .map(({ property, column, isDate }) => {
      const value = `row[${JSON.stringify(column)}]`;
      return `this[${JSON.stringify(property)}] = ${isDate ? `parseTimestamp(${value})` : value};`;
    })
    .join('\n');
  const factory = new Function('parseTimestamp', `return function LeanView(row) {\n${body}\n};`) as (
    parse: typeof parseTimestamp,
  ) => ViewConstructor;
  const View = factory(parseTimestamp);
  View.prototype = prototype;
  return (row) => new View(row);
}
