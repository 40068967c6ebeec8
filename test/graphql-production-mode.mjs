/**
 * Loads graphql-js into each test file's registry as the server runs it in production. graphql-js picks its
 * `instanceOf` when it is loaded: unless NODE_ENV is "production", every failed type check (isListType,
 * isNonNullType, ... thousands per request and per schema build) also looks for a second copy of graphql loaded
 * from another realm, to explain a confusing error. That check was about 4% of the tests' CPU, and Jest loads one
 * graphql per file. NODE_ENV is back to "test" before any test code runs (the app reads it: log level).
 */
const nodeEnv = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
try {
  await import('graphql');
} finally {
  process.env.NODE_ENV = nodeEnv;
}
