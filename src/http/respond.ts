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
 * conditional GET, no JSONP), without its per-response Content-Type parsing and formatting (issue #11: it was 5% of
 * a REST list's CPU beside the stringify itself). A HEAD request gets the headers only (Node drops the body).
 *
 * The text goes out as one UTF-8 Buffer, encoded once (issue #31, ninth round): a string answer was measured for
 * its byte length, then Node's first write glued the head in front of it (`header + text`) and flattened that into
 * a second copy of the answer on the JS heap before encoding it (18 KiB more garbage per users page, ~40% of what
 * writing a page added to the young generation); a Buffer's bytes live outside the heap and go out with the head in
 * one corked write. Same bytes on the wire.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
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
