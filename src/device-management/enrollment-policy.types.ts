import { GraphQLDateTime } from 'graphql-scalars';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../core/pagination.js';
import { BlockedEnrollmentAttempt } from './blocked-enrollment.entity.js';
import { EnrollmentRestriction } from './enrollment-policy.entity.js';
import { BlockReason, EnrollmentPlatform } from './enrollment.enums.js';

export const EnrollmentRestrictionPage = PageOf(EnrollmentRestriction, 'EnrollmentRestriction');

export const BlockedEnrollmentAttemptPage = PageOf(BlockedEnrollmentAttempt, 'BlockedEnrollmentAttempt');

@ArgsType()
export class BlockedAttemptArgs extends PageArgs {
  @Field(() => BlockReason, { nullable: true })
  reason?: BlockReason | null;

  @Field(() => EnrollmentPlatform, { nullable: true })
  platform?: EnrollmentPlatform | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Attempts at or after this time' })
  from?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Attempts at or before this time' })
  to?: Date | null;
}

@ObjectType()
export class DecidingPolicy {
  @Field(() => ID) id!: string;
  @Field() name!: string;
}

@ObjectType({ description: 'What the restrictions decide for an enrollment attempt (nothing is recorded)' })
export class EnrollmentDecisionResult {
  @Field() allowed!: boolean;
  @Field(() => BlockReason, { nullable: true }) reason!: BlockReason | null;
  @Field() detail!: string;
  @Field(() => DecidingPolicy, {
    nullable: true,
    description: 'The policy that blocked, or the limit policy that allowed',
  })
  decidedBy!: DecidingPolicy | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The device type restriction that applied (none: all allowed)',
  })
  deviceTypePolicyId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The device limit restriction that applied' })
  deviceLimitPolicyId!: string | null;
}
