import type DataLoader from 'dataloader';
import type { ServiceContext } from './service-context.js';
import type { Viewer } from './viewer.js';

/** The context of one GraphQL operation, whether it came in on /graphql or through the REST adapter. */
export interface RequestContext extends ServiceContext {
  viewer: Viewer;
  requestId: string;
  loaders: Loaders;
  /**
   * The root fields whose requirements (their own `@RequirePermission` and their arguments' stricter ones) were
   * checked before the operation ran, by whoever checked them before any input was looked at: the REST handler
   * (rest-adapter/handler.ts) and the GraphQL pre-check (src/http/operation-requirements.ts). Those fields'
   * resolvers do not check again (core/authorize.ts); anything else checks itself (an execution without a
   * pre-check: a subscription, a test calling graphql-js).
   */
  preAuthorized?: ReadonlySet<string>;
}

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

  private readonly known = new Map<LoaderDefinition<unknown, unknown>, Map<unknown, unknown>>();

  /**
   * Values a statement already brought (a page read with its related ids): the loader answers them from its
   * cache, and `knownValue` returns them synchronously, which spares a list's field one promise per item (a
   * promise from the loader's cache costs graphql-jit and DataLoader several objects and microtasks per item;
   * issue #31). No loader of this code base is ever cleared; one that is must forget its known values too.
   */
  primeKnown<K, V>(definition: LoaderDefinition<K, V>, values: ReadonlyMap<K, V>): void {
    const loader = this.get(definition);
    for (const [key, value] of values) loader.prime(key, value);
    const known = this.known.get(definition as LoaderDefinition<unknown, unknown>);
    if (!known) this.known.set(definition as LoaderDefinition<unknown, unknown>, new Map(values));
    else for (const [key, value] of values) if (!known.has(key)) known.set(key, value);
  }

  /** A value given to `primeKnown`, or undefined (then `get(definition).load(key)` reads it). */
  knownValue<K, V>(definition: LoaderDefinition<K, V>, key: K): V | undefined {
    return this.known.get(definition as LoaderDefinition<unknown, unknown>)?.get(key) as V | undefined;
  }
}
