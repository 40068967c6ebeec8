/**
 * The tests' Jest environment: Node's, with V8's code cache for the modules Jest compiles.
 *
 * Jest gives every test file a fresh module registry, so a worker compiles the app and its dependencies again for
 * each file it runs (some 1,400 modules; Jest passes no code cache to node:vm). Parsing them again was about a
 * tenth of a file's start. This keeps, per worker process, the code cache V8 produces for each module (by its path
 * and a hash of its source: an edited file is compiled anew) and hands it to the next compilation of the same
 * source. V8 checks every cache it is given and compiles from source when it does not fit, so behaviour cannot
 * change, only the parse work.
 *
 * Plain JavaScript, loaded by Jest itself (like global-setup.mjs); patched once per worker, on node:vm, which is
 * what Jest's runtime calls.
 *
 * It also holds the worker's shared server (test/helpers/shared-server.ts, from dist/): started on the first
 * file that asks (`globalThis.__mspSharedServer()` in the file, test/helpers/shared-suite.ts), kept for the
 * worker's life, stopped when Jest ends the worker (or, in band, by global-teardown.mjs). At each file's end
 * (`teardown`) the server drops what the file left running: its job runner and jobs (SharedServer.endFile).
 * The worker's shared live server (test/helpers/shared-live-server.ts, `globalThis.__mspSharedLiveServer()`) is
 * held the same way; at a file's end it also forgets the file's Graph fake state (SharedLiveServer.endFile).
 * A file's own server (`globalThis.__mspRealmServer(options)`, test/helpers/realm-server.ts) is built in this
 * realm from the same modules, with the file's options and database, and stopped at the file's end at the latest.
 */
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import { TestEnvironment } from 'jest-environment-node';

const PATCHED = Symbol.for('msp-tests.vm-code-cache');

if (!vm[PATCHED]) {
  vm[PATCHED] = true;
  /** Code cache by path and source hash; lives as long as the worker. */
  const cache = new Map();
  const keyOf = (name, source) => `${name}\0${createHash('sha1').update(source).digest('base64')}`;

  // ES modules: the project's files (ts-jest's output) and ESM packages (MikroORM, type-graphql, ...).
  const { SourceTextModule } = vm;
  vm.SourceTextModule = class CodeCachedSourceTextModule extends SourceTextModule {
    constructor(source, options = {}) {
      const key = options.identifier ? keyOf(options.identifier, source) : undefined;
      const cachedData = key && cache.get(key);
      super(source, cachedData ? { ...options, cachedData } : options);
      if (key && !cachedData) cache.set(key, this.createCachedData());
    }
  };

  // CommonJS modules (graphql, express, pg, ...), which Jest wraps and compiles with compileFunction.
  const { compileFunction } = vm;
  vm.compileFunction = function codeCachedCompileFunction(source, params = [], options = {}) {
    const key = options.filename ? keyOf(`${options.filename}\0${params.join(',')}`, source) : undefined;
    const cachedData = key && cache.get(key);
    const compiled = compileFunction(
      source,
      params,
      cachedData ? { ...options, cachedData } : { ...options, produceCachedData: key !== undefined },
    );
    if (key && !cachedData && compiled.cachedData) cache.set(key, compiled.cachedData);
    return compiled;
  };
}

const SHARED_SERVER_MODULE = new URL('../dist/test/helpers/shared-server.js', import.meta.url);
/** The shared live server (Microsoft 365 on the Graph fake, test/helpers/shared-live-server.ts), the same way. */
const SHARED_LIVE_SERVER_MODULE = new URL('../dist/test/helpers/shared-live-server.js', import.meta.url);
/** jest-worker's "end" message to a child (CHILD_MESSAGE_END): the run is over, the worker should exit. */
const CHILD_MESSAGE_END = 2;

/** @type {Promise<import('../dist/test/helpers/shared-server.js').SharedServer> | undefined} */
let sharedServer;
/** @type {Promise<import('../dist/test/helpers/shared-live-server.js').SharedLiveServer> | undefined} */
let sharedLiveServer;

/** A file's own server in this realm (test/helpers/realm-server.ts), the same way. */
const REALM_SERVER_MODULE = new URL('../dist/test/helpers/realm-server.js', import.meta.url);

async function loadAndStartSharedServer(
  moduleUrl = SHARED_SERVER_MODULE,
  start = 'startSharedServer',
  ...args
) {
  // In band, global-setup.mjs loaded dist/'s entities in this process and put their metadata aside: the server's
  // modules are those same instances, so it needs those stores back (Jest took its snapshot of the globals to
  // copy into test files before, so they stay out of the files' contexts).
  const distMetadata = globalThis[Symbol.for('msp-tests.dist-metadata')];
  if (distMetadata) Object.assign(globalThis, distMetadata);
  // graphql-js as production loads it (its instanceOf without the realm diagnostic, as test/graphql-instance-of.cjs
  // gives the files), before the app imports it: this realm loads graphql from node_modules, not through Jest.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await import('graphql');
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  let module;
  try {
    module = await import(moduleUrl.href);
  } catch (error) {
    throw new Error(`The shared test server is not built (${error.message}): run \`npm run build\` first`);
  }
  return module[start](...args);
}

