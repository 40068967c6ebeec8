import type http from 'node:http';
import { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { Request, RequestHandler } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { RequestContext } from '../context.js';
import { UnauthorizedError } from '../core/errors.js';
import { JitExecutor } from '../core/jit-gateway.js';
import { formatGraphQLError, serviceUnavailableStatusPlugin } from './graphql-errors.js';
import { GraphQLFastPath } from './graphql-fast-path.js';
import { planGraphQLLeanRun, type LeanRunSwitch } from './graphql-lean-run.js';
import { graphqlMiddleware } from './graphql-middleware.js';
import { unsafeTextPlugin } from './input/graphql-input-plugin.js';
import { variableProblemsPlugin } from './input/graphql-variables-plugin.js';
import { landingPageWithGraphiqlFallback } from './landing-page.js';
import { graphqlMetricsPlugin } from './metrics.js';
import { authorizeOperationPlugin } from './operation-requirements.js';
import { QUERY_LIMIT_RULES, QUERY_LIMITS } from './query-limits.js';
import { queryCostPlugin } from './query-cost.plugin.js';
import type { RateLimiter } from './rate-limit.js';
import { shareHold } from './rate-limit-overlap.js';

export interface GraphQLServerOptions {
  server: http.Server;
  schema: GraphQLSchema;
  rateLimiter: RateLimiter;
  logger: Logger;
  /** GRAPHQL_STACK_TRACES: internal GraphQL errors carry their stack trace. */
  stackTraces: boolean;
  /** The request's context inside its organization database session (app.ts). */
  contextFor: (req: Request) => RequestContext;
  /**
   * Queries through their plan where they have one (./graphql-lean-run.ts; default true); false: graphql-jit only;
   * a function (tests only): asked at each request whether its plan runs.
   */
  leanRuns?: boolean | LeanRunSwitch;
}

export interface GraphQLServer {
  /** After the guard and the JSON body: the fast path, then Apollo for everything else. */
  handlers: RequestHandler[];
  /** Stopping: Apollo answers every request from now on (the fast path first, before anything else stops). */
  closeFastPath(): void;
  /** Stops Apollo, which drains the HTTP connections. */
  stop(): Promise<void>;
}

/**
 * Apollo with our plugins, executed by graphql-jit, behind the fast path that answers a query document Apollo
 * has already run without its per-request pipeline (src/http/graphql-fast-path.ts): both share the plugins,
 * the executor and one context per request, so their answers are the same bytes.
 */
export async function createGraphQLServer(options: GraphQLServerOptions): Promise<GraphQLServer> {
  const { logger, rateLimiter } = options;
  const plugins = [
    ApolloServerPluginDrainHttpServer({ httpServer: options.server }),
    // Apollo's default cache-control plugin computes cache hints field by field (it wraps every resolver of
    // the schema and is called for each field of each item: 5.5% of a GraphQL list's CPU, issue #11) for a
    // Cache-Control header we never send: API answers are personal and marked no-store.
    ApolloServerPluginCacheControlDisabled(),
    // Apollo imports its inline-trace plugin (federated subgraphs' traces, and with it a 0.35 MiB protobuf
    // module kept for the process's life) unless told not to; this schema is no subgraph. It has no hooks, so
    // the GraphQL fast path passes over it.
    ApolloServerPluginInlineTraceDisabled(),
    landingPageWithGraphiqlFallback<RequestContext>(),
    // Permission before input: a caller who may not run the operation learns nothing about its variables.
    authorizeOperationPlugin(),
    unsafeTextPlugin<RequestContext>(),
    variableProblemsPlugin<RequestContext>(),
    queryCostPlugin(rateLimiter),
    serviceUnavailableStatusPlugin,
    graphqlMetricsPlugin<RequestContext>(),
  ];
  const { schema, leanRuns } = options;
  const leanRunsOn = typeof leanRuns === 'function' ? leanRuns : undefined;
  const jit = new JitExecutor(
    schema,
    leanRuns === false
      ? undefined
      : (document, operation) => planGraphQLLeanRun(schema, document, operation, leanRunsOn),
  );
  const apollo = new ApolloServer<RequestContext>({
    // graphql-jit executes the documents (src/core/jit-gateway.ts); Apollo takes the schema from it.
    gateway: jit.gateway(),
    introspection: true,
    // Automatic persisted queries would let a hash stand in for a document outside our limits; off.
    persistedQueries: false,
    // Query limits (docs/api.md): tokens at parse time, depth/aliases/directives at validation, cost after.
    parseOptions: { maxTokens: QUERY_LIMITS.maxTokens },
    validationRules: [...QUERY_LIMIT_RULES],
    // Apollo's own default follows NODE_ENV (stack traces unless "production"); ours is never unless asked.
    includeStacktraceInErrorResponses: false,
    formatError: (formatted, error) =>
      formatGraphQLError(formatted, error, (internal) => logger.error({ err: internal }, 'graphql error'), {
        stackTraces: options.stackTraces,
      }),
    plugins,
  });
  await apollo.start();
  // One context per request, whichever of the fast path and Apollo builds it first (a request the fast path
  // hands to Apollo keeps its context, its hold and its cost charge).
  const contexts = new WeakMap<Request, RequestContext>();
  const contextOf = (req: Request): RequestContext => {
    // Only the landing page passes without a viewer, and Apollo renders it before building a context:
    // reaching here without one means a request slipped past the guard, so it executes nothing.
    if (!req.viewer) throw new UnauthorizedError();
    let context = contexts.get(req);
    if (!context) {
      context = options.contextFor(req);
      shareHold(req, context); // queryCostPlugin charges a query's cost into the request's held answer
      contexts.set(req, context);
    }
    return context;
  };
  const fastPath = new GraphQLFastPath(options.schema, jit, plugins, contextOf);
  return {
    handlers: [
      // A query document Apollo has run before is answered without its per-request pipeline, the same answer.
      fastPath.middleware(),
      graphqlMiddleware(apollo, async ({ req }) => contextOf(req)) as RequestHandler,
    ],
    closeFastPath: () => fastPath.close(),
    stop: () => apollo.stop(),
  };
}
