import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  GraphQLError,
  printSchema,
  valueFromASTUntyped,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

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
      compileQuery(schema, request.document, request.operationName ?? undefined),
    );
    if (!isCompiledQuery(query)) return query;
    // The raw values: the compiled query coerces them itself (coercing twice would fail on enums).
    const result = await query.query(
      undefined,
      request.context,
      withOperationDefaults(operation, request.request.variables ?? {}),
    );
    // graphql-jit's errors carry no `extensions` (read-only) unless the thrown error had some (our AppErrors
    // do), and Apollo cannot format an error without them: it would answer its own bland
    // INTERNAL_SERVER_ERROR instead of passing the error to formatGraphQLError (which maps, e.g., a
    // throttled cloud to 503). Such errors are given again with empty extensions.
    if (!result.errors?.some((error) => !error.extensions)) return result;
    const errors = result.errors.map((error) => {
      if (error.extensions) return error;
      const given = new GraphQLError(error.message, {
        path: error.path,
        originalError: error.originalError ?? undefined,
        extensions: {},
      });
      return Object.assign(given, { locations: error.locations });
    });
    return { ...result, errors };
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => undefined;
    },
    load: async () => ({ executor }),
    stop: async () => undefined,
  };
}