function startSharedServer() {
  sharedServer ??= loadAndStartSharedServer();
  return sharedServer;
}

function startSharedLiveServer() {
  sharedLiveServer ??= loadAndStartSharedServer(SHARED_LIVE_SERVER_MODULE, 'startSharedLiveServer');
  return sharedLiveServer;
}

/** Stops the server if one started; a server that failed to start (its files failed with the reason) is let be. */
async function stopSharedServer() {
  const started = [sharedServer, sharedLiveServer];
  sharedServer = undefined;
  sharedLiveServer = undefined;
  for (const one of started) {
    const server = await one?.catch(() => undefined);
    await server?.stop();
  }
}

const STOP = Symbol.for('msp-tests.stop-shared-server');
if (!globalThis[STOP]) {
  globalThis[STOP] = stopSharedServer;
  // A jest worker exits once nothing holds its event loop; the server's sockets would, so they close at "end".
  if (process.send) {
    const onMessage = (message) => {
      if (!Array.isArray(message) || message[0] !== CHILD_MESSAGE_END) return;
      process.off('message', onMessage);
      stopSharedServer().catch((error) => process.stderr.write(`Stopping the shared server: ${error}\n`));
    };
    process.on('message', onMessage);
  }
}

/** Marks the formatter below, so a file's setup wraps Jest's formatter once. */
const APP_STACKS = Symbol.for('msp-tests.app-stacks-native');
/** Frames Jest maps back to their sources: the files it transformed for the test (test/ and src/ .ts). */
const mappedFrame = (frame) => /\.m?ts$/.test(frame.getFileName() ?? '');

/**
 * Errors the app builds in this realm (the shared and realm servers, from dist/ and node_modules) are formatted
 * by V8's own rule instead of Jest's source-map formatter, which Jest installs in this realm for every file
 * (jest-runner: `sourceMapSupport.install`) and which copies every call site of every stack it formats (a fuzz of
 * thousands of refused requests spent seconds in it; production has no such hook). A stack with a frame of a
 * file Jest transformed (the test, its helpers, an own app's src/) still goes through Jest's, so test failures
 * keep their mapped stacks; a server error reads dist/ paths. Jest also raises this realm's stack trace limit to
 * 100 frames for readable test failures; the test's own realm keeps its 100, the servers here capture
 * production's 10.
 */
function keepAppStacksNative() {
  Error.stackTraceLimit = 10;
  const jestFormat = Error.prepareStackTrace;
  if (typeof jestFormat !== 'function' || jestFormat[APP_STACKS]) return;
  const format = (error, frames) => {
    if (frames.some(mappedFrame)) return jestFormat(error, frames);
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = 'Error';
    }
    return head + frames.map((frame) => `\n    at ${frame}`).join('');
  };
  format[APP_STACKS] = true;
  Error.prepareStackTrace = format;
}

export default class MspTestEnvironment extends TestEnvironment {
  /** Whether this file asked for the shared server. */
  usedSharedServer = false;

  constructor(config, context) {
    super(config, context);
    this.global.__mspSharedServer = () => {
      this.usedSharedServer = true;
      return startSharedServer();
    };
    this.global.__mspSharedLiveServer = () => {
      this.usedSharedLiveServer = true;
      return startSharedLiveServer();
    };
    this.global.__mspRealmServer = (options) => {
      // Kept while it starts: a start that outlives its file (a hook that timed out under load) is stopped at
      // the file's end all the same, instead of holding the worker open with its server and pools.
      const starting = loadAndStartSharedServer(REALM_SERVER_MODULE, 'startRealmServer', options);
      this.realmServers.push(starting);
      return starting;
    };
  }

  /**
   * The file's own servers in this realm (test/helpers/realm-server.ts), as their starts: stopped at its end if
   * it did not (one that failed to start is let be: its file failed with the reason).
   */
  realmServers = [];

  /** Whether this file asked for the shared live server. */
  usedSharedLiveServer = false;

  async setup() {
    await super.setup();
    keepAppStacksNative();
  }

  /** The file is over (its afterAll hooks ran): its jobs stop now, not while the next file loads. */
  async teardown() {
    try {
      // Before the shared servers' endFile: a file's own server may run jobs on its own database, nothing else.
      for (const starting of this.realmServers.splice(0)) {
        const server = await starting.catch(() => undefined);
        await server?.stop();
      }
      for (const [used, started] of [
        [this.usedSharedServer, sharedServer],
        [this.usedSharedLiveServer, sharedLiveServer],
      ]) {
        if (!used) continue;
        const server = await started?.catch(() => undefined);
        await server?.endFile();
      }
    } finally {
      await super.teardown();
    }
  }
}
