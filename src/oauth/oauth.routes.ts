import type { MikroORM } from '@mikro-orm/postgresql';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { KNOWN_SCOPES } from './oauth-scopes.js';
import { mountAuthorizeRoutes } from './authorize.routes.js';
import { renderErrorPage, sendPage } from './authorize-page.js';
import { AttemptLimiter, attemptAll, forgiveAll, type Attempt } from './brute-force.js';
import { clientCredentials, OAuthEndpoints } from './oauth-endpoints.js';
import { OAuthTokenKind } from './oauth-grant.entity.js';
import { createOAuthModel } from './oauth-model.js';
import { OAuthStore } from './oauth-store.js';
import { oauthLimits, type AttemptLimit, type OAuthLimitOverrides } from './oauth.settings.js';

export interface OAuthRouterDeps {
  orm: MikroORM;
  pool: pg.Pool;
  clock: Clock;
  logger: Logger;
  /** The issuer (RFC 8414) and the origin of the endpoints it lists. */
  publicUrl: string;
  /** Brute-force limits other than the defaults of oauth.settings.ts (tests use small numbers). */
  limits?: OAuthLimitOverrides;
}

/** RFC 6749 5.2 errors: JSON, never cached. */
/** An RFC 6749 error response (also the per-address 429 of src/http/unguarded-rate-limit.ts). */
/** The grant types of our token endpoint (every client may use both). */
const SUPPORTED_GRANT_TYPES = ['authorization_code', 'refresh_token'];

export function sendOAuthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({
    error,
    error_description: description,
  });
}

/**
 * The authorization server (SPEC 5.2, DECISIONS): /oauth/authorize (sign-in and consent page),
 * /oauth/token, /oauth/revoke (RFC 7009) and the RFC 8414 metadata. Mounted at the root of the app,
 * outside the API guard: these endpoints authenticate members and clients themselves.
 */
