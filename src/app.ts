import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import type { MikroORM } from '@mikro-orm/postgresql';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import type pg from 'pg';
import type { Logger } from 'pino';
import { ApiKeyAuthenticator } from './api-keys/api-key.auth.js';
import {
  API_KEY_CHANGED_CHANNEL,
  API_KEY_REVOKED_CHANNEL,
  type ApiKeyCacheHolder,
} from './api-keys/api-key.service.js';
import { currentOrganizationSession } from './core/db-session.js';
import { JitExecutor } from './core/jit-gateway.js';
import type { PgListener } from './core/pg-listener.js';
import type { TrustProxySetting } from './config.js';
import { createRequestContext, type RequestContext } from './context.js';
import { NotFoundError, toAppError, UnauthorizedError } from './core/errors.js';
import type { AppDeps } from './core/service-context.js';
import { authenticate, requireViewer, type Authenticator } from './http/authenticate.js';
import { graphqlMiddleware } from './http/graphql-middleware.js';
import { GraphQLFastPath } from './http/graphql-fast-path.js';
import { answerClientError } from './http/input/client-error.js';
import { runOnRequestPath } from './core/database-deadline.js';
import { unsafeTextPlugin } from './http/input/graphql-input-plugin.js';
import { variableProblemsPlugin } from './http/input/graphql-variables-plugin.js';
import { refuseDeepJson } from './http/input/json-depth.js';
import { deferBodyErrors, httpInputError, urlLengthLimit } from './http/input/http-input-errors.js';
import { QUERY_LIMIT_RULES, QUERY_LIMITS } from './http/query-limits.js';
import { authorizeOperationPlugin } from './http/operation-requirements.js';
import { queryCostPlugin } from './http/query-cost.plugin.js';
import { formatGraphQLError, serviceUnavailableStatusPlugin } from './http/graphql-errors.js';
import { RateLimiter } from './http/rate-limit.js';
import { overlappingRateLimit, shareHold } from './http/rate-limit-overlap.js';
import { organizationSession } from './http/organization-session.js';
import { readinessHandler } from './http/readiness.js';
import { graphqlMetricsPlugin, httpMetricsMiddleware, metricsRouter } from './http/metrics.js';
import { graphiqlRouter } from './http/graphiql.js';
import { requestLog } from './http/request-log.js';
import { homePage } from './http/home.js';
import { landingPageWithGraphiqlFallback } from './http/landing-page.js';
import { sampleDatabase, stopSampling } from './core/metrics.js';
import { sendError } from './http/respond.js';
import { countUnguardedRequests } from './http/unguarded-rate-limit.js';
import { httpServerOptions, type HttpTimeouts } from './http/server-timeouts.js';
import { AccessTokenAuthenticator } from './oauth/access-token.auth.js';
import { oauthRouter } from './oauth/oauth.routes.js';
import type { OAuthLimitOverrides } from './oauth/oauth.settings.js';
import Negotiator from 'negotiator';
import proxyAddr from 'proxy-addr';
import { attachSubscriptionServer } from './subscriptions/subscription-server.js';
import './http/express-types.js';
import { restoreDownloadRouter } from './backup/restore-download.js';
import { FEATURE_ROUTES, ROUTE_MOUNTS, VERSIONED_ROUTES } from './features.js';
import { restRouter, type RestRouterDeps } from '../rest-adapter/router.js';
import { openApiRouter } from '../rest-adapter/openapi/serve.js';

