/**
 * Plain: core/scope.ts registers it with GraphQL and re-exports it, so that a module needing only the enum (a
 * test, the CLI) loads neither type-graphql nor MikroORM.
 */

/** Each organization has a live and a sandbox environment; data never crosses them. */
export enum Environment {
  LIVE = 'live',
  SANDBOX = 'sandbox',
}
