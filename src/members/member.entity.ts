import { randomUUID } from 'node:crypto';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { MemberRole } from './member.enums.js';

export { MemberRole };
registerEnumType(MemberRole, {
  name: 'MemberRole',
  description:
    'owner and admin may grant every scope, including admin; member may grant every scope but admin',
});

/**
 * A person of an organization who signs in on the OAuth consent page. A member belongs to the whole
 * organization (both environments): the OAuth client a member signs in to decides the environment.
 * Not a ScopedEntity (that needs an environment), so every read names the organization itself.
 */
@ObjectType({ description: 'A person of the organization who signs in (OAuth authorization code flow)' })
@Entity({ tableName: 'members' })
@Unique({ properties: ['organizationId', 'email'] })
@Index({ properties: ['organizationId', 'createdAt', 'id'] })
export class Member {
  [OptionalProps]?: 'createdAt' | 'lastSignInAt';

  @Field(() => ID)
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'uuid', index: true })
  organizationId!: string;

  @Field({ description: 'Sign-in name, stored in lower case' })
  @Property({ type: 'text' })
  email!: string;

  @Field(() => MemberRole)
  @Enum({ items: () => MemberRole })
  role!: MemberRole;

  /** scrypt with its parameters and salt (src/members/member.password.ts); never leaves the server. */
  @Property({ type: 'text' })
  passwordHash!: string;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null = null;

  constructor(fields: {
    organizationId: string;
    email: string;
    role: MemberRole;
    passwordHash: string;
    createdAt: Date;
  }) {
    Object.assign(this, fields);
  }
}