export interface AppOptions extends AppDeps {
  orm: MikroORM;
  /** A plain pool for the rate limiter (and anything else that talks SQL outside the ORM). */
  pool: pg.Pool;
  schema: GraphQLSchema;
  logger: Logger;
  maxJsonBodyBytes: number;
  /** The process's LISTEN connection (cross-process cache invalidation, events). */
  listener: PgListener;
  /** Readiness: migrations applied. The database is asked on every /health/ready call. */
  isReady: () => boolean;
  /** Express's `trust proxy` (TRUST_PROXY): whose X-Forwarded-For gives the client address. Default false. */
  trustProxy?: TrustProxySetting;
  /** HTTP server timeouts other than the defaults (http/server-timeouts.ts). */
  httpTimeouts?: HttpTimeouts;
  /** Brute-force limits of the OAuth endpoints other than the defaults (tests use small numbers). */
  oauthLimits?: OAuthLimitOverrides;
  /** Bearer token of GET /metrics (METRICS_TOKEN); absent: no /metrics route (docs/operations.md). */
  metricsToken?: string;
  /** When the REST routes' documents are validated (rest-adapter/router.ts): at start-up unless a test says. */
  compileRestRoutes?: RestRouterDeps['compileRoutes'];
  /** GRAPHQL_STACK_TRACES: internal GraphQL errors carry their stack trace. Never unless asked (default false). */
  graphqlStackTraces?: boolean;
}

export interface App {
  app: express.Express;
  server: http.Server;
  apiKeys: ApiKeyAuthenticator;
  /** Stops Apollo and drains HTTP connections; the caller closes the database afterwards. */
  stop(): Promise<void>;
}

/**
 * The media types Apollo Server negotiates an `Accept` header against (ApolloServer.prefersHTML). A GET
 * whose best match is text/html gets the landing page from Apollo and is never executed, whatever its
 * query string holds; anything else may execute and must pass the guard.
 */
const APOLLO_NEGOTIATED_TYPES = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'multipart/mixed; deferSpec=20220824',
  'multipart/mixed; incrementalSpec=v0.2',
  'multipart/mixed',
  'text/html',
];

/**
 * GET /graphql that Apollo answers with its IDE page (no credentials needed: the page executes nothing).
 * Decided from the same negotiation Apollo uses, never from Express's query parser, which stops at 1,000
 * parameters while Apollo reads the raw URL.
 */
export function isLandingPageRequest(req: Request): boolean {
  const accept = req.get('accept');
  return (
    req.method === 'GET' &&
    !!accept &&
    new Negotiator({ headers: { accept } }).mediaType(APOLLO_NEGOTIATED_TYPES) === 'text/html'
  );
}

