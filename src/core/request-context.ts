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
}
