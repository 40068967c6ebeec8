import { randomUUID } from 'node:crypto';
import http from 'node:http';
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
import type { PgListener } from './core/pg-listener.js';
import type { TrustProxySetting } from './config.js';
import { createRequestContext, type RequestContext } from './context.js';
import { NotFoundError, toAppError } from './core/errors.js';
import type { AppDeps } from './core/service-context.js';
import { withPlainQueryFastPath, type QueryParser } from './http/query-string.js';
import { authenticate, requireViewer, type Authenticator } from './http/authenticate.js';
import { answerClientError } from './http/input/client-error.js';
import { runOnRequestPath } from './core/database-deadline.js';
import { refuseDeepJson } from './http/input/json-depth.js';
import { deferBodyErrors, httpInputError, urlLengthLimit } from './http/input/http-input-errors.js';
import { RateLimiter } from './http/rate-limit.js';
import { overlappingRateLimit } from './http/rate-limit-overlap.js';
import { organizationSession } from './http/organization-session.js';
import { readinessHandler } from './http/readiness.js';
import { httpMetricsMiddleware, metricsRouter } from './http/metrics.js';
import { graphiqlRouter } from './http/graphiql.js';
import { createGraphQLServer } from './http/graphql-server.js';
import type { LeanRunSwitch } from './http/graphql-lean-run.js';
import { isLandingPageRequest } from './http/landing-page.js';
import { requestLog } from './http/request-log.js';
import { homePage } from './http/home.js';
import { sampleDatabase, stopSampling } from './core/metrics.js';
import { sendError } from './http/respond.js';
import { countUnguardedRequests } from './http/unguarded-rate-limit.js';
import { httpServerOptions, type HttpTimeouts } from './http/server-timeouts.js';
import { AccessTokenAuthenticator } from './oauth/access-token.auth.js';
import { oauthRouter } from './oauth/oauth.routes.js';
import type { OAuthLimitOverrides } from './oauth/oauth.settings.js';
import proxyAddr from 'proxy-addr';
import { attachSubscriptionServer } from './subscriptions/subscription-server.js';
import './http/express-types.js';
import { restoreDownloadRouter } from './backup/restore-download.js';
import { FEATURE_ROUTES, ROUTE_MOUNTS, VERSIONED_ROUTES } from './features.js';
import { restRouter, type RestRouterDeps } from '../rest-adapter/router.js';
import { openApiRouter } from '../rest-adapter/openapi/serve.js';
import { restDispatch } from '../rest-adapter/dispatch.js';

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
  /** REST reads through the dispatch table (rest-adapter/dispatch.ts; default true); false: Express's routers only. */
  restDispatch?: boolean;
  /** REST reads through their document's plan where it has one (src/core/lean-plan/lean-run.ts; default true); false: graphql-jit only. */
  restLeanRuns?: boolean;
  /**
   * GraphQL queries through their plan where they have one (http/graphql-lean-run.ts; default true); false:
   * graphql-jit only; a function (tests only, never from configuration): asked at each request.
   */
  graphqlLeanRuns?: boolean | LeanRunSwitch;
}

export interface App {
  app: express.Express;
  server: http.Server;
  apiKeys: ApiKeyAuthenticator;
  /** Stops Apollo and drains HTTP connections; the caller closes the database afterwards. */
  stop(): Promise<void>;
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
  // The same parser with a fast path for plain query strings (src/http/query-string.ts).
  app.set('query parser', withPlainQueryFastPath(app.get('query parser fn') as QueryParser));

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
  // Every API request: who is calling, count it (headers even on a 401), refuse if unknown, refuse a URL over
  // MAX_URL_LENGTH, then parse the body.
  const guard = express.Router();
  // Reads run while their count is in flight and their answer waits for it (src/http/rate-limit-overlap.ts).
  const guardSteps = [
    authenticate(authenticators),
    overlappingRateLimit(rateLimiter, rateLimiter.middleware(), (error, req, res) =>
      handleError(error, req, res),
    ),
    requireViewer,
    urlLengthLimit,
  ];
  guard.use(...guardSteps);
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
    leanRuns: options.restLeanRuns,
  };
  const versioned = restRouter(VERSIONED_ROUTES, routerDeps);
  const features = restRouter(FEATURE_ROUTES, routerDeps);
  const notFound = (req: Request, _res: Response, next: NextFunction) =>
    next(new NotFoundError('Route', `${req.method} ${req.originalUrl.split('?')[0]}`));
  // Export archives: a signed link is its own authorization (src/backup/restore-download.ts).
  app.use(restoreDownloadRouter(orm, deps, rateLimiter, logError));
  // REST reads skip Express's routers: the same steps and handler, called from a table (rest-adapter/dispatch.ts).
  // A step added to the mounts below must be added to the table's steps too (test/rest/dispatch.test.ts).
  if (options.restDispatch !== false) {
    const mounts = [
      { prefix: '/v1/api', router: features.router },
      { prefix: '/v1', router: versioned.router },
      { prefix: '/api', router: features.router },
    ];
    app.use(restDispatch(mounts, [...guardSteps, ...restBody]));
  }
  // After the dispatch table: none of these paths is under a REST mount, and a REST read no longer walks their
  // routers and routes first (issue #31, eighth round: docs/benchmarks.md).
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

  app.use('/v1/api', guard, restBody, features.router, notFound);
  app.use('/v1', guard, restBody, versioned.router, notFound);
  app.use('/api', guard, restBody, features.router, notFound);

  const graphql = await createGraphQLServer({
    server,
    schema: options.schema,
    rateLimiter,
    logger,
    stackTraces: options.graphqlStackTraces ?? false,
    contextFor,
    leanRuns: options.graphqlLeanRuns,
  });
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
    graphql.handlers,
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
      graphql.closeFastPath();
      await subscriptions.stop();
      await graphql.stop();
      server.closeAllConnections();
    },
  };
}
