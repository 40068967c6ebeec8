import type { NextFunction, Request, Response } from 'express';
import { ForbiddenError, UnauthorizedError, type AppError } from '../core/errors.js';
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
  return parseBearer(req.headers.authorization);
}

/** `Bearer <token>` → the token (HTTP headers and graphql-ws connection_init payloads alike). */
export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export type CredentialOutcome =
  { viewer: Viewer; error?: undefined } | { viewer?: undefined; error: AppError };

/** The one rule turning a Bearer token into a Viewer or the error to answer with (HTTP and WebSocket). */
export async function resolveCredential(
  authenticators: readonly Authenticator[],
  token: string | null,
  ip: string,
): Promise<CredentialOutcome> {
  const authenticator = token ? authenticators.find((candidate) => candidate.handles(token)) : undefined;
  if (!token || !authenticator) return { error: new UnauthorizedError() };
  const result = await authenticator.authenticate(token, ip);
  if (result.ok) return { viewer: result.viewer };
  if (result.reason === 'ip_not_allowed')
    return { error: new ForbiddenError('This API key may not be used from this IP address', { ip }) };
  return { error: new UnauthorizedError('The API key or access token is invalid, expired or revoked') };
}

/**
 * Resolves the caller and remembers the outcome on the request. It never answers by itself:
 * the rate limiter must count the request first (unauthenticated requests are counted per IP),
 * and then `requireViewer` refuses what failed here.
 */
export function authenticate(authenticators: readonly Authenticator[]) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const outcome = await resolveCredential(authenticators, bearerToken(req), req.ip ?? '');
    req.viewer = outcome.viewer;
    res.locals.authError = outcome.error;
    next();
  };
}

export function requireViewer(_req: Request, res: Response, next: NextFunction): void {
  if (res.locals.authError) next(res.locals.authError);
  else next();
}
