/**
 * The members' enums, plain: member.entity.ts registers them with GraphQL and re-exports them, so that a module
 * needing only an enum (a test, the CLI) loads neither type-graphql nor MikroORM.
 */

/** What a person may do when signing in (docs/oauth.md "Members"). */
export enum MemberRole {
  OWNER = 'owner',
  ADMIN = 'admin',
  MEMBER = 'member',
}
