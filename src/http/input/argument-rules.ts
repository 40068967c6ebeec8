import type { ValidationError } from 'class-validator';
import { validate } from '../../core/perf/class-validator-rules.js';
import {
  coerceInputValue,
  isInputObjectType,
  isListType,
  isNonNullType,
  type GraphQLField,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage, type ResolverData } from 'type-graphql';
import { InvalidRequestError, type FieldProblem } from '../../core/errors.js';

/**
 * Every bad field of a request at once (issue #32 item 2). The rules an argument's type cannot say
 * (class-validator on type-graphql's argument and input classes: `limit` 1..100, a name's length) run only
 * once graphql-js has accepted the values' types, so a request with a bad `tenantGroupId` (not a UUID) and a
 * bad `limit` (500) was answered naming `tenantGroupId` only. Two places now report them together:
 *
 * - `validateArgumentsTogether` (type-graphql's validateFn): a field's arguments are validated together, so
 *   a bad `limit` and a bad `input.name` are one 400 naming both;
 * - `argumentRuleProblems`: the rules of the arguments whose types are right, for a request refused for the
 *   types of others (REST: rest-adapter/handler.ts; GraphQL: graphql-input-plugin.ts).
 */

const VALIDATOR_OPTIONS = { forbidUnknownValues: false };

/** class-validator errors as field problems, named by their path inside the argument. */
export function fieldProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((problem) => ({ field, problem }));
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

/**
 * The rule problems of argument objects whose values are all strings, numbers, booleans or null, by class and
 * values: every rule of this schema (class-validator's decorators, our `ValidateBy` functions) reads only the
 * value, never the clock, the request or the database, so the same values always have the same problems. A
 * list read again with the same page arguments skips class-validator, which allocated ~15-19 KiB per request
 * for a `PageArgs` (issue #31: allocations are the p99's GC pauses). Bounded per class; long values are not kept.
 */
const cachedProblems = new WeakMap<object, Map<string, readonly FieldProblem[]>>();
const CACHED_PER_CLASS = 500;
const CACHED_KEY_LENGTH = 400;

/** The cache key of an argument object of primitive values only, else null. */
function primitiveKey(item: object): string | null {
  let key = '';
  for (const name of Object.keys(item)) {
    const value = (item as Record<string, unknown>)[name];
    const type = typeof value;
    if (value !== null && value !== undefined && type !== 'string' && type !== 'number' && type !== 'boolean')
      return null;
    key += `${name}\u0000${value === null ? 'null' : type}\u0000${String(value)}\u0001`;
    if (key.length > CACHED_KEY_LENGTH) return null;
  }
  return key;
}

async function itemProblems(item: object): Promise<FieldProblem[]> {
  const key = primitiveKey(item);
  const byValues = key === null ? undefined : cachedProblems.get(item.constructor);
  const cached = key === null ? undefined : byValues?.get(key);
  if (cached) return cached.map((problem) => ({ ...problem }));
  const problems = fieldProblems(await validate(item, VALIDATOR_OPTIONS));
  if (key !== null) {
    let map = byValues;
    if (!map) cachedProblems.set(item.constructor, (map = new Map()));
    if (map.size >= CACHED_PER_CLASS) map.clear();
    map.set(
      key,
      problems.map((problem) => ({ ...problem })),
    );
  }
  return problems;
}

async function problemsOf(value: unknown): Promise<FieldProblem[]> {
  if (value === null || typeof value !== 'object') return [];
  const items = Array.isArray(value) ? value : [value];
  const problems: FieldProblem[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object') continue;
    problems.push(...(await itemProblems(item as object)));
  }
  return problems;
}

export function invalidFields(fields: FieldProblem[]): InvalidRequestError {
  const text = (f: FieldProblem) =>
    `${f.field} ${f.problem.replace(new RegExp(`^${f.field.split('.').pop()} `), '')}`;
  return new InvalidRequestError(`Invalid request: ${fields.map(text).join('; ')}`, fields);
}

/** The validations of one field call's arguments, started together (see below). */
const callsInProgress = new WeakMap<object, Array<Promise<FieldProblem[]>>>();

/**
 * type-graphql's validateFn, called once per argument of a field call: type-graphql starts them all before
 * awaiting any (resolvers/helpers.js `getParams`), with the same `resolverData`. Each call therefore waits a
 * tick, by when every argument's validation has started, and throws the problems of all of them together.
 */
export async function validateArgumentsTogether(
  value: unknown,
  _type: unknown,
  resolverData?: ResolverData<object>,
): Promise<void> {
  const mine = problemsOf(value);
  if (!resolverData) {
    const problems = await mine;
    if (problems.length > 0) throw invalidFields(problems);
    return;
  }
  let started = callsInProgress.get(resolverData);
  if (!started) callsInProgress.set(resolverData, (started = []));
  started.push(mine);
  await null; // the other arguments of this call start their validation before this line resumes
  const problems = (await Promise.all(started)).flat();
  if (problems.length > 0) throw invalidFields(problems);
}

