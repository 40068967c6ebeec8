import type { Request, Response } from 'express';
import { toAppError, type AppError } from '../core/errors.js';

/** The failure envelope of SPEC 2.1. */
export function errorEnvelope(error: AppError) {
  return {
    success: false as const,
    error: { code: error.code, message: error.message, details: error.details },
  };
}

/**
 * Writes an error in the shape the caller's surface expects: the envelope for REST,
 * a GraphQL response with `extensions.code` for /graphql. The HTTP status is the code's status.
 */
export function sendError(req: Request, res: Response, thrown: unknown): void {
  const error = toAppError(thrown);
  if (error.code === 'RATE_LIMITED' || error.code === 'SERVICE_UNAVAILABLE')
    res.setHeader('Retry-After', String(error.details.retryAfterSeconds ?? 60));
  // RFC 6750 section 3: a 401 names the scheme the client should use.
  if (error.code === 'UNAUTHORIZED') res.setHeader('WWW-Authenticate', 'Bearer realm="api"');
  if (req.path.startsWith('/graphql') || req.baseUrl.startsWith('/graphql')) {
    res.status(error.httpStatus).json({
      errors: [{ message: error.message, extensions: { code: error.code, details: error.details } }],
    });
    return;
  }
  res.status(error.httpStatus).json(errorEnvelope(error));
}
