import { buildSchema, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { compileLeanQuery, rewriteLeafArguments } from '../../src/core/perf/graphql-jit-leaf-arguments.js';

/**
 * src/core/perf/graphql-jit-leaf-arguments.ts: the generated code's per-field location and path literals made
 * constants. Answers and errors (messages, paths with their list indexes, locations) must be exactly those of
 * graphql-jit as released.
 */
const schema: GraphQLSchema = buildSchema(`
  enum Colour { RED GREEN }
  type Item { name: String!, tag: String, count: Int!, colour: Colour }
  type Query { items: [Item!]!, grid: [[Item]], one: Item }
`);

const failing = new Error('cannot read the tag');
const items = [
  { name: 'a', tag: 't', count: 1, colour: 'RED' },
  { name: null, tag: failing, count: 2, colour: 'GREEN' },
  { name: 'c', tag: null, count: 'not a number', colour: 'BLUE' },
];
// Fields without resolvers: graphql-jit reads the root's properties as they are.
const rootValue = { items: items.slice(0, 1), grid: [[items[0], items[1]], [items[2]]], one: items[2] };

const DOCUMENT = parse(`
  query Items {
    items { name tag count colour }
    grid { name tag count colour }
    one { name tag count colour }
  }
`);

function run(compiled: CompiledQuery | ExecutionResult) {
  if (!isCompiledQuery(compiled)) throw new Error(JSON.stringify(compiled.errors));
  return compiled.query(rootValue, {}, {}) as ExecutionResult;
}

const errorsOf = (result: ExecutionResult) =>
  (result.errors ?? []).map(({ message, path, locations }) => ({ message, path, locations }));

describe('graphql-jit leaf arguments (src/core/perf/graphql-jit-leaf-arguments.ts)', () => {
  it('answers as graphql-jit does, errors with the same messages, paths (list indexes too) and locations', () => {
    const released = run(compileQuery(schema, DOCUMENT, 'Items'));
    const lean = run(compileLeanQuery(schema, DOCUMENT, 'Items'));
    expect(lean.data).toEqual(released.data);
    expect(errorsOf(lean)).toEqual(errorsOf(released));
    // The case worth proving: errors below two levels of lists carry both indexes.
    expect(errorsOf(lean)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: ['grid', 0, 1, 'name'] }),
        expect.objectContaining({ path: ['grid', 0, 1, 'tag'], message: 'cannot read the tag' }),
        expect.objectContaining({ path: ['grid', 1, 0, 'count'] }),
        expect.objectContaining({ path: ['one', 'count'] }),
      ]),
    );
  });

  it('rewrites every leaf check of the generated code, leaving no per-call literal', () => {
    const compiled = compileQuery(schema, DOCUMENT, 'Items', { debug: true } as never) as {
      __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation?: string;
    };
    const body = compiled.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation!;
    const calls = body.match(/rt\.check(NonNull|Nullable)Leaf\(/g) ?? [];
    expect(calls.length).toBeGreaterThan(10);
    const rewritten = rewriteLeafArguments(body)!;
    const leafCalls = rewritten.split('\n').filter((line) => /rt\.check(NonNull|Nullable)Leaf\(/.test(line));
    expect(leafCalls.length).toBe(calls.length);
    for (const line of leafCalls) {
      expect(line).toMatch(/__leafLocations\[\d+\], __leafPaths\[\d+\]/);
      expect(line).not.toContain('[{"line"');
    }
  });

  it('leaves code without leaf checks alone', () => {
    expect(rewriteLeafArguments('return function query() { return 1; }')).toBeNull();
  });
});
