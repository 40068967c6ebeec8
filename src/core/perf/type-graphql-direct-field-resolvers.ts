/**
 * Written against type-graphql 2.0.0-rc.4 (checked at start-up: ./versions.ts).
 *
 * Why: a `@FieldResolver` runs once per item of a list (a users page calls `User.licenses` 25 times), and
 * type-graphql's wrapper around it costs more than the method itself: an object for the resolver data, a
 * linear search of its container's instances for the resolver class, a sort and a map of the parameter
 * metadata, a closure, the root's conversion check. For a field resolver that takes only the parent (`@Root()`)
 * and the request context (`@Ctx()`), whose class and field have no middleware and no auth roles (this schema
 * has neither: permissions are checked per operation, src/http/operation-requirements.ts), that wrapper does
 * nothing but call the method with the two: so the schema's field calls it directly (issue #31, allocations
 * per request). A parent that is not an instance of the object type (which type-graphql would convert first) goes
 * through type-graphql's own resolver as before.
 *
 * The internals: type-graphql's metadata storage (`fieldResolvers`: `kind`, `target`, `methodName`,
 * `schemaName`, `params`, `middlewares`, `roles`, `getObjectType`; `objectTypes` for the type's name) is not
 * documented, nor that its default container makes one instance per resolver class with `new target()` (here:
 * one more instance, of classes that hold no state). A release that renames these fields leaves the wrapper
 * in place (slower, not wrong); one that starts doing more in the wrapper for such fields would be skipped
 * here. test/schema/executor-fast-paths.test.ts lists which fields are called directly.
 */
import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { getMetadataStorage } from 'type-graphql';

type Storage = ReturnType<typeof getMetadataStorage>;
type FieldResolverMetadata = Storage['fieldResolvers'][number];
type Method = (...args: unknown[]) => unknown;

/** The field resolvers called directly, as `Type.field` (for the test). */
export const directFieldResolvers: string[] = [];

/** What a direct call answers for a parent that is not an instance of the object type (the resolver must run). */
export const DIRECT_MISS: unique symbol = Symbol('not a direct call');

type DirectCall = (root: unknown, context: unknown) => unknown;
const directCalls = new WeakMap<GraphQLFieldResolver<unknown, unknown>, DirectCall>();

/**
 * The method behind a field's resolver when it is one of those called directly: it needs neither arguments nor a
 * resolve info, so REST's planned runs (src/core/lean-plan/lean-run.ts) call it without building them; `DIRECT_MISS` for a
 * parent type-graphql would convert first.
 */
export function directCallOf(resolve: GraphQLFieldResolver<unknown, unknown>): DirectCall | undefined {
  return directCalls.get(resolve);
}

/** The parameter kinds in order when a field resolver takes only `@Root()` and `@Ctx()`, else null. */
function plainParameters(metadata: FieldResolverMetadata): Array<'root' | 'context'> | null {
  const params = [...(metadata.params ?? [])].sort((a, b) => a.index - b.index);
  const kinds: Array<'root' | 'context'> = [];
  for (const [position, param] of params.entries()) {
    if (param.index !== position) return null;
    if ((param.kind === 'root' || param.kind === 'context') && param.propertyName === undefined)
      kinds.push(param.kind);
    else return null;
  }
  return kinds;
}

/** Replaces type-graphql's wrapper by a direct call for the field resolvers described above. */
export function callFieldResolversDirectly(schema: GraphQLSchema): void {
  const storage = getMetadataStorage();
  directFieldResolvers.length = 0;
  for (const metadata of storage.fieldResolvers) {
    if (metadata.kind !== 'external') continue;
    if ((metadata.middlewares?.length ?? 0) > 0 || metadata.roles !== undefined) continue;
    const kinds = plainParameters(metadata);
    const objectClass = metadata.getObjectType?.();
    const objectType = storage.objectTypes.find((type) => type.target === objectClass);
    const type = objectType ? schema.getType(objectType.name) : undefined;
    const field = isObjectType(type) ? type.getFields()[metadata.schemaName] : undefined;
    const Target = metadata.target as new () => Record<string, unknown>;
    if (!kinds || !field || !objectClass || Target.length > 0) continue;
    const wrapped: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
    const instance = new Target();
    const method = instance[metadata.methodName] as Method;
    if (typeof method !== 'function') continue;
    const RootClass = objectClass as abstract new (...args: never[]) => unknown;
    const [first, second] = kinds;
    const call = (root: unknown, context: unknown): unknown => {
      if (kinds.length === 2)
        return method.call(instance, first === 'root' ? root : context, second === 'root' ? root : context);
      if (kinds.length === 1) return method.call(instance, first === 'root' ? root : context);
      return method.call(instance);
    };
    const resolve: GraphQLFieldResolver<unknown, unknown> = (root, args, context, info) =>
      // type-graphql would convert a parent of another class first: left to it.
      root instanceof RootClass ? call(root, context) : wrapped(root, args, context, info);
    field.resolve = resolve;
    directCalls.set(resolve, (root, context) =>
      root instanceof RootClass ? call(root, context) : DIRECT_MISS,
    );
    directFieldResolvers.push(`${type!.name}.${field.name}`);
  }
}
