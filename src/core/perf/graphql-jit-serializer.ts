/**
 * Written against graphql-jit 0.8.9 (checked at start-up: ./versions.ts).
 *
 * Why: graphql-jit's execution module requires fast-json-stringify at load, for the `customJSONSerializer`
 * option we never set; with it come ajv, ajv-formats, fast-uri and their kin, ~1.1 MiB of heap a server holds
 * for nothing (issue #31 goal 4). Before graphql-jit is loaded, Node's module cache is given, under
 * fast-json-stringify's own file, a function that loads the real one on its first call and hands it the call:
 * graphql-jit works unchanged, and a `customJSONSerializer` set one day would still serialize (test/structure/
 * lazy-modules.test.ts proves both).
 *
 * The internals: graphql-jit's dist is CommonJS (its ESM entry imports `./execution.js`), and its only use of
 * fast-json-stringify is calling its default export with a JSON schema. Every graphql-jit import of the
 * product goes through this module, which loads graphql-jit only after the cache entry is in place.
 */
import { createRequire, Module } from 'node:module';
import type * as Jit from 'graphql-jit';

const load = createRequire(import.meta.url);
// fast-json-stringify as graphql-jit's own require resolves it (the copy nested under it, if ever one is).
const jitRequire = createRequire(load.resolve('graphql-jit'));
const serializerFile = jitRequire.resolve('fast-json-stringify');

type Serializer = (schema: unknown, options?: unknown) => (value: unknown) => string;

if (!load.cache[serializerFile]) {
  const onFirstUse = new Module(serializerFile);
  onFirstUse.filename = serializerFile;
  onFirstUse.loaded = true;
  onFirstUse.exports = function fastJsonOnFirstUse(schema: unknown, options?: unknown) {
    // Out of the cache first, so this require loads the real module (which takes the cache entry for good).
    if (load.cache[serializerFile] === onFirstUse) delete load.cache[serializerFile];
    return (jitRequire('fast-json-stringify') as Serializer)(schema, options);
  };
  load.cache[serializerFile] = onFirstUse;
}

const jit = load('graphql-jit') as typeof Jit;
export const compileQuery = jit.compileQuery;
export const isCompiledQuery = jit.isCompiledQuery;
