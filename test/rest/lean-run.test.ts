/**
 * A REST document's plan (rest-adapter/lean-run.ts) against graphql-jit on a small schema: the same answer (same JSON
 * text) where it is planned, graphql-jit's own answer wherever the plan leaves the happy path, and no plan for what
 * it does not take. test/rest/dispatch.test.ts compares both over every REST read route of the real schema.
 */
import {
  getOperationAST,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
} from 'graphql';
import { compileQuery, isCompiledQuery } from '../../src/core/perf/graphql-jit-serializer.js';
import { leanRunCounts, planLeanRun } from '../../rest-adapter/lean-run.js';

const Status = new GraphQLEnumType({
  name: 'Status',
  values: { active: { value: 'A' }, blocked: { value: 'B' } },
});
const Item = new GraphQLObjectType({
  name: 'Item',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID) },
    name: { type: GraphQLString },
    count: { type: new GraphQLNonNull(GraphQLInt) },
    flag: { type: GraphQLBoolean },
    status: { type: new GraphQLNonNull(Status) },
    tags: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))) },
  },
});
const Page = new GraphQLObjectType({
  name: 'Page',
  fields: {
    items: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Item))) },
    total: { type: new GraphQLNonNull(GraphQLInt) },
  },
});

/** What the root resolver answers in a test (a function of the arguments it was given). */
let answer: (args: Record<string, unknown>) => unknown = () => null;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      page: {
        type: Page,
        args: { limit: { type: GraphQLInt, defaultValue: 2 } },
        resolve: (_root, args: Record<string, unknown>) => answer(args),
      },
    },
  }),
});

const DOCUMENT = `query ($limit: Int) { page(limit: $limit) { items { id name count flag status tags __typename } total } }`;

function item(index: number, changes: Record<string, unknown> = {}) {
  return {
    id: `id-${index}`,
    name: index % 2 ? null : `n"${index}`,
    count: index,
    flag: index % 2 === 0,
    status: 'A',
    tags: ['x', 'y'],
    ...changes,
  };
}

async function bothWays(source: string, variables: Record<string, unknown> = {}) {
  const document = parse(source);
  const jit = compileQuery(schema, document);
  if (!isCompiledQuery(jit)) throw new Error('graphql-jit did not compile the document');
  const viaJit = (await jit.query(undefined, {}, variables)) as ExecutionResult;
  const plan = planLeanRun(schema, document, getOperationAST(document)!);
  if (!plan) throw new Error('no plan');
  const before = leanRunCounts();
  const viaPlan = await plan({}, variables, () => jit.query(undefined, {}, variables) as ExecutionResult);
  const after = leanRunCounts();
  return { viaJit, viaPlan, handedBack: after.handedBack - before.handedBack };
}

it('answers a planned document with the same JSON as graphql-jit, enums and defaults included', async () => {
  answer = (args) => ({
    items: [0, 1, 2].slice(0, Number(args.limit)).map((index) => item(index)),
    total: 3,
  });
  for (const variables of [{}, { limit: 3 }, { limit: 0 }]) {
    const { viaJit, viaPlan, handedBack } = await bothWays(DOCUMENT, variables);
    expect(JSON.stringify(viaPlan)).toBe(JSON.stringify(viaJit));
    expect({ variables, handedBack }).toEqual({ variables, handedBack: 0 });
  }
});

it('gives the root resolver the variables and arguments graphql-jit gives it', async () => {
  answer = (args) => ({
    items: [0, 1, 2].slice(0, Number(args.limit)).map((index) => item(index)),
    total: 3,
  });
  const selection = '{ items { id count } total }';
  const cases: Array<[string, Record<string, unknown>]> = [
    [`query ($limit: Int) { page(limit: $limit) ${selection} }`, { limit: null }],
    [`query ($limit: Int = 1) { page(limit: $limit) ${selection} }`, {}],
    [`query ($limit: Int = 1) { page(limit: $limit) ${selection} }`, { limit: 3 }],
    [`{ page(limit: 1) ${selection} }`, {}],
    [`{ page ${selection} }`, {}],
  ];
  for (const [source, variables] of cases) {
    const { viaJit, viaPlan, handedBack } = await bothWays(source, variables);
    expect({ source, variables, viaPlan: JSON.stringify(viaPlan), handedBack }).toEqual({
      source,
      variables,
      viaPlan: JSON.stringify(viaJit),
      handedBack: 0,
    });
  }
  // A variable graphql-js refuses: graphql-jit's error.
  const { viaJit, viaPlan, handedBack } = await bothWays(DOCUMENT, { limit: 'x' });
  expect({ viaPlan: JSON.stringify(viaPlan), handedBack }).toEqual({
    viaPlan: JSON.stringify(viaJit),
    handedBack: 1,
  });
  expect(viaPlan.errors?.length).toBe(1);
});

