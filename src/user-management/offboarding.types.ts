import { IsBoolean, IsOptional, IsString, MaxLength } from '../core/perf/class-validator-rules.js';
import { GraphQLUUID } from 'graphql-scalars';
import { Field, InputType } from 'type-graphql';

export const MAX_AUTO_REPLY_LENGTH = 4000;

@InputType({ description: 'What an offboarding does (issue #14 item 5; docs/user-management.md)' })
export class OffboardUserInput {
  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'Keeps the mail without a license',
  })
  @IsOptional()
  @IsBoolean()
  convertMailboxToShared?: boolean | null;

  @Field(() => GraphQLUUID, { nullable: true, description: 'A user given full access to the shared mailbox' })
  @IsOptional()
  delegateMailboxTo?: string | null;

  @Field(() => String, { nullable: true, description: 'The automatic reply to every sender' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_AUTO_REPLY_LENGTH, { message: `must be at most ${MAX_AUTO_REPLY_LENGTH} characters long` })
  autoReplyMessage?: string | null;

  @Field(() => String, {
    nullable: true,
    description: '"manager" or the id of a user of the tenant who receives the files; left out: files stay',
  })
  @IsOptional()
  @IsString()
  transferFilesTo?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: true,
    description: 'Only together with convertMailboxToShared (or the mail would be lost)',
  })
  @IsOptional()
  @IsBoolean()
  removeLicenses?: boolean | null;

  @Field(() => Boolean, { nullable: true, defaultValue: true })
  @IsOptional()
  @IsBoolean()
  removeFromGroups?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    defaultValue: false,
    description: 'Soft-deletes the user at the end (a deletion: Admin API key)',
  })
  @IsOptional()
  @IsBoolean()
  deleteUser?: boolean | null;
}
