/**
 * Written against rate-limiter-flexible 11.4.0 (checked at start-up: ./versions.ts).
 *
 * Why: the package's index loads every store it supports (Redis, Valkey, Mongo, MySQL, Memcache, DynamoDB,
 * Prisma, Drizzle, etc., ~35 modules, ~0.8 MiB of heap) where the server uses one, PostgreSQL's (issue #31
 * goal 4). `RateLimiterPostgres` and `RateLimiterRes` are taken from their own files: the same classes the
 * index exports (it re-exports these modules), so `instanceof RateLimiterRes` holds for its rejections.
 *
 * The internals: the file layout under `lib/` (no `exports` map in the package, so deep paths resolve). A
 * release that moves a file fails loudly at start-up; test/structure/lazy-modules.test.ts keeps the index out
 * of a server's modules. The types are the index's own (`import type`: erased at run time).
 */
import { createRequire } from 'node:module';
import type * as Library from 'rate-limiter-flexible';

const load = createRequire(import.meta.url);

export const RateLimiterPostgres = load(
  'rate-limiter-flexible/lib/RateLimiterPostgres.js',
) as typeof Library.RateLimiterPostgres;
export type RateLimiterPostgres = Library.RateLimiterPostgres;

export const RateLimiterRes = load(
  'rate-limiter-flexible/lib/RateLimiterRes.js',
) as typeof Library.RateLimiterRes;
export type RateLimiterRes = Library.RateLimiterRes;
