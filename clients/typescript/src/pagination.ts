import { unwrap, type CallResult } from './errors.js';
import type { components } from './schema.js';

export type PageMeta = components['schemas']['PageMeta'];

/** A list answer: SPEC 2.1's `data` array with `meta {page, limit, total}`. */
export interface Page<Item> {
  data: Item[];
  meta: PageMeta;
}

/**
 * Every item of a list, page after page: `fetchPage(page)` makes the call for one page (keep `limit` the same).
 * Stops after the page that reaches `total`, or at the first empty page. Errors are thrown as ApiError.
 */
export async function* paginate<Item>(
  fetchPage: (page: number) => Promise<CallResult<Page<Item>>>,
): AsyncGenerator<Item, void, undefined> {
  for (let page = 1; ; page++) {
    const body = unwrap(await fetchPage(page));
    yield* body.data;
    if (body.data.length === 0 || page * body.meta.limit >= body.meta.total) return;
  }
}
