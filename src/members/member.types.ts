import { Field, InputType } from 'type-graphql';
import { MemberRole } from './member.entity.js';
import { MIN_PASSWORD_LENGTH } from './member.password.js';

@InputType({ description: 'A person who signs in to authorize OAuth clients of this organization' })
export class CreateMemberInput {
  @Field({ description: 'Sign-in name; stored in lower case, unique in the organization' })
  email!: string;

  @Field({ description: `At least ${MIN_PASSWORD_LENGTH} characters; stored as a salted scrypt hash` })
  password!: string;

  @Field(() => MemberRole, { nullable: true, description: 'Default: MEMBER' })
  role?: MemberRole;
}

@InputType({ description: "A change of a member's role" })
export class UpdateMemberInput {
  @Field(() => MemberRole, {
    description:
      'The new role. Making or unmaking an owner needs an owner (OAuth) or the CLI; the last owner stays an owner',
  })
  role!: MemberRole;
}
