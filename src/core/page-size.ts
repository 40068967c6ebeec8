/**
 * A page's size limits (SPEC 8.2 and DECISIONS), in a module of their own: the OpenAPI document and the CLI quote
 * them without loading pagination.ts's type-graphql classes (which need reflect-metadata loaded first).
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
