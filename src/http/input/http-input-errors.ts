import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, InvalidRequestError, NotFoundError } from '../../core/errors.js';
import { MAX_JSON_DEPTH } from './json-depth.js';

/**
 * Requests whose URL (path and query string) is longer than this are refused by the app itself with a
 * 400 envelope naming `url` (docs/api.md "Limits"). Node's HTTP parser stops reading at 16 KiB of URL and
 * headers together; what it refuses is answered by `answerClientError` below, in the envelope too.
 */
export const MAX_URL_LENGTH = 8 * 1024;

export function urlLengthLimit(req: Request, _res: Response, next: NextFunction): void {
  if (req.originalUrl.length <= MAX_URL_LENGTH) return next();
  next(
    new InvalidRequestError(`The URL is longer than ${MAX_URL_LENGTH} characters`, [
      { field: 'url', problem: `must be at most ${MAX_URL_LENGTH} characters long (path and query string)` },
    ]),
  );
}

type ErrorLike = {
  type?: unknown;
  status?: unknown;
  expose?: unknown;
  message?: unknown;
  encoding?: unknown;
};

const asErrorLike = (error: unknown): ErrorLike | null =>
  error !== null && typeof error === 'object' ? (error as ErrorLike) : null;

/**
 * What the HTTP plumbing (body parsers, decompression, Express's router) throws about a request it cannot
 * read, as the error the client gets: a 400 naming what is wrong (a path that cannot be decoded names
 * nothing: 404). Null for anything else, which stays an internal error.
 */
export function httpInputError(thrown: unknown, maxJsonBodyBytes: number): AppError | null {
  const error = asErrorLike(thrown);
  if (!error || thrown instanceof AppError) return null;
  // Express's router, decoding a path parameter such as %ff or a lone %.
  if (thrown instanceof URIError) return new NotFoundError('Route', 'with an undecodable path');
  const field = (name: string, problem: string, message: string) =>
    new InvalidRequestError(message, [{ field: name, problem }]);
  switch (error.type) {
    case 'entity.parse.failed':
      return field(
        'body',
        `is not valid JSON: ${String(error.message)}`,
        'The request body is not valid JSON',
      );
    case 'entity.too.deep':
      return field(
        'body',
        `must not nest objects and arrays deeper than ${MAX_JSON_DEPTH} levels`,
        `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    case 'entity.too.large':
      return field(
        'body',
        `must be at most ${maxJsonBodyBytes} bytes (after decompression)`,
        `The request body is larger than ${maxJsonBodyBytes} bytes`,
      );
    case 'encoding.unsupported':
      return field(
        'Content-Encoding',
        `"${String(error.encoding ?? '')}" is not supported (use gzip, deflate, br or none)`,
        'The request body is compressed in a way the service does not read',
      );
    case 'charset.unsupported':
      return field('Content-Type', 'must be UTF-8 (charset=utf-8 or none)', 'The request body must be UTF-8');
    case 'request.size.invalid':
      return field('body', 'is shorter or longer than Content-Length says', 'The request body is incomplete');
    case 'request.aborted':
      return field('body', 'was not sent completely', 'The request body is incomplete');
  }
  // Decompression (zlib, brotli) of a body whose Content-Encoding says it is compressed while it is not, or
  // any other failure the body reader marks as the client's (http-errors with a 4xx status, exposed).
  const status = typeof error.status === 'number' ? error.status : 0;
  if (status >= 400 && status < 500 && error.expose === true) {
    return field(
      'body',
      'could not be read: with a Content-Encoding, the body must be compressed that way (or send it uncompressed without one)',
      'The request body could not be read',
    );
  }
  return null;
}

/**
 * The body parser, with what it refuses (malformed JSON, too large, an unknown encoding) kept on the request instead
 * of answered at once: a REST route reports it after its permission check (rest-adapter/handler.ts), so a caller
 * who may not call the route gets 403 whatever the body. GraphQL cannot: its permissions depend on the document.
 */
export function deferBodyErrors(parse: RequestHandler, maxJsonBodyBytes: number): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error === undefined || !httpInputError(error, maxJsonBodyBytes)) return next(error);
      req.bodyError = error;
      next();
    });
}
