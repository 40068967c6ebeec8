import type { NextFunction, Request, Response } from 'express';
import { RateLimitedError } from '../core/errors.js';
import type { RequestContext } from '../core/request-context.js';
import { setRateLimitHeaders, type RateLimiter, type RateLimitOutcome } from './rate-limit.js';

/**
 * The rate-limit decision of a read, taken while the read runs (issue #31: the counter's UPSERT was a round
 * trip of its own in front of every request's SQL).
 *
 * Every request is counted in the shared PostgreSQL counter exactly as before (same statement, same order,
 * same decision); what changes is when the answer waits for it. A read (REST GET/HEAD, a GraphQL query) starts
 * at once, on another connection, and its response is held back until the count is known: allowed, it leaves
 * with the X-RateLimit-* headers; refused, its answer is thrown away and the caller gets the 429 it would have
 * got before. So no caller ever receives data beyond its limit, and the limits stay exact across processes.
 * Whatever writes waits for the count first: other methods in the guard, and GraphQL mutations in
 * `queryCostPlugin` (through `ResponseHold.decided`). A caller this process already saw refused in the
 * current window waits too, so an over-limit client does not keep making the database read pages it will
 * never get.
 */
export class ResponseHold {
  private readonly pending: Promise<RateLimitOutcome>[] = [];

  constructor(first: Promise<RateLimitOutcome>) {
    this.add(first);
  }

  /** Another charge of the same request (a GraphQL query's cost beyond its first point). */
  add(decision: Promise<RateLimitOutcome>): void {
    decision.catch(() => undefined); // reported when the hold is released, never as unhandled
    this.pending.push(decision);
  }

  /**
   * Every charge added so far, settled: the refused one if any, else the last counted (its `remaining` is the
   * lowest, which is what the headers must say). Rejects if a count failed.
   */
  async decided(): Promise<RateLimitOutcome> {
    const outcomes = await Promise.all(this.pending);
    return (
      outcomes.find((outcome) => !outcome.allowed) ??
      outcomes.reduce((lowest, outcome) => (outcome.remaining < lowest.remaining ? outcome : lowest))
    );
  }
}

const holds = new WeakMap<object, ResponseHold>();

/**
 * The hold of the request a GraphQL context was built for. Keyed by the context's `loaders`, made once per
 * request: Apollo hands plugins a shallow copy of the context object, not the object itself.
 */
export function holdOf(context: RequestContext): ResponseHold | undefined {
  return holds.get(context.loaders);
}

/** Lets `context` (a GraphQL context) reach the hold of `req`. */
export function shareHold(req: Request, context: RequestContext): void {
  const hold = holds.get(req);
  if (hold) holds.set(context.loaders, hold);
}

/** Reads that may run while their count is in flight: nothing they do is visible unless they are allowed. */
function mayOverlap(req: Request): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  // A GraphQL POST: mutations wait in queryCostPlugin before anything executes.
  return req.method === 'POST' && req.baseUrl.toLowerCase() === '/graphql';
}

type Deferred = ['writeHead' | 'write' | 'end' | 'flushHeaders', unknown[]];

/**
 * Holds `res`'s head and body (writeHead, write, end, flushHeaders are queued, nothing reaches the socket) until
 * the handler has ended its answer and every charge of the request is counted (a GraphQL query adds its cost's
 * charge before it executes, so before it ends), then sends them with the rate-limit headers; refused (or a count
 * failed), the handler's answer is dropped and `refuse` answers instead.
 */
function holdResponse(res: Response, hold: ResponseHold, refuse: (error: unknown) => void): void {
  const queued: Deferred[] = [];
  const originals = {
    writeHead: res.writeHead,
    write: res.write,
    end: res.end,
    flushHeaders: res.flushHeaders,
  };
  const headersBefore = new Set(res.getHeaderNames());
  const restore = () => Object.assign(res, originals);
  const dropHandlerHeaders = () => {
    for (const name of res.getHeaderNames()) if (!headersBefore.has(name)) res.removeHeader(name);
    res.statusCode = 200;
  };
  const release = () =>
    hold.decided().then(
      (outcome) => {
        restore();
        if (!outcome.allowed) dropHandlerHeaders();
        setRateLimitHeaders(outcome, (name, value) => res.setHeader(name, value));
        if (!outcome.allowed) return refuse(new RateLimitedError(outcome.retryAfterSeconds));
        const replay = res as unknown as Record<string, (...args: unknown[]) => unknown>;
        for (const [method, args] of queued) replay[method](...args);
      },
      (error: unknown) => {
        restore();
        dropHandlerHeaders();
        refuse(error);
      },
    );
  const target = res as unknown as Record<keyof typeof originals, (...args: unknown[]) => unknown>;
  for (const method of Object.keys(originals) as (keyof typeof originals)[])
    target[method] = (...args: unknown[]) => {
      queued.push([method, args]);
      if (method === 'end') void release();
      return method === 'write' ? true : res;
    };
}

/**
 * The API guard's counting step: `awaitCount` (the waiting middleware) for what must wait, else the count is
 * started, the response held, and the request goes on at once.
 */
export function overlappingRateLimit(
  rateLimiter: RateLimiter,
  awaitCount: (req: Request, res: Response, next: NextFunction) => Promise<void>,
  sendFailure: (error: unknown, req: Request, res: Response) => void,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!req.viewer || !mayOverlap(req) || rateLimiter.knownRefused(req.viewer)) {
      void awaitCount(req, res, next);
      return;
    }
    const hold = new ResponseHold(rateLimiter.consume(req.viewer, req.ip ?? ''));
    holds.set(req, hold);
    holdResponse(res, hold, (error) => sendFailure(error, req, res));
    next();
  };
}