/** A new instance of an argument or input class, with its defaults (without them if its constructor needs more). */
function instanceOf(target: unknown): Record<string, unknown> {
  try {
    return new (target as new () => Record<string, unknown>)();
  } catch {
    return Object.create((target as { prototype: object }).prototype) as Record<string, unknown>;
  }
}

/** An input value as type-graphql hands it to a resolver: input objects as instances of their classes. */
function asInstance(type: GraphQLInputType, value: unknown): unknown {
  if (isNonNullType(type)) return asInstance(type.ofType, value);
  if (value === null || value === undefined) return value;
  if (isListType(type))
    return Array.isArray(value) ? value.map((item) => asInstance(type.ofType, item)) : value;
  if (!isInputObjectType(type)) return value;
  const metadata = getMetadataStorage().inputTypes.find((input) => input.name === type.name);
  const instance = metadata ? instanceOf(metadata.target) : {};
  const fields = type.getFields();
  for (const [name, item] of Object.entries(value as Record<string, unknown>))
    instance[name] = fields[name] ? asInstance(fields[name].type, item) : item;
  return instance;
}

type Storage = ReturnType<typeof getMetadataStorage>;
type ResolverMetadata = Storage['queries'][number] | Storage['fieldResolvers'][number];

/** type-graphql's metadata of the resolver of `parent.field` (a root field, or an object type's field resolver). */
function resolverOf(parent: GraphQLObjectType, name: string): ResolverMetadata | undefined {
  const storage = getMetadataStorage();
  if (parent.name === 'Mutation') return storage.mutations.find((r) => r.schemaName === name);
  if (parent.name === 'Query') return storage.queries.find((r) => r.schemaName === name);
  const objectType = storage.objectTypes.find((type) => type.name === parent.name)?.target;
  return storage.fieldResolvers.find(
    (r) => r.schemaName === name && objectType !== undefined && r.getObjectType?.() === objectType,
  );
}

/** A rule's problem, placed on the argument it is about (`path` inside it). */
export interface ArgumentProblem {
  argument: string;
  path: string;
  problem: string;
}

/**
 * The class-validator problems of `field`'s arguments among `args` (values already coerced to their types;
 * an argument left out is not judged). A field without type-graphql metadata has no such rules.
 */
export async function argumentRuleProblems(
  parent: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  args: Readonly<Record<string, unknown>>,
): Promise<ArgumentProblem[]> {
  try {
    return await rulesOf(parent, field, args);
  } catch {
    // Only an addition to a 400 already due for the types: if the rules cannot be run here, that 400 stands.
    return [];
  }
}

async function rulesOf(
  parent: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  args: Readonly<Record<string, unknown>>,
): Promise<ArgumentProblem[]> {
  const resolver = resolverOf(parent, field.name);
  const argumentTypes = new Map(field.args.map((arg) => [arg.name, arg.type]));
  const problems: ArgumentProblem[] = [];
  for (const param of resolver?.params ?? []) {
    if (param.kind === 'args') {
      // The class's fields are the field's arguments: its defaults, then the values given.
      const instance = instanceOf(param.getType());
      let given = false;
      for (const [name, value] of Object.entries(args)) {
        const type = argumentTypes.get(name);
        if (!type) continue;
        // An argument of another parameter lands here too: class-validator judges only the class's own.
        instance[name] = asInstance(type, value);
        given = true;
      }
      if (!given) continue;
      for (const { field: path, problem } of await problemsOf(instance)) {
        const [argument, ...rest] = path.split('.');
        if (argument in args) problems.push({ argument, path: rest.join('.'), problem });
      }
    } else if (param.kind === 'arg' && param.name in args) {
      const type = argumentTypes.get(param.name);
      if (!type) continue;
      for (const { field: path, problem } of await problemsOf(asInstance(type, args[param.name])))
        problems.push({ argument: param.name, path, problem });
    }
  }
  return problems;
}

/** The value of `value` coerced to `type`, or undefined when it does not fit (the caller reports that). */
export function coercedOrUndefined(value: unknown, type: GraphQLInputType): unknown {
  let ok = true;
  const coerced = coerceInputValue(value, type, () => (ok = false));
  return ok ? coerced : undefined;
}

/** Every field of the document given arguments, with its parent type and definition. */
export function fieldsWithArguments(
  schema: GraphQLSchema,
  document: DocumentNode,
): Array<{ parent: GraphQLObjectType; field: GraphQLField<unknown, unknown>; node: FieldNode }> {
  const found: Array<{ parent: GraphQLObjectType; field: GraphQLField<unknown, unknown>; node: FieldNode }> =
    [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (node.arguments?.length && field && isObjectType(parent)) found.push({ parent, field, node });
      },
    }),
  );
  return found;
}
