import type { PageInfo } from '../src/core/pagination.js';

export interface SuccessEnvelope {
  success: true;
  data: unknown;
  meta?: PageInfo | Record<string, unknown>;
}

/** `totalEstimated: true` only when the total is an estimate: exact totals keep SPEC 2.1's three fields. */
function pageMeta(pageInfo: PageInfo): PageInfo {
  if (pageInfo.totalEstimated === undefined) return pageInfo;
  const { totalEstimated, ...meta } = pageInfo;
  return totalEstimated ? { ...meta, totalEstimated } : meta;
}

function isPage(value: unknown): value is { items: unknown[]; pageInfo: PageInfo } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { items?: unknown }).items) &&
    typeof (value as { pageInfo?: unknown }).pageInfo === 'object'
  );
}

/**
 * The success envelope of SPEC 2.1: a page becomes `data: items` with `meta: {page, limit, total}`, plus
 * the route's metaFields of the page (a connector history's `statistics`) beside them.
 */
export function successEnvelope(result: unknown, metaFields: string[] = []): SuccessEnvelope {
  if (isPage(result)) {
    const meta: Record<string, unknown> = { ...pageMeta(result.pageInfo) };
    for (const field of metaFields) meta[field] = (result as Record<string, unknown>)[field];
    return { success: true, data: result.items, meta };
  }
  if (metaFields.length === 0 || typeof result !== 'object' || result === null)
    return { success: true, data: result };
  // A route's metaFields (e.g. the portal's dataAsOf) describe the answer: they go to meta.
  const data: Record<string, unknown> = { ...(result as Record<string, unknown>) };
  const meta: Record<string, unknown> = {};
  for (const field of metaFields) {
    meta[field] = data[field];
    delete data[field];
  }
  return { success: true, data, meta };
}
