import type { BoundServerSide } from './server-side.js';
import { SharedApp, type TestServer } from './shared-suite.js';

type Loose = (...args: unknown[]) => Promise<unknown>;

/**
 * Runs one of server-side.ts's operations for `app`: on the shared server when `app` is the worker's
 * (SharedApp), else here with the file's own TestApp (server-side.ts is loaded only then, so a file on the
 * shared server does not evaluate the app's modules).
 */
export async function onServer<K extends keyof BoundServerSide>(
  app: TestServer,
  name: K,
  ...rest: Parameters<BoundServerSide[K]>
): Promise<Awaited<ReturnType<BoundServerSide[K]>>> {
  if (app instanceof SharedApp) {
    return (await (app.serverSide[name] as unknown as Loose)(...rest)) as Awaited<
      ReturnType<BoundServerSide[K]>
    >;
  }
  const { bindServerSide } = await import('./server-side.js');
  return (await (bindServerSide(app)[name] as unknown as Loose)(...rest)) as Awaited<
    ReturnType<BoundServerSide[K]>
  >;
}
