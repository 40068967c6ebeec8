/**
 * Written against graphql-jit 0.8.9 (checked at start-up: ./versions.ts).
 *
 * Why: the code graphql-jit generates for every scalar or enum field passes the field's source locations and
 * its response path to the runtime as literals, `[{"line":5,"column":3}]` and `["users","items",idx0,"id"]`,
 * which are only read when the field fails. They are built anew on every read of every field: three objects per
 * field of each item, ~120 KiB of garbage per page of 25 users, a fifth of all the bytes a REST or GraphQL
 * users list allocated (issue #31: the p99 tail is the young generation's pauses, paid per allocated byte).
 * Compiled through `compileLeanQuery`, the locations are constants of the compiled query and the path is a
 * constant template whose list indexes are filled in only when an error is built; the answer and its errors
 * are the same (test/core/perf-tricks.test.ts).
 *
 * The internals: graphql-jit builds the query's function with `new Function("return " + body)()` inside
 * `compileQuery`, which runs synchronously; for that call `globalThis.Function` is a proxy that rewrites the
 * body (its construct trap, nothing else). Each `rt.checkNonNullLeaf(…)` / `rt.checkNullableLeaf(…)` call of the
 * body is rewritten when its two literals have the expected shape (any other is left as generated); the runtime
 * object's two functions (`jitRuntime` of dist/runtime.js, the module graphql-jit's execution code requires) are
 * replaced by ones that read such a template. A body whose rewrite does not compile is compiled as generated.
 * A release that renames these functions, changes their parameters or stops using `new Function` would leave
 * the literals in place (slower, not wrong) or, if their parameters moved, mis-state an error's path: the test
 * compares errors with and without the rewrite.
 */
import { createRequire } from 'node:module';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { compileQuery } from './graphql-jit-serializer.js';

/** A list index of a path template: the `index`-th list index the generated code passes along. */
class ParentIndex {
  constructor(readonly index: number) {}
}

const templates = new WeakSet<ReadonlyArray<unknown>>();

/** A path template of the rewritten code (strings and list-index placeholders), registered as one. */
function pathTemplate(steps: ReadonlyArray<string | { index: number }>): ReadonlyArray<unknown> {
  const template = steps.map((step) => (typeof step === 'string' ? step : new ParentIndex(step.index)));
  templates.add(template);
  return template;
}

/** The response path of a failed field: a template's placeholders replaced by this call's list indexes. */
function pathOf(path: ReadonlyArray<unknown>, indexes: readonly number[]): ReadonlyArray<unknown> {
  if (!templates.has(path)) return path;
  return path.map((step) => (step instanceof ParentIndex ? indexes[step.index] : step));
}

type Serializer = (context: unknown, value: unknown, onError: unknown, ...indexes: number[]) => unknown;
type ErrorClass = new (
  message: unknown,
  locations: unknown,
  path: unknown,
  original: unknown,
  captureStack: unknown,
) => unknown;
interface JitContext {
  GraphQLError: ErrorClass;
}

/** graphql-jit's runtime object: the functions the generated code calls as `__context.rt.…`. */
interface JitRuntime {
  checkNonNullLeaf(...args: unknown[]): unknown;
  checkNullableLeaf(...args: unknown[]): unknown;
}

let installed = false;

