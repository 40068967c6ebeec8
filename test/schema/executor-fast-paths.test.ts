import { GraphQLObjectType, GraphQLSchema, graphql } from 'graphql';
import { IsoDateTime } from '../../src/core/scalars.js';
import { buildAppSchema } from '../../src/schema.js';
import { directFieldResolvers } from '../../src/core/perf/type-graphql-direct-field-resolvers.js';
import { User } from '../../src/users/user.entity.js';

/**
 * Issue #11: what keeps the executors on their fast paths. Plain fields have no resolver (the executor reads the
 * property), while fields with a resolver or a published name other than the property keep theirs; DateTime
 * values reach JSON.stringify as strings.
 */
let schema: GraphQLSchema;

beforeAll(async () => {
  schema = await buildAppSchema();
});

function field(typeName: string, fieldName: string) {
  const type = schema.getType(typeName);
  if (!(type instanceof GraphQLObjectType)) throw new Error(`${typeName} is not an object type`);
  return type.getFields()[fieldName];
}

describe('field resolvers', () => {
  it('leaves plain properties and getters to the executor', () => {
    expect(field('User', 'displayName').resolve).toBeUndefined();
    expect(field('User', 'createdAt').resolve).toBeUndefined();
    expect(field('Tenant', 'id').resolve).toBeUndefined();
  });

  it('keeps field resolvers and fields published under another name', () => {
    expect(field('User', 'licenses').resolve).toEqual(expect.any(Function));
    // OAuthClient.environment is the getter environmentName: the executor alone would read `environment`.
    expect(field('OAuthClient', 'environment').resolve).toEqual(expect.any(Function));
  });

  it('reads getters through the prototype of a plain field', async () => {
    class Row {
      get displayName() {
        return 'from a getter';
      }
    }
    const result = await graphql({
      schema: new GraphQLSchema({
        query: new GraphQLObjectType({
          name: 'Query',
          fields: { user: { type: schema.getType('User') as GraphQLObjectType, resolve: () => new Row() } },
        }),
      }),
      source: '{ user { displayName } }',
    });
    expect(result).toEqual({ data: { user: { displayName: 'from a getter' } } });
  });
});

describe('field resolvers of only the parent and the context (src/core/perf/type-graphql-direct-field-resolvers.ts)', () => {
  it('call the method without type-graphql’s wrapper: User.licenses among them, not those taking arguments', () => {
    expect(directFieldResolvers).toContain('User.licenses');
    // Tenant fields with arguments or other parameters keep type-graphql's wrapper.
    for (const name of directFieldResolvers) expect(name).toMatch(/^\w+\.\w+$/);
  });

  it('hand the method the parent and the context; a parent of another class goes through type-graphql', async () => {
    const resolve = field('User', 'licenses').resolve!;
    const user = Object.assign(Object.create(User.prototype) as User, { id: 'u1' });
    const loaded: string[] = [];
    const context = {
      loaders: { get: () => ({ load: async (id: string) => (loaded.push(id), ['sku']) }) },
    };
    await expect(resolve(user, {}, context, undefined as never)).resolves.toEqual(['sku']);
    // A plain object is converted to a User by type-graphql's resolver first, then the same method runs.
    await expect(resolve({ id: 'u2' }, {}, context, undefined as never)).resolves.toEqual(['sku']);
    expect(loaded).toEqual(['u1', 'u2']);
  });
});

describe('DateTime', () => {
  it('is the service scalar everywhere in the schema', () => {
    // mapSchema rebuilds every type: the schema holds a copy with IsoDateTime's functions.
    const dateTime = schema.getType('DateTime') as typeof IsoDateTime;
    expect(dateTime.serialize).toBe(IsoDateTime.serialize);
    expect(field('User', 'createdAt').type.toString()).toBe('DateTime!');
  });

  it('writes ISO 8601 strings at UTC, whatever the resolver returned', () => {
    expect(IsoDateTime.serialize(new Date('2026-11-26T10:15:30.5Z'))).toBe('2026-11-26T10:15:30.500Z');
    expect(IsoDateTime.serialize('2026-11-26T12:15:30+02:00')).toBe('2026-11-26T10:15:30.000Z');
    expect(IsoDateTime.serialize(Date.UTC(2026, 10, 26))).toBe('2026-11-26T00:00:00.000Z');
  });

  it('refuses what is not a date-time, as before', () => {
    expect(() => IsoDateTime.serialize(new Date('not a date'))).toThrow(/invalid Date/);
    expect(() => IsoDateTime.serialize('yesterday')).toThrow(/invalid date-time/);
    expect(IsoDateTime.parseValue('2026-11-26T10:15:30Z')).toEqual(new Date('2026-11-26T10:15:30Z'));
  });
});
