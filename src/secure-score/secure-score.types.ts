import { GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Max, Min } from 'class-validator';
import { PageArgs, PageOf } from '../core/pagination.js';

@ObjectType({ description: 'Points earned and possible' })
export class ScorePoints {
  @Field(() => Int)
  score!: number;

  @Field(() => Int)
  maxScore!: number;
}

@ObjectType({ description: 'Points per recommendation category (SPEC 2.6)' })
export class SecureScoreByCategory {
  @Field(() => ScorePoints) identityAndAccess!: ScorePoints;
  @Field(() => ScorePoints) dataProtection!: ScorePoints;
  @Field(() => ScorePoints) emailSecurity!: ScorePoints;
  @Field(() => ScorePoints) deviceSecurity!: ScorePoints;
  @Field(() => ScorePoints) threatProtection!: ScorePoints;
  @Field(() => ScorePoints) auditAndCompliance!: ScorePoints;
}

@ObjectType({ description: "A day's recorded score (the daily job), for a trend" })
export class SecureScoreDay {
  @Field({ description: 'YYYY-MM-DD (UTC)' })
  day!: string;

  @Field(() => Int)
  score!: number;

  @Field(() => Int)
  maxScore!: number;

  @Field(() => Float, { nullable: true })
  percentage!: number | null;
}

@ObjectType({ description: 'The secure score of one tenant: now, by category, and its daily history' })
export class TenantSecureScore {
  @Field(() => ID)
  tenantId!: string;

  @Field()
  tenantName!: string;

  @Field(() => Int, { description: 'Points of the recommendations the tenant meets' })
  score!: number;

  @Field(() => Int, { description: 'Points the tenant could have (dismissed ones not met are left out)' })
  maxScore!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'score / maxScore in percent; null before the first sync',
  })
  percentage!: number | null;

  @Field(() => SecureScoreByCategory)
  byCategory!: SecureScoreByCategory;

  @Field(() => [SecureScoreDay], { description: 'Oldest first, over the last historyDays days' })
  history!: SecureScoreDay[];
}

export const TenantSecureScorePage = PageOf(TenantSecureScore, 'TenantSecureScore');

export const DEFAULT_HISTORY_DAYS = 30;
export const MAX_HISTORY_DAYS = 90;

@ArgsType()
export class SecureScoreArgs extends PageArgs {
  @Field(() => [GraphQLUUID], { nullable: true, description: 'Only these tenants (default: every tenant)' })
  tenantIds?: string[];

  @Field(() => Int, {
    defaultValue: DEFAULT_HISTORY_DAYS,
    description: `Days of history, 1 to ${MAX_HISTORY_DAYS}`,
  })
  @Min(1)
  @Max(MAX_HISTORY_DAYS)
  historyDays: number = DEFAULT_HISTORY_DAYS;
}
