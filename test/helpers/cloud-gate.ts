import type { CloudProviders } from '../../src/cloud/cloud-provider.js';

/** The calls that give a client (a partner's provider, a tenant's client): what they give is gated too. */
const CLIENT_FACTORIES = new Set(['forPartner', 'forTenant']);

/**
 * A cloud whose calls pass through `hook` first (its path: `forPartner.forTenant.directory.createUser`), so a
 * test can hold a job at an exact cloud call: the hook returns a promise the test resolves when it wants the
 * call to go on (or never, for a run that "died" there). `after` runs once the call is done at the cloud,
 * before the caller sees its result: holding there is a crash between a cloud write and its save.
 */
/**
 * A promise of any realm: on the jest worker's shared server (shared-suite.ts) the cloud's promises are the
 * server's, which `instanceof Promise` in a test file does not recognise.
 */
function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

export function gatedProvider(
  providers: CloudProviders,
  hook: (path: string, args: unknown[]) => void | Promise<void>,
  after?: (path: string, args: unknown[]) => void | Promise<void>,
): CloudProviders {
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
              if (CLIENT_FACTORIES.has(property))
                return (result as Promise<object>).then((client) => wrap(client, path));
              if (after && isThenable(result))
                return result.then(async (answer: unknown) => {
                  await after(path, args);
                  return answer;
                });
              return result;
            };
            const held = hook(path, args);
            return held instanceof Promise ? held.then(call) : call();
          };
        }
        return value && typeof value === 'object' ? wrap(value, path) : value;
      },
    });
  return wrap(providers, '');
}

/** A promise and its resolver: a gate a test opens when it chooses. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
