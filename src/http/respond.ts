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
 * Writes `body` as the JSON answer: what Express's `res.status().json()` does for our answers (no ETag, no
 * conditional GET, no JSONP), without its per-response Content-Type parsing and formatting and the copy of
 * long bodies into a Buffer (issue #11: it was 5% of a REST list's CPU beside the stringify itself). A HEAD
 * request gets the headers only (Node drops the body).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
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
    sendJson(res, error.httpStatus, {
      errors: [{ message: error.message, extensions: { code: error.code, details: error.details } }],
    });
    return;
  }
  sendJson(res, error.httpStatus, errorEnvelope(error));
}
