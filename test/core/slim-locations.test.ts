import {
  buildSchema,
  execute,
  GraphQLError,
  parse,
  type DocumentNode,
  type ExecutionResult,
  type OperationDefinitionNode,
} from 'graphql';
import { compileLeanQuery } from '../../src/core/perf/graphql-jit-leaf-arguments.js';
import { isCompiledQuery } from '../../src/core/perf/graphql-jit-serializer.js';
import { slimLocations } from '../../src/core/slim-locations.js';

/**
 * src/core/slim-locations.ts: a kept document's locations without their token chain. Errors (locations,
 * printed form) must be those of the document as parsed, through graphql-js and graphql-jit alike.
 */
const schema = buildSchema(`
  type Item { name: String!, tag: String }
  type Query { items: [Item!]!, one(id: ID!): Item }
`);
const failing = new Error('cannot read the tag');
const rootValue = { items: [{ name: 'x', tag: failing }], one: () => ({ name: 'a', tag: failing }) };
const TEXT = `
  query Items($id: ID!) {
    items { name tag }
    one(id: $id) {
      tag
    }
  }
`;

const errorsOf = (result: ExecutionResult) =>
  (result.errors ?? []).map((error) => ({ ...error.toJSON(), printed: error.toString() }));

function jitErrors(document: DocumentNode) {
  const compiled = compileLeanQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled.errors));
  return errorsOf(compiled.query(rootValue, {}, { id: '1' }) as ExecutionResult);
}

it('keeps every error location of graphql-js and graphql-jit, and drops the token chain', async () => {
  const slim = slimLocations(parse(TEXT));
  const asParsed = errorsOf(
    await execute({ schema, document: parse(TEXT), rootValue, variableValues: { id: '1' } }),
  );
  expect(asParsed.length).toBeGreaterThanOrEqual(2);
  expect(asParsed[0].locations?.length).toBe(1);
  expect(errorsOf(await execute({ schema, document: slim, rootValue, variableValues: { id: '1' } }))).toEqual(
    asParsed,
  );
  expect(jitErrors(slim)).toEqual(jitErrors(parse(TEXT)));
  // An error built on a node prints its place in the document as before.
  const field = (document: DocumentNode) =>
    (document.definitions[0] as OperationDefinitionNode).selectionSet.selections;
  expect(new GraphQLError('x', { nodes: field(slim) }).toString()).toBe(
    new GraphQLError('x', { nodes: field(parse(TEXT)) }).toString(),
  );
  const loc = slim.definitions[0].loc as unknown as Record<string, unknown>;
  expect(Object.keys(loc).sort()).toEqual(['end', 'source', 'start', 'startToken']);
  expect(Object.keys(loc.startToken as object).sort()).toEqual(['column', 'line']);
});
