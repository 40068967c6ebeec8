import {
  GraphQLError,
  isNonNullType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  visit,
  BREAK,
} from 'graphql';
import { argumentsOf } from './lean-arguments.js';
import { completeValue, completionOf, isThenable, type Run } from './lean-complete.js';

/**
 * A REST read route's document run without graphql-jit's per-item machinery (issue #31 goal 2, eighth round).
 *
 * A route's document is fixed, so what graphql-jit does for every item of a page (a resolver call through a closure
 * with a response path and a resolve info per call, a closure pair per list item, a leaf check per field with its
 * error handler) can be planned once: which property each field reads, which scalar or enum serializes it, which
 * field resolver (a direct one, src/core/perf/type-graphql-direct-field-resolvers.ts) answers it. Running the plan
 * builds the same result objects (same keys, same order, same serialized values) and nothing else.
 *
 * It only takes the happy path. The root field's resolver is called as graphql-jit calls it (coerced variables,
 * the field's arguments, a full resolve info with the same path), and its error is answered as graphql-jit answers
 * it (one GraphQLError with the original error). Anything else unusual after that (a null in a non-null field, an
 * Error as a value, a serializer that throws, a value that is not a list where one is expected, a property that is
 * a function, a field resolver that rejects) gives the request back to graphql-jit, which runs the document again
 * from the start and answers with its errors as before. Variables or arguments graphql-js refuses go to graphql-jit
 * before anything runs. A document with fragments, directives, arguments on nested fields, abstract types or a
 * field resolver other than a direct one is not planned at all (`planLeanRun` answers null): graphql-jit runs it.
 */
/** Fragments and directives anywhere: left to graphql-jit (their meaning depends on the request). */
function hasFragmentsOrDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    enter(node) {
      if (
        node.kind === Kind.FRAGMENT_DEFINITION ||
        node.kind === Kind.FRAGMENT_SPREAD ||
        node.kind === Kind.INLINE_FRAGMENT ||
        node.kind === Kind.DIRECTIVE
      ) {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}
let answered = 0;
let handedBack = 0;

/** Planned runs that answered, and those handed back to graphql-jit, in this process (the tests read them). */
export function leanRunCounts(): { answered: number; handedBack: number } {
  return { answered, handedBack };
}

/**
 * `coerced` (optional): values of `variables` already coerced to their types (the REST handler's
 * `coercionProblems`), used instead of coercing them again; `variables` stays what graphql-jit gets on a hand-back.
 */
export type LeanRun = (
  context: unknown,
  variables: Record<string, unknown>,
  fallback: () => Promise<ExecutionResult> | ExecutionResult,
  coerced?: Readonly<Record<string, unknown>>,
) => Promise<ExecutionResult> | ExecutionResult;
function handBack(fallback: () => Promise<ExecutionResult> | ExecutionResult) {
  handedBack++;
  return fallback();
}

/** Every pending value settled (a settled one may have added more). */
async function settle(pending: Run['pending']): Promise<void> {
  for (let done = 0; done < pending.length; done++) await pending[done];
}

/**
 * The plan of a route's document (see the top of the file), or null when graphql-jit must run it. `operation` is
 * the document's one operation; only queries are planned.
 */
export function planLeanRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): LeanRun | null {
  if (operation.operation !== 'query' || hasFragmentsOrDirectives(document)) return null;
  const [node] = operation.selectionSet.selections as FieldNode[];
  const rootType = schema.getQueryType();
  const rootField = rootType?.getFields()[node.name.value];
  if (!rootType || !rootField || node.directives?.length) return null;
  const complete = completionOf(rootField.type, node.selectionSet);
  if (!complete) return null;
  const key = node.alias?.value ?? node.name.value;
  const nonNull = isNonNullType(rootField.type);
  const resolve = rootField.resolve;
  if (!resolve) return null;
  const argumentValues = argumentsOf(schema, operation, rootField, node);
  if (!argumentValues) return null;
  async function finish(
    value: unknown,
    context: unknown,
    fallback: () => Promise<ExecutionResult> | ExecutionResult,
  ): Promise<ExecutionResult> {
    const run: Run = { waiting: [], pending: [] };
    try {
      const data = completeValue(complete!, value, context, run, nonNull);
      if (run.pending.length > 0) await settle(run.pending);
      answered++;
      return { data: { [key]: data } };
    } catch {
      // Off the planned path (or a field that failed): graphql-jit answers, with its errors.
      return handBack(fallback);
    }
  }

  return (context, inputs, fallback, coerced) => {
    // Refused (e.g. a null for a non-null argument with a default): graphql-jit answers with its error.
    const values = argumentValues(inputs, coerced);
    if (!values) return handBack(fallback);
    const { variables, args } = values;
    const info: GraphQLResolveInfo = {
      fieldName: rootField.name,
      fieldNodes: [node],
      returnType: rootField.type,
      parentType: rootType,
      path: { prev: undefined, key, typename: rootType.name },
      schema,
      fragments: {},
      rootValue: undefined,
      operation,
      variableValues: variables,
    };
    // graphql-jit's answer to a root resolver's error: one error carrying it (the handler answers from it).
    const rootError = (error: Error): ExecutionResult => {
      answered++;
      return {
        errors: [new GraphQLError(error.message, { nodes: [node], path: [key], originalError: error })],
      };
    };
    let value: unknown;
    try {
      value = resolve(undefined, args, context, info);
    } catch (error) {
      return error instanceof Error ? rootError(error) : handBack(fallback);
    }
    if (isThenable(value))
      return Promise.resolve(value).then(
        (resolved) => finish(resolved, context, fallback),
        (error: unknown) => (error instanceof Error ? rootError(error) : handBack(fallback)),
      );
    return finish(value, context, fallback);
  };
}
