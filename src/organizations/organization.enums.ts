/**
 * The organization's enums, plain: organization.entity.ts registers them with GraphQL and re-exports them, so
 * that a module needing only an enum (a test, the CLI) loads neither type-graphql nor MikroORM.
 */
export enum Plan {
  STARTER = 'starter',
  GROWTH = 'growth',
  SCALE = 'scale',
  CUSTOM = 'custom',
}
