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

export default TestEnvironment;
