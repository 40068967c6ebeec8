/**
 * `npm start`: one Node process that builds when needed (build-if-stale.mjs) and then runs the server
 * (dist/src/main.js), with Node's on-disk compile cache on. Issue #11 item 6, restart ≤ 3 s: a restart
 * spends most of its time loading modules (MikroORM, Apollo, graphql, the server's own ~600 files); with
 * the cache, a restart reuses the bytecode V8 compiled the time before instead of compiling it again, and one
 * Node start-up is saved by checking the build in this process rather than in a separate one.
 * The cache lives in the OS temp folder (Node's default); Node checks each entry against its source, so an
 * edited or rebuilt file is compiled afresh. Plain JavaScript on purpose: it runs before anything is built.
 */
import module from 'node:module';

module.enableCompileCache?.();
await import('./build-if-stale.mjs');
await import('../dist/src/main.js');
