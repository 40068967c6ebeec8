import type DataLoader from 'dataloader';
import type { RequestContext } from '../context.js';

/**
 * A loader is declared once, beside its feature, with `defineLoader`; each request gets its own
 * instance on first use (`ctx.loaders.get(def)`), so batching and caching never cross requests.
 */
export interface LoaderDefinition<K, V> {
  readonly name: string;
  create(ctx: RequestContext): DataLoader<K, V>;
}

export function defineLoader<K, V>(
  name: string,
  create: (ctx: RequestContext) => DataLoader<K, V>,
): LoaderDefinition<K, V> {
  return { name, create };
}

export class Loaders {
  private readonly instances = new Map<LoaderDefinition<unknown, unknown>, DataLoader<unknown, unknown>>();

  constructor(private readonly ctx: () => RequestContext) {}

  get<K, V>(definition: LoaderDefinition<K, V>): DataLoader<K, V> {
    let loader = this.instances.get(definition as LoaderDefinition<unknown, unknown>);
    if (!loader) {
      loader = definition.create(this.ctx()) as DataLoader<unknown, unknown>;
      this.instances.set(definition as LoaderDefinition<unknown, unknown>, loader);
    }
    return loader as DataLoader<K, V>;
  }
}

/** Groups rows by a key, in the order of `keys`: the usual last step of a batch function. */
export function groupByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const groups = new Map<K, V[]>(keys.map((key) => [key, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((key) => groups.get(key) ?? []);
}