/**
 * Builds the whole HTTP surface without listening, so tests and main.ts share it:
 * health → JSON body → auth → rate limit → REST routes and GraphQL → 404 → errors.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const { orm, logger } = options;
  const apiKeys = new ApiKeyAuthenticator(orm, options.clock);
  // Request contexts are built from these (createRequestContext spreads them), so the key service
  // reaches this process's key cache through its context: a revocation drops the key at once here,
  // and in other processes when the NOTIFY arrives.
  const deps: AppDeps & ApiKeyCacheHolder = {
    clock: options.clock,
    clouds: options.clouds,
    publicUrl: options.publicUrl,
    outboxSubscribers: options.outboxSubscribers,
    webhooks: options.webhooks,
    microsoft365: options.microsoft365,
    cloudCallBudget: options.cloudCallBudget,
    apiKeyCache: apiKeys,
  };
  const app = express();
  // Statements of a request get the short no-answer deadline (core/database-deadline.ts).
  const server = http.createServer(httpServerOptions(options.httpTimeouts), (req, res) =>
    runOnRequestPath(() => app(req, res)),
  );
  server.on('clientError', answerClientError);
  app.disable('x-powered-by');
  // The client address (req.ip) of per-address limits and API key allowlists: behind a proxy, from
  // X-Forwarded-For as far as the proxies are trusted (TRUST_PROXY); otherwise the connecting address.
  app.set('trust proxy', options.trustProxy ?? false);
  // API responses are personal and change often; hashing every body for an ETag costs more than it saves.
  app.set('etag', false);
  app.set('query parser', 'extended');

  await options.listener.listen(API_KEY_REVOKED_CHANNEL, (apiKeyId) => apiKeys.forget(apiKeyId));
  await options.listener.listen(API_KEY_CHANGED_CHANNEL, (apiKeyId) => apiKeys.forget(apiKeyId));
  options.listener.onStateChange((state) => apiKeys.setListening(state === 'restored'));
  const authenticators: Authenticator[] = [
    {
      handles: (token) => ApiKeyAuthenticator.handles(token),
      authenticate: (token, ip) => apiKeys.authenticate(token, ip),
    },
    new AccessTokenAuthenticator(orm, options.clock),
  ];
  const rateLimiter = new RateLimiter(options.pool);

  app.use((req: Request, res: Response, next: NextFunction) => {
    req.requestId = req.get('x-request-id')?.slice(0, 100) || randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    // API answers are personal and may carry secrets (new keys, generated passwords): never cached, and never
    // sniffed into another content type. Helmet's other headers (CSP, ...) would break the GraphQL IDE page.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  // One line per request (docs/operations.md "Logs"): after the request id, before anything can answer.
  app.use(requestLog(logger));

  // Every response carries the X-RateLimit-* headers (SPEC 8.1): what the API guard does not count is
  // counted per client address here (src/http/unguarded-rate-limit.ts).
  app.use(countUnguardedRequests(rateLimiter, isLandingPageRequest));

  // Express would answer OPTIONS itself, in plain text ("GET, HEAD"). The API serves no CORS preflight and answers
  // JSON only (SPEC 2.1): OPTIONS is a method it does not serve, like any other, with the 404 envelope.
  app.use((req: Request, _res: Response, next: NextFunction) =>
    next(req.method === 'OPTIONS' ? new NotFoundError('Route', `OPTIONS ${req.path}`) : undefined),
  );
  app.use(httpMetricsMiddleware());
  sampleDatabase('api', options.pool);
  app.use(metricsRouter(options.metricsToken));
  // The self-hosted GraphiQL page and its assets: static files that execute nothing by themselves.
  app.use(graphiqlRouter());

  app.get('/', homePage);
  app.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/health/ready', readinessHandler(options.pool, options.isReady));
  // GET /openapi.json and the API reference at /docs (docs/openapi.md): public, they describe the API only.
  app.use(openApiRouter(options.schema, options.publicUrl, ROUTE_MOUNTS));

  // Every API request: who is calling, count it (headers even on a 401), refuse if unknown, refuse a URL over
  // MAX_URL_LENGTH, then parse the body.
  const guard = express.Router();
  // Reads run while their count is in flight and their answer waits for it (src/http/rate-limit-overlap.ts).
  guard.use(
    authenticate(authenticators),
    overlappingRateLimit(rateLimiter, rateLimiter.middleware(), (error, req, res) =>
      handleError(error, req, res),
    ),
    requireViewer,
    urlLengthLimit,
  );
  const parseJson = express.json({
    limit: options.maxJsonBodyBytes,
    type: ['application/json', 'application/*+json'],
    verify: refuseDeepJson, // a body nested over MAX_JSON_DEPTH is refused before it is parsed
  });
  // Then the organization's database session (row-level security), which must follow the body parser.
  const jsonBody = [parseJson, organizationSession];
  const restBody = [deferBodyErrors(parseJson, options.maxJsonBodyBytes), organizationSession];
  const contextFor = (req: Request): RequestContext => {
    // A route wired without organizationSession would run its SQL as the service role: refuse instead.
    if (!currentOrganizationSession())
      throw new Error('API request outside its organization database session');
    return createRequestContext(orm, deps, req.viewer!, req.requestId);
  };
  const logError = (error: unknown, req: Request) =>
    logger.error({ err: error, requestId: req.requestId }, 'request failed');

  const routerDeps = {
    schema: options.schema,
    contextFor,
    logError,
    compileRoutes: options.compileRestRoutes,
  };
  const versioned = restRouter(VERSIONED_ROUTES, routerDeps);
  const features = restRouter(FEATURE_ROUTES, routerDeps);
  const notFound = (req: Request, _res: Response, next: NextFunction) =>
    next(new NotFoundError('Route', `${req.method} ${req.originalUrl.split('?')[0]}`));
  // Export archives: a signed link is its own authorization (src/backup/restore-download.ts).
  app.use(restoreDownloadRouter(orm, deps, rateLimiter, logError));
  app.use('/v1/api', guard, restBody, features.router, notFound);
  app.use('/v1', guard, restBody, versioned.router, notFound);
  app.use('/api', guard, restBody, features.router, notFound);

  const plugins = [
    ApolloServerPluginDrainHttpServer({ httpServer: server }),
    // Apollo's default cache-control plugin computes cache hints field by field (it wraps every resolver of
    // the schema and is called for each field of each item: 5.5% of a GraphQL list's CPU, issue #11) for a
    // Cache-Control header we never send: API answers are personal and marked no-store.
    ApolloServerPluginCacheControlDisabled(),
    landingPageWithGraphiqlFallback<RequestContext>(),
    // Permission before input: a caller who may not run the operation learns nothing about its variables.
    authorizeOperationPlugin(),
    unsafeTextPlugin<RequestContext>(),
    variableProblemsPlugin<RequestContext>(),
    queryCostPlugin(rateLimiter),
    serviceUnavailableStatusPlugin,
    graphqlMetricsPlugin<RequestContext>(),
  ];
  const jit = new JitExecutor(options.schema);
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
        stackTraces: options.graphqlStackTraces ?? false,
      }),
    plugins,
  });
  await apollo.start();
  // One context per request, whichever of the fast path and Apollo builds it first (a request the fast path
  // hands to Apollo keeps its context, its hold and its cost charge).
  const graphqlContexts = new WeakMap<Request, RequestContext>();
  const graphqlContext = (req: Request): RequestContext => {
    // Only the landing page passes without a viewer, and Apollo renders it before building a context:
    // reaching here without one means a request slipped past the guard, so it executes nothing.
    if (!req.viewer) throw new UnauthorizedError();
    let context = graphqlContexts.get(req);
    if (!context) {
      context = contextFor(req);
      shareHold(req, context); // queryCostPlugin charges a query's cost into the request's held answer
      graphqlContexts.set(req, context);
    }
    return context;
  };
  const fastPath = new GraphQLFastPath(options.schema, jit, plugins, graphqlContext);
  // GraphQL over WebSocket (graphql-ws) on the same server and path: subscriptions to domain events.
  const subscriptions = await attachSubscriptionServer({
    server,
    schema: options.schema,
    orm,
    deps,
    authenticators,
    rateLimiter,
    listener: options.listener,
    pool: options.pool,
    logger,
    maxMessageBytes: options.maxJsonBodyBytes,
    // Express's own compiled `trust proxy` rule, so a socket's address is the one req.ip would give.
    clientAddressOf: (request) =>
      proxyAddr(request, app.get('trust proxy fn') as (address: string, hop: number) => boolean),
  });
  app.use(
    '/graphql',
    (req: Request, res: Response, next: NextFunction) =>
      isLandingPageRequest(req) ? next() : guard(req, res, next),
    jsonBody,
    // A query document Apollo has run before is answered without its per-request pipeline, the same answer.
    fastPath.middleware(),
    graphqlMiddleware(apollo, async ({ req }) => graphqlContext(req)),
  );

  // The OAuth 2.0 authorization server (docs/oauth.md): outside the API guard, it authenticates by itself.
  app.use(
    oauthRouter({
      orm,
      pool: options.pool,
      clock: options.clock,
      logger,
      publicUrl: options.publicUrl,
      limits: options.oauthLimits,
    }),
  );

  app.use(notFound);
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    void _next;
    handleError(error, req, res);
  });
  function handleError(error: unknown, req: Request, res: Response): void {
    const inputProblem = httpInputError(error, options.maxJsonBodyBytes);
    if (inputProblem) return sendError(req, res, inputProblem);
    if (toAppError(error).code === 'INTERNAL_ERROR')
      logger.error({ err: error, requestId: req.requestId }, 'request failed');
    sendError(req, res, error);
  }

  return {
    app,
    server,
    apiKeys,
    stop: async () => {
      stopSampling(options.pool);
      fastPath.close();
      await subscriptions.stop();
      await apollo.stop();
      server.closeAllConnections();
    },
  };
}
