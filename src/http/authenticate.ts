import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError, UnauthorizedError } from '../core/errors.js';
import type { Viewer } from '../core/viewer.js';

/** One way of turning a Bearer token into a Viewer (API keys now, OAuth access tokens later). */
export interface Authenticator {
  handles(token: string): boolean;
  authenticate(
    token: string,
    ip: string,
  ): Promise<{ ok: true; viewer: Viewer } | { ok: false; reason: string }>;
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * Resolves the caller and remembers the outcome on the request. It never answers by itself:
 * the rate limiter must count the request first (unauthenticated requests are counted per IP),
 * and then `requireViewer` refuses what failed here.
 */
export function authenticate(authenticators: Authenticator[]) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = bearerToken(req);
    res.locals.authError = new UnauthorizedError();
    if (token) {
      const authenticator = authenticators.find((candidate) => candidate.handles(token));
      if (authenticator) {
        const result = await authenticator.authenticate(token, req.ip ?? '');
        if (result.ok) {
          req.viewer = result.viewer;
          res.locals.authError = undefined;
        } else if (result.reason === 'ip_not_allowed') {
          res.locals.authError = new ForbiddenError('This API key may not be used from this IP address', {
            ip: req.ip,
          });
        } else {
          res.locals.authError = new UnauthorizedError(
            'The API key or access token is invalid, expired or revoked',
          );
        }
      }
    }
    next();
  };
}

export function requireViewer(_req: Request, res: Response, next: NextFunction): void {
  if (res.locals.authError) next(res.locals.authError);
  else next();
}
