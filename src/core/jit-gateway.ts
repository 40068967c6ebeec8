import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  GraphQLError,
  printSchema,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SourceLocation,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import type { CompiledQuery } from 'graphql-jit';
import { isCompiledQuery } from './perf/graphql-jit-serializer.js';
import { compileLeanQuery } from './perf/graphql-jit-leaf-arguments.js';

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/** Documents kept by their text for the fast path; clients send a handful of distinct documents, so this is rarely reached. */
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

/** A query's plan run instead of graphql-jit, which it calls (`fallback`) for anything off its happy path. */
export type PlannedRun = (
  context: object,
  variables: Record<string, unknown>,
  fallback: () => Promise<ExecutionResult> | ExecutionResult,
) => Promise<ExecutionResult> | ExecutionResult;

/** The plan of an operation of a validated document, or null when graphql-jit runs it. */
export type Planner = (document: DocumentNode, operation: OperationDefinitionNode) => PlannedRun | null;

/** A document the executor has run (so Apollo parsed and validated it), by its text: what /graphql's fast path reuses. */
export interface RunDocument {
  document: DocumentNode;
}

/**
 * Apollo's executor replaced by graphql-jit, as the REST adapter already does for its fixed documents
 * (rest-adapter/compile.ts): each distinct document is compiled once (per parsed document and operation name)
 * and later requests run the compiled function, which skips graphql-js's per-request walk of the document
 * (issue #11: GraphQL cost twice REST's CPU per request). Apollo still parses, validates, formats errors and
 * runs its plugins; only execution changes. Apollo's executor interface is the "gateway" one, whence the name
 * of the option.
 *
 * Variables are coerced by graphql-js first, so wrong ones are the client's mistake (BAD_USER_INPUT, answered
 * 400 with INVALID_REQUEST by formatGraphQLError) exactly as without this executor.
 *
 * The same executor serves /graphql's fast path (src/http/graphql-fast-path.ts): `documentOf` gives the
 * documents Apollo has run a query of, `execute` runs one as the gateway would, and `replay` hands Apollo the
 * result the fast path already computed (a result with errors is answered by Apollo, never executed twice).
 */
export class JitExecutor {
  private readonly compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | ExecutionResult>>();
  /** Each operation's plan (null: none), by its parsed document and operation name. */
  private readonly plans = new WeakMap<DocumentNode, Map<string, PlannedRun | null>>();
  private readonly documents = new Map<string, RunDocument>();
  /** Results computed by the fast path for Apollo to answer, by the request's `loaders` (shared by its clones). */
  private readonly replays = new WeakMap<object, Promise<ExecutionResult>>();

  constructor(
    private readonly schema: GraphQLSchema,
    /** Plans a query to run instead of graphql-jit (src/http/graphql-lean-run.ts); none: graphql-jit runs all. */
    private readonly planner?: Planner,
  ) {}

  private planFor(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
  ) {
    if (!this.planner) return null;
    let byName = this.plans.get(document);
    if (!byName) this.plans.set(document, (byName = new Map()));
    let plan = byName.get(operationName ?? '');
    if (plan === undefined) byName.set(operationName ?? '', (plan = this.planner(document, operation)));
    return plan;
  }

  private compiledFor(document: DocumentNode, operationName: string | undefined) {
    let byName = this.compiled.get(document);
    if (!byName) this.compiled.set(document, (byName = new Map()));
    let entry = byName.get(operationName ?? '');
    if (!entry)
      byName.set(operationName ?? '', (entry = compileLeanQuery(this.schema, document, operationName)));
    return entry;
  }

  /** The parsed, validated document of `text`, once the executor has run a query of it. */
  documentOf(text: string): RunDocument | undefined {
    return this.documents.get(text);
  }

  /**
   * Apollo answers the request of `context` with `outcome` (the fast path's result, or its rejection) instead of
   * executing again.
   */
  replay(context: object, outcome: ExecutionResult | Promise<ExecutionResult>): void {
    const settled = Promise.resolve(outcome);
    settled.catch(() => undefined); // Apollo reports it when it takes it; never an unhandled rejection
    this.replays.set(replayKeyOf(context), settled);
  }

  /**
   * The variables coerced by graphql-js: errors (each BAD_USER_INPUT, the caller answers 400) or null. The
   * executor's first step, apart so the fast path can leave a refused request to Apollo before running anything.
   */
  variableErrors(
    operation: OperationDefinitionNode,
    variables: Record<string, unknown>,
  ): GraphQLError[] | null {
    const coerced = getVariableValues(this.schema, operation.variableDefinitions ?? [], variables);
    if (!coerced.errors) return null;
    return coerced.errors.map(
      (error) =>
        new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT' } }),
    );
  }

  /** Runs an operation whose variables coerced (`variableErrors` null), errors normalised. */
  async execute(
    document: DocumentNode,
    operation: OperationDefinitionNode,
    operationName: string | undefined,
    variables: Record<string, unknown>,
    context: object,
  ): Promise<ExecutionResult> {
    const key = replayKeyOf(context);
    const replayed = this.replays.get(key);
    if (replayed) {
      this.replays.delete(key);
      return replayed;
    }
    const query = this.compiledFor(document, operationName);
    if (!isCompiledQuery(query)) return withNormalisedErrors(query);
    // The raw values: the compiled query coerces them itself (coercing twice would fail on enums).
    const jit = () => query.query(undefined, context, withOperationDefaults(operation, variables));
    const plan = this.planFor(document, operation, operationName);
    // The plan coerces the raw values too (and applies the operation's defaults), handing anything unusual to jit.
    return withNormalisedErrors(await (plan ? plan(context, variables, jit) : jit()));
  }

  private readonly executor: Executor = async (request) => {
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
    const errors = this.variableErrors(operation, request.request.variables ?? {});
    if (errors) {
      if (request.response?.http) request.response.http.status = 400;
      return { errors };
    }
    if (operation.operation === 'query' && request.source && !this.documents.has(request.source)) {
      if (this.documents.size >= MAX_COMPILED) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(request.source, { document: request.document });
    }
    return this.execute(
      request.document,
      operation,
      request.operationName ?? undefined,
      request.request.variables ?? {},
      request.context,
    );
  };

  /** Apollo's `gateway` option. */
  gateway(): GatewayInterface {
    const { schema, executor } = this;
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
}

/** Apollo hands the executor a shallow copy of the request's context: its `loaders` (one per request) is shared. */
function replayKeyOf(context: object): object {
  return (context as { loaders?: object }).loaders ?? context;
}

/** Apollo's `gateway` option over a new executor (tests and callers that do not need the fast path). */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  return new JitExecutor(schema).gateway();
}
