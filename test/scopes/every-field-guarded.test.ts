import { randomUUID } from 'node:crypto';
import {
  execute,
  getNamedType,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  isCompositeType,
  parse,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { createRequestContext } from '../../src/context.js';
import { Environment } from '../../src/core/scope.js';
import type { Viewer } from '../../src/core/viewer.js';
import { buildAppSchema } from '../../src/schema.js';
import { TestApp } from '../helpers/test-app.js';

let app: TestApp;
let schema: GraphQLSchema;

beforeAll(async () => {
  app = await TestApp.start();
  schema = await buildAppSchema();
});
afterAll(() => app.stop());

/** A value of the right type for every required argument, so execution reaches the resolver's guard. */
function sampleValue(type: GraphQLInputType): unknown {
  if (type instanceof GraphQLNonNull) return sampleValue(type.ofType);
  if (type instanceof GraphQLList) return [sampleValue(type.ofType)];
  if (type instanceof GraphQLEnumType) return type.getValues()[0].name; // variables carry enum names
  if (type instanceof GraphQLInputObjectType) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields()))
      if (field.type instanceof GraphQLNonNull) value[field.name] = sampleValue(field.type);
    return value;
  }
  const scalar = type as GraphQLScalarType;
  const samples: Record<string, unknown> = {
    UUID: randomUUID(),
    ID: randomUUID(),
    Int: 1,
    Float: 1,
    Boolean: true,
    DateTime: '2026-11-01T12:00:00Z',
    JSONObject: {},
  };
  return scalar.name in samples ? samples[scalar.name] : 'x';
}

function documentFor(operation: 'query' | 'mutation', field: GraphQLField<unknown, unknown>) {
  const definitions = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`);
  const args = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const selection = isCompositeType(getNamedType(field.type)) ? '{ __typename }' : '';
  const variables = Object.fromEntries(
    field.args
      .filter((arg) => arg.type instanceof GraphQLNonNull)
      .map((arg) => [arg.name, sampleValue(arg.type)]),
  );
  const text = `${operation}${definitions.length ? `(${definitions.join(', ')})` : ''} { ${field.name}${
    args.length ? `(${args.join(', ')})` : ''
  } ${selection} }`;
  return { document: parse(text), variables };
}

describe('every GraphQL query and mutation (and so every REST route) checks a permission', () => {
  it('refuses a credential that holds no permission at all, with FORBIDDEN naming what is needed', async () => {
    const viewer: Viewer = {
      organizationId: randomUUID(),
      organizationSlug: 'nobody',
      environment: Environment.SANDBOX,
      rateLimitPerMinute: 60,
      credentialKind: 'access_token',
      credentialId: randomUUID(),
      permissions: new Set(),
    };
    const unguarded: string[] = [];
    const roots = [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
    ] as const;
    let checked = 0;
    for (const [operation, root] of roots) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        const { document, variables } = documentFor(operation, field);
        const result = await execute({
          schema,
          document,
          variableValues: variables,
          contextValue: createRequestContext(app.orm, app.deps, viewer),
        });
        const error = result.errors?.[0];
        const extensions = (error?.originalError ?? error) as
          { extensions?: { code?: string; details?: { required?: string } } } | undefined;
        checked++;
        if (extensions?.extensions?.code !== 'FORBIDDEN' || !extensions.extensions.details?.required)
          unguarded.push(`${operation} ${field.name}: ${error?.message ?? 'no error'}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(unguarded).toEqual([]);
  });
});
