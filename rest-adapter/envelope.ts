import type { PageInfo } from '../src/core/pagination.js';

export interface SuccessEnvelope {
  success: true;
  data: unknown;
  meta?: PageInfo;
}

function isPage(value: unknown): value is { items: unknown[]; pageInfo: PageInfo } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { items?: unknown }).items) &&
    typeof (value as { pageInfo?: unknown }).pageInfo === 'object'
  );
}

/** The success envelope of SPEC 2.1: a page becomes `data: items` with `meta: {page, limit, total}`. */
export function successEnvelope(result: unknown): SuccessEnvelope {
  if (isPage(result)) return { success: true, data: result.items, meta: result.pageInfo };
  return { success: true, data: result };
}
