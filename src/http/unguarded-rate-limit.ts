import type { NextFunction, Request, Response } from 'express';
import { RateLimitedError } from '../core/errors.js';
import { TOKEN_ENDPOINT_LIMITS } from '../oauth/oauth.settings.js';
import { clientIpBucket, type RateBucket, type RateLimiter } from './rate-limit.js';
import { sendOAuthError } from '../oauth/oauth.routes.js';
import { sendError } from './respond.js';

/** Paths under the API guard (Express matches mount paths case-insensitively, and so does this). */
const GUARDED_PATH = /^\/(v1|api|graphql)(\/|$)/i;
const GRAPHQL_PATH = /^\/graphql(\/|$)/i;
const HEALTH_PATH = /^\/health\/(live|ready)\/?$/i;
const OAUTH_PATH = /^\/oauth(\/|$)/i;
const OAUTH_SURFACE = /^\/(oauth(\/|$)|\.well-known\/oauth-authorization-server)/i;

/**
 * The OAuth endpoints' own per-address window, at the token endpoint's request limit per address (300 a
 * minute, TOKEN_ENDPOINT_LIMITS): one integration server refreshes the tokens of many clients, which the
 * Starter 60 would refuse. Guessing is slowed by the endpoints' own failure limits (docs/oauth.md).
 */
function oauthClientIpBucket(ip: string): RateBucket {
  return { key: `oauth-ip:${ip}`, limit: TOKEN_ENDPOINT_LIMITS.perIp.points, caller: 'ip' };
}

/** A 429 over the per-address limit: RFC 6749 JSON on the OAuth endpoints (like their own limits), else the envelope. */
function refuse(req: Request, res: Response, retryAfterSeconds: number): void {
  if (OAUTH_PATH.test(req.path))
    return sendOAuthError(
      res,
      429,
      'temporarily_unavailable',
      `Too many requests; retry in ${retryAfterSeconds} s`,
    );
  sendError(req, res, new RateLimitedError(retryAfterSeconds));
}

/**
 * SPEC 8.1: every response carries the X-RateLimit-* headers. The API guard counts /v1, /api and /graphql
 * (per credential, or per address without one), and the export download link counts itself (under /api);
 * everything else (unknown paths, the public documentation pages, OPTIONS, the GraphQL landing page) is
 * counted here, per client address at the Starter limit, and the OAuth endpoints per client address in a
 * window of their own, in the same PostgreSQL-backed windows. Only the health probes are never counted (DECISIONS: "no auth, no rate limit"): a load balancer
 * polling them must never be refused. docs/decisions.md "Rate limits".
 */
export function countUnguardedRequests(
  rateLimiter: RateLimiter,
  isLandingPageRequest: (req: Request) => boolean,
) {
  const countPerAddress = rateLimiter.countingMiddleware(
    (req) => (OAUTH_SURFACE.test(req.path) ? oauthClientIpBucket : clientIpBucket)(req.ip ?? ''),
    refuse,
  );
  const countedElsewhere = (req: Request): boolean =>
    HEALTH_PATH.test(req.path) ||
    // OPTIONS is answered 404 before the guard, whatever the path.
    (req.method !== 'OPTIONS' &&
      GUARDED_PATH.test(req.path) &&
      !(GRAPHQL_PATH.test(req.path) && isLandingPageRequest(req)));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (countedElsewhere(req)) return next();
    void countPerAddress(req, res, next);
  };
}
