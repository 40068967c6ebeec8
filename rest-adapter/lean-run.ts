import {
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLError,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
  BREAK,
} from 'graphql';
import { directCallOf, DIRECT_MISS } from '../src/core/perf/type-graphql-direct-field-resolvers.js';

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

/** Thrown inside a run to hand the request back to graphql-jit (any other throw does too). */
const UNPLANNED = new Error('not on the planned path');

type Leaf = (value: unknown) => unknown;

interface FieldPlan {
  key: string;
  name: string;
  nonNull: boolean;
  /** The direct call of the field's resolver, or undefined for a property read. */
  direct: ((root: unknown, context: unknown) => unknown) | undefined;
  complete: Completion;
}

type Completion =
  | { kind: 'leaf'; serialize: Leaf }
  | { kind: 'typename'; name: string }
  | { kind: 'object'; fields: FieldPlan[]; build?: Builder }
  | { kind: 'list'; itemNonNull: boolean; item: Completion };

/**
 * A run's values put aside: a direct field resolver that answered a promise (`waiting`, until its object is built)
 * and then the promises that fill them in (`pending`).
 */
interface Run {
  waiting: Array<{ field: FieldPlan; value: PromiseLike<unknown> }>;
  pending: Array<Promise<void>>;
}

type Builder = (source: Record<string, unknown>, context: unknown, run: Run) => Record<string, unknown>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function leafSerializer(type: GraphQLOutputType): Leaf | null {
  const named = getNamedType(type);
  if (!isScalarType(named) && !isEnumType(named)) return null;
  // graphql-js's completeLeafValue: serialize, and undefined is an error.
  return (value) => {
    const serialized = named.serialize(value);
    if (serialized === undefined) throw UNPLANNED;
    return serialized;
  };
}

/** The completion of a field's type, or null when the plan cannot take it. */
function completionOf(type: GraphQLOutputType, selection: SelectionSetNode | undefined): Completion | null {
  const nullable = getNullableType(type);
  if (isListType(nullable)) {
    const item = completionOf(nullable.ofType, selection);
    return item ? { kind: 'list', itemNonNull: isNonNullType(nullable.ofType), item } : null;
  }
  if (isObjectType(nullable)) {
    const fields = selection ? fieldsOf(nullable, selection) : null;
    return fields ? { kind: 'object', fields } : null;
  }
  const serialize = leafSerializer(nullable);
  return serialize ? { kind: 'leaf', serialize } : null;
}

function fieldsOf(parent: GraphQLObjectType, selection: SelectionSetNode): FieldPlan[] | null {
  const plans: FieldPlan[] = [];
  const keys = new Set<string>();
  for (const node of selection.selections) {
    if (node.kind !== Kind.FIELD || node.directives?.length || node.arguments?.length) return null;
    const key = node.alias?.value ?? node.name.value;
    if (keys.has(key)) return null; // merged fields: graphql-jit's
    keys.add(key);
    if (node.name.value === '__typename') {
      plans.push({
        key,
        name: '__typename',
        nonNull: true,
        direct: undefined,
        complete: { kind: 'typename', name: parent.name },
      });
      continue;
    }
    const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[node.name.value];
    if (!field) return null;
    const direct = field.resolve ? directCallOf(field.resolve) : undefined;
    if (field.resolve && !direct) return null;
    const complete = completionOf(field.type, node.selectionSet);
    if (!complete) return null;
    plans.push({ key, name: field.name, nonNull: isNonNullType(field.type), direct, complete });
  }
  return plans;
}

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

export type LeanRun = (
  context: unknown,
  variables: Record<string, unknown>,
  fallback: () => Promise<ExecutionResult> | ExecutionResult,
) => Promise<ExecutionResult> | ExecutionResult;

function completeValue(
  completion: Completion,
  value: unknown,
  context: unknown,
  run: Run,
  nonNull: boolean,
): unknown {
  if (value == null) {
    if (nonNull) throw UNPLANNED;
    return null;
  }
  if (value instanceof Error) throw UNPLANNED;
  switch (completion.kind) {
    case 'leaf':
      return completion.serialize(value);
    case 'typename':
      return completion.name;
    case 'object':
      completion.build ??= builderOf(completion.fields);
      return completion.build(value as Record<string, unknown>, context, run);
    case 'list': {
      if (!Array.isArray(value)) throw UNPLANNED; // other iterables: graphql-jit's
      const items = new Array<unknown>(value.length);
      for (let index = 0; index < value.length; index++)
        items[index] = completeValue(completion.item, value[index], context, run, completion.itemNonNull);
      return items;
    }
  }
}

/** One field's completed value; a promise is put aside (null holds the key's place) and filled in later. */
function fieldValue(field: FieldPlan, source: Record<string, unknown>, context: unknown, run: Run): unknown {
  if (field.complete.kind === 'typename') return field.complete.name;
  if (field.direct) {
    const value = field.direct(source, context);
    if (value === DIRECT_MISS) throw UNPLANNED;
    // graphql-jit waits for a resolver's promise (not for a property's: that one it refuses, so it answers that).
    if (isThenable(value)) {
      run.waiting.push({ field, value });
      return null;
    }
    return completeValue(field.complete, value, context, run, field.nonNull);
  }
  const value = source[field.name];
  // A function graphql-js would call, a promise graphql-jit would refuse: either way its answer, not the plan's.
  if (typeof value === 'function' || isThenable(value)) throw UNPLANNED;
  return completeValue(field.complete, value, context, run, field.nonNull);
}

/** The values `result`'s fields put aside since `mark`, filled in when they settle. */
function attach(result: Record<string, unknown>, run: Run, mark: number, context: unknown): void {
  for (const { field, value } of run.waiting.splice(mark)) {
    const filled = Promise.resolve(value).then((settled) => {
      result[field.key] = completeValue(field.complete, settled, context, run, field.nonNull);
    });
    filled.catch(() => undefined); // the run awaits them in turn and stops at the first that fails
    run.pending.push(filled);
  }
}

/**
 * An object plan's builder: one object literal with every key in the selection's order, as graphql-jit builds it.
 * Generated once per plan because a literal of known keys is one allocation of the final shape, where adding the
 * keys one by one to `{}` grew its property store step by step (100 KiB per users page in the allocation profile,
 * against graphql-jit's 15). The keys are field names or aliases the schema validated (`[_A-Za-z][_0-9A-Za-z]*`).
 */
function builderOf(fields: FieldPlan[]): Builder {
  const entries = fields.map(
    (field, index) => `${JSON.stringify(field.key)}: fieldValue(fields[${index}], source, context, run)`,
  );
  const body = `return function build(source, context, run) {
    const mark = run.waiting.length;
    const result = { ${entries.join(', ')} };
    if (run.waiting.length !== mark) attach(result, run, mark, context);
    return result;
  };`;
  const make = new Function('fields', 'fieldValue', 'attach', body) as (
    plans: FieldPlan[],
    value: typeof fieldValue,
    later: typeof attach,
  ) => Builder;
  return make(fields, fieldValue, attach);
}

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
  const variableDefinitions = operation.variableDefinitions ?? [];
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

  return (context, inputs, fallback) => {
    const coerced = getVariableValues(schema, variableDefinitions, inputs);
    if (coerced.errors) return handBack(fallback);
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(rootField, node, coerced.coerced);
    } catch {
      return handBack(fallback); // e.g. a null for a non-null argument with a default: graphql-jit's error
    }
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
      variableValues: coerced.coerced,
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