export function oauthRouter(deps: OAuthRouterDeps): Router {
  const store = new OAuthStore(deps.orm, deps.clock);
  const endpoints = new OAuthEndpoints(store);
  const clientModel = createOAuthModel(store, { requireClientSecret: true });
  const limits = oauthLimits(deps.limits);
  const limiter = (prefix: string, limit: AttemptLimit) => new AttemptLimiter(deps.pool, prefix, limit);
  const tokenLimits = {
    perIp: limiter('oauth_token_ip', limits.token.perIp),
    perClientIp: limiter('oauth_token_client_ip', limits.token.perClientIp),
    perClient: limiter('oauth_token_client', limits.token.perClient),
  };
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
  const router = Router();

  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    const origin = deps.publicUrl.replace(/\/$/, '');
    res.json({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: SUPPORTED_GRANT_TYPES,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      scopes_supported: KNOWN_SCOPES,
    });
  });

  router.use('/oauth/authorize', form);
  mountAuthorizeRoutes(router, {
    orm: deps.orm,
    clock: deps.clock,
    logger: deps.logger,
    store,
    endpoints,
    signInLimits: {
      perIp: limiter('oauth_signin_ip', limits.signIn.perIp),
      perAccountIp: limiter('oauth_signin_account_ip', limits.signIn.perAccountIp),
      perAccount: limiter('oauth_signin_account', limits.signIn.perAccount),
    },
    secureCookies: deps.publicUrl.startsWith('https:'),
  });

  /**
   * Counts the request per address and, as a possible failed client authentication, per (client_id,
   * address) and per client_id. Returns the client counters to give back once the client authenticated
   * (a request that passes client authentication never counts as a failure), or null with a 429 sent.
   */
  const admit = async (
    req: Request,
    res: Response,
    clientId: string | undefined,
  ): Promise<Attempt[] | null> => {
    const ip = req.ip ?? '';
    const clientAttempts: Attempt[] = clientId
      ? [
          [tokenLimits.perClientIp, `${clientId}|${ip}`],
          [tokenLimits.perClient, clientId],
        ]
      : [];
    const outcome = await attemptAll([[tokenLimits.perIp, ip], ...clientAttempts]);
    if (outcome.allowed) return clientAttempts;
    // RFC 6749 5.2 has no code for this; see docs/oauth.md "Brute-force protection" for the choice.
    res.set('Retry-After', String(outcome.retryAfterSeconds));
    sendOAuthError(
      res,
      429,
      'temporarily_unavailable',
      `Too many requests; retry in ${outcome.retryAfterSeconds} s`,
    );
    return null;
  };

  router.post('/oauth/token', form, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const { clientId } = clientCredentials(req, body);
      const clientAttempts = await admit(req, res, clientId);
      if (!clientAttempts) return;
      const { library, servers } = await endpoints.load();
      const response = library.libraryResponse();
      try {
        await servers.token.token(library.libraryRequest(req, body), response);
      } catch (error) {
        // Anything but invalid_client came after the client authenticated, or before any secret was checked.
        if (!(endpoints.isOAuthError(error) && error.name === 'invalid_client'))
          await forgiveAll(clientAttempts);
        if (!endpoints.isOAuthError(error) || error.code >= 500) {
          deps.logger.error({ err: error, requestId: req.requestId }, 'token request failed');
          return sendOAuthError(res, 500, 'server_error', 'An internal error occurred');
        }
        const challenge = response.get('www-authenticate');
        if (challenge) res.set('WWW-Authenticate', String(challenge));
        // The library knows `password` and `client_credentials` and calls them unauthorized for our clients;
        // we support no such grant for anyone, which RFC 6749 5.2 names unsupported_grant_type (issue #32).
        if (error.name === 'unauthorized_client')
          return sendOAuthError(
            res,
            400,
            'unsupported_grant_type',
            `The grant type is not supported; supported: ${SUPPORTED_GRANT_TYPES.join(', ')}`,
          );
        return sendOAuthError(res, error.code, error.name, error.message);
      }
      await forgiveAll(clientAttempts);
      res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(response.body);
    } catch (error) {
      next(error);
    }
  });

  /** RFC 7009: 200 whether or not the token exists; a refresh token takes its whole family with it. */
  router.post('/oauth/revoke', form, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const credentials = clientCredentials(req, body);
      const clientAttempts = await admit(req, res, credentials.clientId);
      if (!clientAttempts) return;
      const client =
        credentials.clientId && credentials.clientSecret
          ? await clientModel.getClient(credentials.clientId, credentials.clientSecret)
          : false;
      if (!client) {
        if (credentials.viaBasic) res.set('WWW-Authenticate', 'Basic realm="oauth"');
        return sendOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
      }
      await forgiveAll(clientAttempts);
      if (typeof body.token !== 'string' || body.token === '')
        return sendOAuthError(res, 400, 'invalid_request', 'token is required');
      const row = await store.findToken(body.token);
      // A token of another client is left alone, and the answer is the same as for an unknown token.
      if (row && row.oauthClientId === client.id) {
        if (row.kind === OAuthTokenKind.REFRESH) await store.revokeGrant(row.grantId);
        else await store.revokeToken(row.id);
      }
      res.status(200).set({ 'Cache-Control': 'no-store' }).end();
    } catch (error) {
      next(error);
    }
  });

  // Form parsing errors and anything unexpected: an HTML page on /oauth/authorize, RFC 6749 JSON elsewhere.
  router.use('/oauth', (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    void _next;
    const status = (error as { status?: number }).status;
    const clientError = typeof status === 'number' && status >= 400 && status < 500;
    if (!clientError) deps.logger.error({ err: error, requestId: req.requestId }, 'oauth request failed');
    if (req.path.startsWith('/authorize')) {
      return sendPage(res, clientError ? 400 : 500, renderErrorPage('The request could not be read.'));
    }
    if (clientError) return sendOAuthError(res, 400, 'invalid_request', 'The request body could not be read');
    sendOAuthError(res, 500, 'server_error', 'An internal error occurred');
  });

  return router;
}
