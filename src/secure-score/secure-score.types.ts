import { GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Max, Min } from '../core/perf/class-validator-rules.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import { SecureScoreSource } from './secure-score.enums.js';
import './secure-score.graphql-enums.js';

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

@ObjectType({
  description:
    "A day's score (our daily job's, or Microsoft's daily Secure Score), on the tenant's source's scale",
})
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

@ObjectType({ description: "The average score of tenants like this one (Microsoft's comparison)" })
export class SecureScoreAverage {
  @Field({ description: 'What the tenants compared share: AllTenants, TotalSeats, IndustryTypes…' })
  basis!: string;

  @Field(() => Float, { description: "On Microsoft's points scale, like the tenant's score" })
  averageScore!: number;
}

@ObjectType({ description: 'The secure score of one tenant: now, by category, and its daily history' })
export class TenantSecureScore {
  @Field(() => ID)
  tenantId!: string;

  @Field()
  tenantName!: string;

  @Field(() => SecureScoreSource, {
    description:
      "Whose score and points scale: recommendations (computed from our recommendations) or microsoft365 (Microsoft Secure Score's points, rounded to whole points); compare tenants by percentage",
  })
  source!: SecureScoreSource;

  @Field(() => Int, {
    description:
      'Points of the recommendations the tenant meets, or its Microsoft Secure Score (source microsoft365)',
  })
  score!: number;

  @Field(() => Int, {
    description:
      "Points the tenant could have (dismissed ones not met are left out), or Microsoft's maximum (source microsoft365)",
  })
  maxScore!: number;

  @Field(() => Float, {
    nullable: true,
    description: 'score / maxScore in percent; null before the first sync',
  })
  percentage!: number | null;

  @Field(() => SecureScoreByCategory)
  byCategory!: SecureScoreByCategory;

  @Field(() => [SecureScoreDay], {
    description: "Oldest first, over the last historyDays days; only days on the tenant's current source",
  })
  history!: SecureScoreDay[];

  @Field(() => [SecureScoreAverage], {
    description: 'Microsoft Secure Score: the averages of comparable tenants (empty on our computed scale)',
  })
  averageComparativeScores!: SecureScoreAverage[];
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
