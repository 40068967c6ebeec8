import type { CloudProvider } from '../../src/cloud/provider.js';

/**
 * A cloud provider whose calls pass through `hook` first (its path: `createUser`, or `forTenant.users.create`
 * with per-tenant clients), so a test can hold a job at an exact cloud call: the hook returns a promise the
 * test resolves when it wants the call to go on (or never, for a run that "died" there).
 */
export function gatedProvider(
  provider: CloudProvider,
  hook: (path: string, args: unknown[]) => void | Promise<void>,
): CloudProvider {
  const wrap = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof property !== 'string') return value;
        const path = prefix ? `${prefix}.${property}` : property;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            const call = () => {
              const result = (value as (...a: unknown[]) => unknown).apply(object, args);
              // Per-tenant clients and their areas are objects: their calls are gated too.
              return result && typeof result === 'object' && !(result instanceof Promise)
                ? wrap(result, path)
                : result;
            };
            const held = hook(path, args);
            return held instanceof Promise ? held.then(call) : call();
          };
        }
        return value && typeof value === 'object' ? wrap(value, path) : value;
      },
    });
  return wrap(provider, '');
}

/** A promise and its resolver: a gate a test opens when it chooses. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
