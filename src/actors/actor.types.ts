import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';

/** Who did something, as the audit fields show it. The values are the same on REST and GraphQL. */
export enum ActorType {
  API_KEY = 'API_KEY',
  MEMBER = 'MEMBER',
  SYSTEM = 'SYSTEM',
  UPSTREAM = 'UPSTREAM',
  UNKNOWN = 'UNKNOWN',
}

registerEnumType(ActorType, {
  name: 'ActorType',
  description: 'What kind of principal acted',
  valuesConfig: {
    API_KEY: { description: 'An API key of the organization (a revoked key keeps its name)' },
    MEMBER: {
      description: 'A member signed in through an OAuth client (an access token acts for its member)',
    },
    SYSTEM: { description: 'A job of this service, such as the tenant sync' },
    UPSTREAM: { description: 'A name recorded by the upstream cloud; not one of our principals' },
    UNKNOWN: {
      description:
        'A credential that no longer exists (a purged access token, a deleted member) or that this organization cannot see',
    },
  },
});

/**
 * The readable form of a stored principal string (`api_key:<id>`, `member:<id>:<client id>`, legacy `access_token:<id>`, `system:<job>`, or a
 * name from the cloud). Rows keep storing the string; ActorResolver derives this at read time.
 */
@ObjectType({
  description: 'Who did something: an API key, a member, a job of this service, or a name from the cloud',
})
export class Actor {
  @Field(() => ActorType)
  type!: ActorType;

  @Field(() => ID, {
    nullable: true,
    description:
      'The API key id, the member id, or the job name (e.g. tenant-sync); null for UPSTREAM and UNKNOWN',
  })
  id!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "The API key's name, the member's email, a readable job name (e.g. Tenant sync), or the cloud's name; null for UNKNOWN",
  })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'MEMBER only: the member’s sign-in email' })
  email!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'MEMBER only: the OAuth client the member acted through',
  })
  oauthClientName!: string | null;
}
