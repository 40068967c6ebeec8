export { defineLoader, Loaders, type LoaderDefinition } from './request-context.js';

/** Groups rows by a key, in the order of `keys`: the usual last step of a batch function. */
export function groupByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const groups = new Map<K, V[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key) ?? []);
}
