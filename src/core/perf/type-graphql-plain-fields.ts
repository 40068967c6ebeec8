/**
 * Written against type-graphql 2.0.0-rc.4 (checked at start-up: ./versions.ts).
 *
 * Why: plain fields (a property or getter of the object, no field resolver) are read by the executor itself
 * instead of through type-graphql's per-field wrapper. The wrapper only runs middlewares and auth checks, and
 * this schema has neither (no global middlewares, no authChecker, no @UseMiddleware/@Authorized on fields:
 * permissions are checked per operation, src/http/operation-requirements.ts); it cost an object, a closure
 * and a resolver call per field of every item (600 per page of 25 users, issue #11). A field published under
 * another name than its property (`@Field({ name })`) keeps the wrapper, since the executor would read the
 * published name.
 *
 * The internals: `simple` and `simpleResolvers` are public decorator options, but setting them for every
 * class at once means writing type-graphql's metadata storage (`getMetadataStorage().fields` /
 * `.objectTypes`, and reading a field's `schemaName`, `middlewares` and `roles`) between decoration and
 * `buildSchema`, which type-graphql does not document. A release that renames these fields would leave every
 * wrapper in place (slower, not wrong); one that reads them at another moment could drop a wrapper a field
 * needs. test/schema/executor-fast-paths.test.ts checks which fields keep a resolver.
 */
import { getMetadataStorage } from 'type-graphql';

export function readPlainFieldsDirectly(): void {
  const storage = getMetadataStorage();
  for (const field of storage.fields) {
    const renamed = field.name !== field.schemaName;
    const guarded = (field.middlewares?.length ?? 0) > 0 || field.roles !== undefined;
    if (field.simple === undefined && (renamed || guarded)) field.simple = false;
  }
  for (const objectType of storage.objectTypes) objectType.simpleResolvers ??= true;
}
