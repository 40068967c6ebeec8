/**
 * Written against pg 8.23.0 (checked at start-up: ./versions.ts); the generated factory relies on V8's object
 * shapes (Node 24), which affect its speed only, never its result.
 *
 * Why: pg builds every row by spreading a template made with `Object.create(null)` (a V8 dictionary) and then
 * storing each column under a computed key, so every row is itself a dictionary: about 2.7 KiB per users-list row
 * and 17% of the bytes a REST users list allocates, plus the template rebuilt for every statement (another 2%;
 * docs/benchmarks.md, issue #31). Here a row is one object literal with the columns in order, written by a
 * function generated once per column set (names JSON-quoted: metadata of the statement, never a value), so rows
 * keep fast properties; the type parsers of a column set are looked up once per pooled client instead of once per
 * statement. A `uuid[]` column (the users list's license SKU ids) is split on its commas instead of walking
 * postgres-array's character parser, when its text is the one-dimensional unquoted form every uuid array has.
 *
 * The internals: `pg/lib/result.js`'s `Result` (pg's per-statement result) calls `addFields` with the row
 * description and `parseRow` with each row's raw values; `_types` is the client's type overrides and `_parsers`
 * the per-column parsers, which the array row mode reads too. A row is the same object pg would build: the same
 * own keys in the same order, a repeated name keeping its first position and last value, `null` for SQL NULL.
 * Column sets this does not handle (binary format, a column named `__proto__`) and any beyond the cache's bound go
 * through pg's own code. The cache assumes a client's type parsers are not changed after its first statements
 * (`client.setTypeParser` later would be missed; MikroORM sets them when it creates the pool, nothing else here
 * does). test/core/pg-row-factory.test.ts compares rows and arrays with pg's own.
 */
import { createRequire } from 'node:module';

type Parser = (raw: string) => unknown;
interface FieldDescription {
  name: string;
  dataTypeID: number;
  format?: string;
}
interface TypeSource {
  getTypeParser(oid: number, format?: string): Parser;
}
interface PgResult {
  fields: FieldDescription[];
  _parsers: Parser[] | undefined;
  _types: TypeSource | undefined;
  _makeRow: ((raw: unknown[]) => Record<string, unknown>) | undefined;
  addFields(fields: FieldDescription[]): void;
  parseRow(raw: unknown[]): unknown;
}
interface ColumnSet {
  fields: Array<Pick<FieldDescription, 'name' | 'dataTypeID' | 'format'>>;
  /** False: a column set pg's own code builds (binary format, a `__proto__` column). */
  usable: boolean;
  parsers: Parser[];
  makeRow: (raw: unknown[]) => Record<string, unknown>;
}

const require = createRequire(import.meta.url);
const pgTypes = require('pg').types as TypeSource;
const Result = require('pg/lib/result.js') as { prototype: PgResult };

const UUID_ARRAY = 2951;
/** pg-types' parser of `uuid[]` (postgres-array), replaced only where a column would have used exactly it. */
const stringArray = pgTypes.getTypeParser(UUID_ARRAY, 'text');

/** `{a,b}` → ['a', 'b'], `{}` → [], NULL elements → null; any other form (quoted, nested, bounds) as pg-types. */
export function parseUuidArray(text: string): unknown {
  // `{` then not `{` (one dimension), and no quotes: a uuid never needs them, so commas only separate elements.
  if (text.charCodeAt(0) !== 123 || text.charCodeAt(1) === 123 || text.includes('"'))
    return stringArray(text);
  if (text.length === 2) return [];
  const items: Array<string | null> = text.slice(1, -1).split(',');
  for (let index = 0; index < items.length; index++) if (items[index] === 'NULL') items[index] = null;
  return items;
}

/** Column sets per client (its type overrides), each client's bounded: statements are constant SQL. */
const MAX_COLUMN_SETS = 500;
const columnSets = new WeakMap<object, { count: number; byEnds: Map<string, ColumnSet[]> }>();

function sameColumns(set: ColumnSet, fields: FieldDescription[]): boolean {
  if (set.fields.length !== fields.length) return false;
  for (let index = 0; index < fields.length; index++) {
    const known = set.fields[index];
    const field = fields[index];
    if (known.name !== field.name || known.dataTypeID !== field.dataTypeID || known.format !== field.format)
      return false;
  }
  return true;
}

function columnSetOf(types: TypeSource, fields: FieldDescription[]): ColumnSet | null {
  // Looked up by the first and last names, then compared column by column: a key of every column, built per
  // statement, cost more bytes than the rows it saved.
  const key = `${fields[0].name}\u0000${fields[fields.length - 1].name}`;
  let sets = columnSets.get(types);
  if (!sets) columnSets.set(types, (sets = { count: 0, byEnds: new Map() }));
  const candidates = sets.byEnds.get(key);
  if (candidates) for (const set of candidates) if (sameColumns(set, fields)) return set.usable ? set : null;
  if (sets.count >= MAX_COLUMN_SETS) return null;
  sets.count++;
  const usable = !fields.some((field) => field.name === '__proto__' || (field.format ?? 'text') !== 'text');
  const set = generate(types, fields, usable);
  if (candidates) candidates.push(set);
  else sets.byEnds.set(key, [set]);
  return usable ? set : null;
}

function generate(types: TypeSource, fields: FieldDescription[], usable: boolean): ColumnSet {
  const copy = fields.map(({ name, dataTypeID, format }) => ({ name, dataTypeID, format }));
  if (!usable) return { fields: copy, usable, parsers: [], makeRow: () => ({}) };
  const parsers = fields.map(({ dataTypeID }) => {
    const parser = types.getTypeParser(dataTypeID, 'text');
    return dataTypeID === UUID_ARRAY && parser === stringArray ? (parseUuidArray as Parser) : parser;
  });
  // `== null`: a value pg did not receive stays null, as in pg's template.
  const properties = fields.map(
    ({ name }, index) => `${JSON.stringify(name)}: raw[${index}] == null ? null : p[${index}](raw[${index}])`,
  );
  const factory = new Function(
    'p',
    `return function pgRow(raw) {\nreturn {\n${properties.join(',\n')}\n};\n};`,
  ) as (p: Parser[]) => ColumnSet['makeRow'];
  return { fields: copy, usable, parsers, makeRow: factory(parsers) };
}

let installed = false;

/** Installs the row factory on pg's Result (once per process). */
export function buildPgRowsWithFactories(): void {
  if (installed) return;
  installed = true;
  const prototype = Result.prototype;
  const { addFields, parseRow } = prototype;
  prototype.addFields = function (this: PgResult, fields: FieldDescription[]) {
    const set = fields.length > 0 ? columnSetOf(this._types ?? pgTypes, fields) : null;
    if (!set) {
      this._makeRow = undefined;
      addFields.call(this, fields);
      return;
    }
    this.fields = fields;
    this._parsers = set.parsers;
    this._makeRow = set.makeRow;
  };
  prototype.parseRow = function (this: PgResult, raw: unknown[]) {
    const makeRow = this._makeRow;
    return makeRow === undefined ? parseRow.call(this, raw) : makeRow(raw);
  };
}
