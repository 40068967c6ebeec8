'use strict';
/**
 * graphql-js's `jsutils/instanceOf` as it is when NODE_ENV is "production" (what the server runs), put in place of
 * the library's own in each test file's registry by jest.config.ts's moduleNameMapper.
 *
 * graphql-js picks its `instanceOf` when that module is loaded: unless NODE_ENV is "production", every failed type
 * check (isListType, isNonNullType, ... thousands per request and per schema build) also looks for a second copy
 * of graphql loaded from another realm, to explain a confusing error. That check was about 4% of the tests' CPU.
 * It used to be avoided by a setup file that loaded graphql (about 130 modules) with NODE_ENV set to "production"
 * into every file's registry, about 50 ms of CPU even for the files that never load graphql (most files on the
 * shared server reach it only over HTTP). This way graphql is loaded only by the files that use it, and as
 * production has it; NODE_ENV stays "test" (the app reads it: log level). The body is graphql 16's production
 * branch; graphql-js reads NODE_ENV nowhere else.
 */
Object.defineProperty(exports, '__esModule', { value: true });
exports.instanceOf = function instanceOf(value, constructor) {
  return value instanceof constructor;
};
