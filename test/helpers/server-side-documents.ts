/**
 * Operations of server-side.ts (its SERVER_SIDE spreads them) for files that read the served schema whole or run
 * documents on it in-process, so that they do not evaluate the app's modules (`src/schema.js`, `features.js`:
 * about 1 s of CPU a file) or start an app of their own to do it:
 * - the schema as the server serves it, in its own order (the committed SDL is sorted), as SDL, and the
 *   internal values (SPEC spelling, REST's) of its enums, which SDL does not carry: the fuzz draws its cases from
 *   them in the order the app declares them;
 * - a document executed by the server's schema as a given viewer, without HTTP (no authentication, no pre-check):
 *   what the resolvers' own guards do (test/scopes/every-field-guarded.test.ts).
 */
import { execute, isEnumType, parse, printSchema, type GraphQLError } from 'graphql';
import { createRequestContext } from '../../src/context.js';
import type { Permission } from '../../src/core/permissions.js';
import type { Viewer } from '../../src/core/viewer.js';
import { sharedSchema, type TestApp } from './test-app.js';

let sdl: Promise<string> | undefined;
/** printSchema of the served schema (the types, fields, arguments and enum values in the app's order); once. */
function servedSchemaSdl(): Promise<string> {
  sdl ??= sharedSchema().then(printSchema);
  return sdl;
}

/** Each enum of the served schema by name: its values' internal values (REST's spelling), in the schema's order. */
async function enumInternalValues(): Promise<Record<string, string[]>> {
  const schema = await sharedSchema();
  const values: Record<string, string[]> = {};
  for (const type of Object.values(schema.getTypeMap()))
    if (isEnumType(type) && !type.name.startsWith('__'))
      values[type.name] = type.getValues().map((value) => String(value.value));
  return values;
}

/** A viewer as a file describes it: plain data, its permissions a list (a Set would be the file's realm's). */
export type ViewerData = Omit<Viewer, 'permissions'> & { permissions: Permission[] };

/** One error of an execution as plain data: its message, and its thrown error's code and extensions. */
export interface ExecutedError {
  message: string;
  /** The code of the error a resolver threw (AppError's `code`), when it has one. */
  thrownCode: string | null;
  /** The extensions of the thrown error (AppError: code and details), else of the GraphQL error. */
  extensions: { code?: string; details?: Record<string, unknown> } | null;
}

export interface Execution {
  data: Record<string, unknown> | null;
  errors: ExecutedError[];
}

function plainError(error: GraphQLError): ExecutedError {
  const thrown = error.originalError as
    (Error & { code?: unknown; extensions?: ExecutedError['extensions'] }) | undefined;
  const source = (thrown ?? error) as { extensions?: ExecutedError['extensions'] };
  return {
    message: error.message,
    thrownCode: typeof thrown?.code === 'string' ? thrown.code : null,
    extensions: source.extensions ? { ...source.extensions } : null,
  };
}

/**
 * graphql-js's `execute` of `query` on the served schema, with a request context for `viewer` made as a request's
 * is (createRequestContext with the server's ORM and deps), and `preAuthorized` as a pre-check that cleared
 * those root fields would set it.
 */
async function executeAsViewer(
  app: TestApp,
  query: string,
  variables: Record<string, unknown>,
  viewer: ViewerData,
  preAuthorized?: string[],
): Promise<Execution> {
  const contextValue = createRequestContext(app.orm, app.deps, {
    ...viewer,
    permissions: new Set(viewer.permissions),
  });
  if (preAuthorized) contextValue.preAuthorized = new Set(preAuthorized);
  const result = await execute({
    schema: await sharedSchema(),
    document: parse(query),
    variableValues: variables,
    contextValue,
  });
  return {
    data: (result.data as Record<string, unknown> | null | undefined) ?? null,
    errors: (result.errors ?? []).map(plainError),
  };
}

export const SERVER_SIDE_DOCUMENTS = {
  servedSchemaSdl,
  enumInternalValues,
  executeAsViewer,
};