it('hands anything off the happy path back to graphql-jit, whose answer and errors are given', async () => {
  const cases: Array<() => unknown> = [
    () => ({ items: [item(0, { count: null })], total: 1 }), // null in a non-null field
    () => ({ items: [item(0, { name: new Error('bad name') })], total: 1 }), // an Error as a value
    () => ({ items: [item(0, { count: 'many' })], total: 1 }), // a value the scalar refuses
    () => ({ items: [item(0, { status: 'Z' })], total: 1 }), // a value the enum does not know
    () => ({ items: new Set([item(0)]), total: 1 }), // a list that is not an array
    () => ({ items: [item(0, { name: Promise.resolve('later') })], total: 1 }), // a property's promise
    () => ({ items: [item(0, { name: () => 'called' })], total: 1 }), // a property graphql-js would call
  ];
  for (const [index, make] of cases.entries()) {
    answer = make;
    const { viaJit, viaPlan, handedBack } = await bothWays(DOCUMENT);
    expect({ index, viaPlan: JSON.stringify(viaPlan), handedBack }).toEqual({
      index,
      viaPlan: JSON.stringify(viaJit),
      handedBack: 1,
    });
  }
});

it('answers the root resolver’s error as graphql-jit does, with the original error', async () => {
  const failure = new Error('not found');
  for (const make of [
    () => Promise.reject(failure),
    () => {
      throw failure;
    },
  ]) {
    answer = make;
    const { viaJit, viaPlan, handedBack } = await bothWays(DOCUMENT);
    expect(handedBack).toBe(0);
    expect(viaPlan.errors?.[0].originalError).toBe(failure);
    expect(viaPlan.errors?.[0].message).toBe(viaJit.errors?.[0].message);
    expect(viaPlan.errors?.[0].path).toEqual(viaJit.errors?.[0].path);
  }
});

it('plans no document with fragments, directives, nested arguments or resolvers of its own', () => {
  const unplanned = [
    `{ page { ...F } } fragment F on Page { total }`,
    `{ page { ... on Page { total } } }`,
    `query ($on: Boolean!) { page { total @include(if: $on) } }`,
    `{ page { total total } }`,
    `mutation { page { total } }`,
  ];
  const withResolver = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: { page: { type: Page, resolve: () => null } },
    }),
  });
  for (const source of unplanned) {
    const document = parse(source);
    const operation = getOperationAST(document);
    expect({ source, plan: operation && planLeanRun(schema, document, operation) }).toEqual({
      source,
      plan: null,
    });
  }
  // A nested field with a resolver of its own (not one called directly): graphql-jit's.
  const own = new GraphQLObjectType({ name: 'Own', fields: { x: { type: GraphQLInt, resolve: () => 1 } } });
  const ownSchema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { own: { type: own, resolve: () => ({}) } } }),
  });
  const document = parse('{ own { x } }');
  expect(planLeanRun(ownSchema, document, getOperationAST(document)!)).toBeNull();
  expect(
    planLeanRun(withResolver, parse('{ page { total } }'), getOperationAST(parse('{ page { total } }'))!),
  ).not.toBeNull();
});

it('takes the variables the REST handler already coerced instead of coercing them again', async () => {
  let parsed = 0;
  const Counted = new GraphQLScalarType({
    name: 'Counted',
    parseValue: (value) => {
      parsed++;
      return Number(value);
    },
  });
  const echoSchema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        echo: {
          type: GraphQLInt,
          args: { value: { type: Counted } },
          resolve: (_root, args: { value?: number }) => args.value,
        },
      },
    }),
  });
  const document = parse('query ($value: Counted) { echo(value: $value) }');
  const plan = planLeanRun(echoSchema, document, getOperationAST(document)!)!;
  const fallback = (): ExecutionResult => ({ errors: [] });
  expect(await plan({}, { value: '5' }, fallback)).toEqual({ data: { echo: 5 } });
  expect(parsed).toBe(1);
  // The handler's coercion (`coercionProblems`) hands its value on: not parsed again, and that value is used.
  expect(await plan({}, { value: '5' }, fallback, { value: 7 })).toEqual({ data: { echo: 7 } });
  expect(parsed).toBe(1);
});
