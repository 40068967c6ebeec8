import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  GraphQLError,
  printSchema,
  valueFromASTUntyped,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SourceLocation,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { compileLeanQuery } from './perf/graphql-jit-leaf-arguments.js';

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/** Documents kept compiled; clients send a handful of distinct documents, so this is rarely reached. */
const MAX_COMPILED = 500;

/**
 * The variables as sent plus, for each one the request omits, the operation's default written as a client
 * would send it (enum names, plain objects). graphql-jit leaves such defaults out and refuses a non-null
 * variable with a default as "not provided", which graphql-js (and the spec) accept: without this, a
 * valid `query($limit: Int! = 2)` sent without `limit` crashed as an internal error.
 */
function withOperationDefaults(
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  let completed = variables;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (!definition.defaultValue || variables[name] !== undefined) continue;
    if (completed === variables) completed = { ...variables };
    completed[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return completed;
}

/** A thrown value that is not an Error (a string, a plain object, undefined): kept for the log, never sent. */
export class NonErrorThrown extends Error {
  constructor(readonly value: unknown) {
    super(`A non-Error value was thrown: ${typeof value}`);
    this.name = 'NonErrorThrown';
  }
}

/**
 * One graphql-js GraphQLError per error of a result, whatever graphql-jit produced. graphql-jit builds its
 * own error objects whose `extensions` is undefined unless the original error had some, and passes a thrown
 * non-Error value through as is; Apollo's error enrichment reads `extensions.code` before our formatError
 * runs, so either crashed into a bare INTERNAL_SERVER_ERROR (with a stack trace outside production) and a
 * database outage lost its 503 (issue #34 item 5, #32 item 9). Normalised here, every error reaches
 * formatGraphQLError with its original error, path and locations.
 */
export function normaliseError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError && error.extensions) return error;
  const raw = typeof error === 'object' && error !== null ? (error as JitErrorLike) : undefined;
  const original = originalOf(error, raw);
  const normalised = new GraphQLError(
    typeof raw?.message === 'string' ? raw.message : (original?.message ?? 'Unexpected error'),
    {
      path: Array.isArray(raw?.path) ? raw.path : undefined,
      originalError: original,
      extensions: raw?.extensions || (original as { extensions?: Record<string, unknown> })?.extensions || {},
    },
  );
  // graphql-js computes locations from AST nodes, which graphql-jit no longer has: keep the ones it computed.
  if (Array.isArray(raw?.locations) && raw.locations.length > 0)
    (normalised as { locations?: ReadonlyArray<SourceLocation> }).locations = raw.locations;
  return normalised;
}

/** What graphql-jit may put in a result's `errors`: its own error objects, or whatever was thrown. */
interface JitErrorLike {
  message?: unknown;
  path?: ReadonlyArray<string | number>;
  locations?: ReadonlyArray<SourceLocation>;
  originalError?: unknown;
  extensions?: Record<string, unknown>;
}

/** The error behind a result's error, as an Error: a thrown non-Error value is wrapped (kept for the log). */
function originalOf(error: unknown, raw: JitErrorLike | undefined): Error | undefined {
  const inner = raw && 'originalError' in raw ? raw.originalError : error;
  return inner instanceof Error ? inner : inner === undefined ? undefined : new NonErrorThrown(inner);
}

function withNormalisedErrors<T extends ExecutionResult>(result: T): T {
  if (!result.errors) return result;
  return { ...result, errors: result.errors.map(normaliseError) };
}

/**
 * Apollo's executor replaced by graphql-jit, as the REST adapter already does for its fixed documents
 * (rest-adapter/compile.ts): each distinct document is compiled once (keyed by Apollo's query hash and the
 * operation name) and later requests run the compiled function, which skips graphql-js's per-request walk of
 * the document (issue #11: GraphQL cost twice REST's CPU per request). Apollo still parses, validates,
 * formats errors and runs its plugins; only execution changes. Apollo's executor interface is the
 * "gateway" one, whence the name of the option.
 *
 * Variables are coerced by graphql-js first, so wrong ones are the client's mistake (BAD_USER_INPUT, answered
 * 400 with INVALID_REQUEST by formatGraphQLError) exactly as without this executor.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const compiled = new Map<string, CompiledQuery | ExecutionResult>();

  const compiledFor = (key: string, compile: () => CompiledQuery | ExecutionResult) => {
    let entry = compiled.get(key);
    if (!entry) {
      entry = compile();
      if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, entry);
    }
    return entry;
  };

  const executor: Executor = async (request) => {
    const operation: OperationDefinitionNode | undefined = request.operation;
    // No operation of the name sent (Apollo found none): graphql-js would answer it; graphql-jit would crash.
    // (A subscription over HTTP reaches its resolver, which refuses it: subscriptions/event-subscription.resolver.ts.)
    if (!operation) {
      const message = request.request.operationName
        ? `Unknown operation named "${request.request.operationName}".`
        : 'Must provide operation name if query contains multiple operations.';
      if (request.response?.http) request.response.http.status = 400;
      return { errors: [new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } })] };
    }
    const coerced = getVariableValues(
      schema,
      operation.variableDefinitions ?? [],
      request.request.variables ?? {},
    );
    if (coerced.errors) {
      if (request.response?.http) request.response.http.status = 400;
      return {
        errors: coerced.errors.map(
          (error) =>
            new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT' } }),
        ),
      };
    }
    const query = compiledFor(`${request.queryHash}:${request.operationName ?? ''}`, () =>
      compileLeanQuery(schema, request.document, request.operationName ?? undefined),
    );
    if (!isCompiledQuery(query)) return withNormalisedErrors(query);
    // The raw values: the compiled query coerces them itself (coercing twice would fail on enums).
    return withNormalisedErrors(
      await query.query(
        undefined,
        request.context,
        withOperationDefaults(operation, request.request.variables ?? {}),
      ),
    );
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      // Only Apollo's schema reporting (not used: no APOLLO_KEY) reads the SDL: printed if asked, not kept.
      callback({
        apiSchema: schema,
        get coreSupergraphSdl() {
          return printSchema(schema);
        },
      });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
}