/** graphql-jit's two leaf checks, unchanged except that a template path is filled in when an error is built. */
function installRuntime(): void {
  if (installed) return;
  installed = true;
  const { jitRuntime } = createRequire(import.meta.url)('graphql-jit/dist/runtime.js') as {
    jitRuntime: JitRuntime;
  };
  jitRuntime.checkNonNullLeaf = function checkNonNullLeaf(
    ctx: JitContext,
    value: unknown,
    dest: unknown[],
    nullMsg: string,
    locs: unknown,
    path: ReadonlyArray<unknown>,
    capStack: boolean,
    serialize: Serializer,
    errHandler: unknown,
    ...parentIndexes: number[]
  ): unknown {
    if (value == null) {
      dest.push(new ctx.GraphQLError(nullMsg, locs, pathOf(path, parentIndexes), undefined, capStack));
      return null;
    }
    if (value instanceof Error) {
      const message = value.message ?? value;
      dest.push(new ctx.GraphQLError(message, locs, pathOf(path, parentIndexes), value, capStack));
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  } as JitRuntime['checkNonNullLeaf'];
  jitRuntime.checkNullableLeaf = function checkNullableLeaf(
    ctx: JitContext,
    value: unknown,
    dest: unknown[],
    locs: unknown,
    path: ReadonlyArray<unknown>,
    capStack: boolean,
    serialize: Serializer,
    errHandler: unknown,
    ...parentIndexes: number[]
  ): unknown {
    if (value == null) return null;
    if (value instanceof Error) {
      const message = value.message ?? value;
      dest.push(new ctx.GraphQLError(message, locs, pathOf(path, parentIndexes), value, capStack));
      return null;
    }
    return serialize(ctx, value, errHandler, ...parentIndexes);
  } as JitRuntime['checkNullableLeaf'];
}

/** A leaf check's call up to its locations and path literals (one line of generated code). */
const LEAF_CALL =
  /(rt\.check(?:NonNull|Nullable)Leaf\(__context, )([^\n]*?)(\[\{"line":\d+,"column":\d+\}(?:,\{"line":\d+,"column":\d+\})*\]), (\[[^[\]{}\n]*\]), /g;

/**
 * `body` with each leaf check's locations and path literals replaced by constants declared before it (the
 * names `__leafLocations` and `__leafPaths`, and the parameter `__leafPathTemplate` of the function built from
 * it). Null when no call was rewritten.
 */
export function rewriteLeafArguments(body: string): string | null {
  const locations: string[] = [];
  const paths: string[] = [];
  const rewritten = body.replace(
    LEAF_CALL,
    (call, head: string, middle: string, loc: string, path: string) => {
      if (middle.includes('[')) return call;
      const steps: Array<string | { index: number }> = [];
      for (const step of path.slice(1, -1).split(',')) {
        const text = step.trim();
        if (text === '') continue;
        const index = /^idx(\d+)$/.exec(text);
        if (index) steps.push({ index: Number(index[1]) });
        else if (/^"[_A-Za-z0-9]*"$/.test(text)) steps.push(JSON.parse(text) as string);
        else return call;
      }
      locations.push(loc);
      paths.push(`__leafPathTemplate(${JSON.stringify(steps)})`);
      return `${head}${middle}__leafLocations[${locations.length - 1}], __leafPaths[${paths.length - 1}], `;
    },
  );
  if (locations.length === 0) return null;
  return (
    `const __leafLocations = [${locations.join(',')}];\n` +
    `const __leafPaths = [${paths.join(',')}];\n${rewritten}`
  );
}

/** `compileQuery`, with the leaf checks' literals of the generated code made constants (see the file). */
export function compileLeanQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string,
): CompiledQuery | ExecutionResult {
  installRuntime();
  const holder = globalThis as { Function: FunctionConstructor };
  const NativeFunction = holder.Function;
  holder.Function = new Proxy(NativeFunction, {
    construct(target, args: unknown[]) {
      const body = args.length === 1 && typeof args[0] === 'string' ? rewriteLeafArguments(args[0]) : null;
      if (body !== null) {
        try {
          const build = Reflect.construct(target, ['__leafPathTemplate', body]) as (
            template: typeof pathTemplate,
          ) => unknown;
          // graphql-jit calls what it constructed without arguments: hand the template maker over here.
          return () => build(pathTemplate);
        } catch {
          // Not valid code after all: compiled as generated below.
        }
      }
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    return compileQuery(schema, document, operationName);
  } finally {
    holder.Function = NativeFunction;
  }
}
