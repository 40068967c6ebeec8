import {
  getNamedType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { LIST_BOUNDS } from '../../src/http/list-bounds.js';
import { listBoundOf, queryCost } from '../../src/http/query-limits.js';
import { buildAppSchema } from '../../src/schema.js';

/**
 * Issue #32 item 3: no list in the schema stays unpaged and unbounded. Every list of objects either takes
 * `limit` (a page, ≤ 100) or has a bound the cost analysis knows (src/http/list-bounds.ts, or the field's
 * `expectedListSize`); a new unbounded list fails here.
 */

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

/** Every `Type.field` returning a list of objects, with the field. */
function objectLists(): Array<[string, GraphQLField<unknown, unknown>]> {
  const found: Array<[string, GraphQLField<unknown, unknown>]> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const fields = type.getFields();
    for (const field of Object.values(fields)) {
      const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
      if (!isListType(unwrapped) || !isCompositeType(getNamedType(field.type))) continue;
      if ('pageInfo' in fields && field.name === 'items') continue; // costed by its page's limit
      found.push([`${type.name}.${field.name}`, field]);
    }
  }
  return found;
}

describe('every list of the schema is paged or bounded', () => {
  it('gives every list of objects a limit argument or a known bound', () => {
    const unbounded = objectLists()
      .filter(([, field]) => !field.args.some((arg) => arg.name === 'limit'))
      .filter(([name, field]) => {
        const [typeName] = name.split('.');
        return (
          typeof field.extensions?.expectedListSize !== 'number' &&
          LIST_BOUNDS[`${typeName}.${field.name}`] === undefined
        );
      })
      .map(([name]) => name);
    expect(unbounded).toEqual([]);
  });

  it('names only fields that exist and are not paged', () => {
    const lists = new Map(objectLists());
    for (const name of Object.keys(LIST_BOUNDS)) {
      const field = lists.get(name);
      expect({ name, exists: Boolean(field) }).toEqual({ name, exists: true });
      expect({ name, paged: field!.args.some((arg) => arg.name === 'limit') }).toEqual({
        name,
        paged: false,
      });
      const bound = LIST_BOUNDS[name];
      const expected = typeof bound === 'number' ? bound : bound.default;
      expect(listBoundOf(name.split('.')[0], field!)).toBe(expected);
    }
  });

  it('costs the secure score history by the days asked for', () => {
    const cost = (days: number) =>
      queryCost(
        schema,
        parse('query ($d: Int) { secureScores(limit: 10, historyDays: $d) { items { history { day } } } }'),
        { d: days },
      );
    expect(cost(90)).toBeGreaterThan(2.5 * cost(30));
  });

  it('costs alert comments by the page asked for, and a large page of comments over the limit', () => {
    const cost = (limit: number) =>
      queryCost(
        schema,
        parse(
          `query { securityAlerts(tenantId: "${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}", limit: 100) { items { comments(limit: ${limit}) { id text createdAt } } } }`,
        ),
        {},
      );
    expect(cost(100)).toBeGreaterThan(10 * cost(5));
    expect(cost(100)).toBeGreaterThan(30_000);
  });
});
