/**
 * A page's size limits (SPEC 8.2 and DECISIONS), in a module of their own: the OpenAPI document, the CLI and the
 * tests quote them without loading pagination.ts's type-graphql classes (which need reflect-metadata loaded first).
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

/**
 * Above this many matching rows a list's total is the planner's estimate (PageInfo.totalEstimated = true);
 * up to it the total is exact. Counting is index-only and capped, so even a huge tenant costs at most this many
 * index entries per page (docs/performance.md; the count itself is in lean-read.ts).
 */
export const EXACT_TOTAL_LIMIT = 100_000;
