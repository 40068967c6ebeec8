/**
 * A list as the cloud gives it: page after page (Graph's `@odata.nextLink`), each item of the iterable one
 * page. Nothing is read before the first page is asked for; there is no offset and no total, which the
 * cloud does not have. A page that fails rejects the iteration with a CloudError.
 */
export type CloudPages<T> = AsyncIterable<readonly T[]>;

/** Every item of every page, in order: for a caller that needs the whole list (a sync's reconcile). */
export async function allPages<T>(pages: CloudPages<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}
