/**
 * A test file's own server, built in the jest worker's realm: a TestApp with the file's own options
 * (TestAppOptions: its configuration, a logger, metrics, row-level security off, its own database or a second
 * server on one...) on a fresh database cloned from the template, as `TestApp.start` in the file would make, but
 * from the modules the worker loaded once from dist/ (test/environment.mjs, like the shared server,
 * shared-server.ts). The file then does not evaluate the app's module graph nor build the schema (test-app.ts's
 * `sharedSchema`, built once per worker: the schema is immutable once built and the shared servers already share
 * it); it still opens an ORM, a pool and a listener of its own, on its own database.
 *
 * The file stops it (`app.stop()`); the environment stops any the file left at the file's end, so no server of
 * one file serves or holds the next.
 */
import type { SharedServerHandle } from './shared-server.js';
import { fromTestRealm, handleOf } from './shared-server.js';
import { TestApp, type TestAppOptions } from './test-app.js';

/** What a test file gets of its own server in the worker's realm: the shared server's handle, plus its life. */
export interface RealmServerHandle extends SharedServerHandle {
  /** TestApp's `runJobs`: starts or stops the server's job runner. */
  runJobs(on: boolean): Promise<void>;
  /** TestApp's `connections`: the HTTP server's open sockets. */
  connections(): Promise<number>;
  /** TestApp's `acceptedConnections`: the HTTP server's sockets since it started, closed ones included. */
  acceptedConnections(): Promise<number>;
  /** Stops the server (once; again is a no-op). */
  stop(): Promise<void>;
}

export async function startRealmServer(options: TestAppOptions = {}): Promise<RealmServerHandle> {
  // Dates, arrays and plain objects into this realm (a pino logger, an object of its class, is kept as it is).
  const app = await TestApp.start(fromTestRealm(options) as TestAppOptions);
  let stopping: Promise<void> | undefined;
  return {
    ...handleOf(app),
    runJobs: (on) => app.runJobs(on),
    connections: () => app.connections(),
    acceptedConnections: async () => app.acceptedConnections(),
    stop: () => (stopping ??= app.stop()),
  };
}
