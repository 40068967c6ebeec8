import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type SelectionSetNode,
} from 'graphql';
import { directCallOf, DIRECT_MISS } from '../perf/type-graphql-direct-field-resolvers.js';

/**
 * The objects of a planned run (lean-run.ts): the plan of a selection (which property or direct field
 * resolver answers each field, which serializer writes it) and the code that completes a value along it.
 */

/** Thrown inside a run to hand the request back to graphql-jit (any other throw does too). */
export const UNPLANNED = new Error('not on the planned path');

type Leaf = (value: unknown) => unknown;

interface FieldPlan {
  key: string;
  name: string;
  nonNull: boolean;
  /** The direct call of the field's resolver, or undefined for a property read. */
  direct: ((root: unknown, context: unknown) => unknown) | undefined;
  complete: Completion;
}

export type Completion =
  | { kind: 'leaf'; serialize: Leaf }
  | { kind: 'typename'; name: string }
  | { kind: 'object'; fields: FieldPlan[]; build?: Builder }
  | { kind: 'list'; itemNonNull: boolean; item: Completion };

/**
 * A run's values put aside: a direct field resolver that answered a promise (`waiting`, until its object is built)
 * and then the promises that fill them in (`pending`).
 */
export interface Run {
  waiting: Array<{ field: FieldPlan; value: PromiseLike<unknown> }>;
  pending: Array<Promise<void>>;
}

type Builder = (source: Record<string, unknown>, context: unknown, run: Run) => Record<string, unknown>;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  // Strings and numbers first: most values are, and reading `then` on them walks their prototype.
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
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
export function completionOf(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
): Completion | null {
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

export function completeValue(
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

/** A direct field resolver's completed value; a promise is put aside (null holds the key's place), filled in later. */
function directValue(field: FieldPlan, source: Record<string, unknown>, context: unknown, run: Run): unknown {
  const value = field.direct!(source, context);
  if (value === DIRECT_MISS) throw UNPLANNED;
  // graphql-jit waits for a resolver's promise (not for a property's: that one it refuses, so it answers that).
  if (isThenable(value)) {
    run.waiting.push({ field, value });
    return null;
  }
  return completeValue(field.complete, value, context, run, field.nonNull);
}

/** A property's completed value (`value` read by the builder's own code, see `builderOf`). */
function propertyValue(field: FieldPlan, value: unknown, context: unknown, run: Run): unknown {
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
  const entries = fields.map((field, index) => {
    const key = JSON.stringify(field.key);
    if (field.complete.kind === 'typename') return `${key}: ${JSON.stringify(field.complete.name)}`;
    if (field.direct) return `${key}: directValue(fields[${index}], source, context, run)`;
    // The property by its name in the code: one load the engine caches per field, as graphql-jit's code does
    // (`source[name]` with the name from the plan was one generic lookup per field of every item).
    return `${key}: propertyValue(fields[${index}], source[${JSON.stringify(field.name)}], context, run)`;
  });
  const body = `return function build(source, context, run) {
    const mark = run.waiting.length;
    const result = { ${entries.join(', ')} };
    if (run.waiting.length !== mark) attach(result, run, mark, context);
    return result;
  };`;
  const make = new Function('fields', 'directValue', 'propertyValue', 'attach', body) as (
    plans: FieldPlan[],
    direct: typeof directValue,
    property: typeof propertyValue,
    later: typeof attach,
  ) => Builder;
  return make(fields, directValue, propertyValue, attach);
}
