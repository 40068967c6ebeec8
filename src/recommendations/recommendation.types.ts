import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { PageArgs, PageOf } from '../core/pagination.js';
import {
  ApplyOperationStatus,
  ApplyOutcome,
  RecommendationCategory,
  RecommendationSeverity,
  RecommendationStatus,
} from './recommendation.enums.js';
import './recommendation.graphql-enums.js';

@ObjectType({ description: 'A recommendation in one affected tenant' })
export class RecommendationTenantState {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => RecommendationStatus)
  status!: RecommendationStatus;

  @Field({ description: 'The cloud can apply it in this tenant (Fix Now); else follow the guide' })
  applySupported!: boolean;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'When a snooze ends (the status becomes Open)',
  })
  snoozedUntil!: Date | null;

  @Field(() => String, { nullable: true })
  dismissReason!: string | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  statusChangedAt!: Date | null;

  @Field(() => Actor, {
    nullable: true,
    description: 'Who changed the status last: an API key, a member, or a job (e.g. Recommendation apply)',
  })
  statusChangedBy!: string | null;
}

@ObjectType({ description: 'The tenants a recommendation affects (those not meeting it), within the filter' })
export class AffectedTenants {
  @Field(() => Int)
  count!: number;

  @Field(() => [ID])
  tenantIds!: string[];
}

@ObjectType({ description: 'A security recommendation across the tenants of the organization (SPEC 2.6)' })
export class SecurityRecommendation {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field(() => RecommendationSeverity)
  severity!: RecommendationSeverity;

  @Field(() => RecommendationCategory)
  category!: RecommendationCategory;

  @Field(() => Int, { description: 'Secure-score points a tenant gains by meeting it' })
  scoreImpact!: number;

  @Field()
  implementationGuide!: string;

  @Field()
  riskAssessment!: string;

  // A recommendation that affects no tenant (every tenant asked about meets it) has nothing Open: null, not "Open".
  @Field(() => RecommendationStatus, {
    nullable: true,
    description:
      'Over the affected tenants: Open if any is Open, else In Progress, else Snoozed, else Dismissed; null when it affects no tenant (affectedTenants.count 0: every tenant asked about meets it)',
  })
  status!: RecommendationStatus | null;

  @Field(() => AffectedTenants)
  affectedTenants!: AffectedTenants;

  @Field(() => [RecommendationTenantState], { description: 'Each affected tenant, by tenant id' })
  tenants!: RecommendationTenantState[];
}

export const SecurityRecommendationPage = PageOf(SecurityRecommendation, 'SecurityRecommendation');

/** SPEC 4.3 list filters; strings as the spec shows them ("critical", "identity", "open"), case-insensitive. */
@ArgsType()
export class RecommendationListArgs extends PageArgs {
  @Field(() => [GraphQLUUID], { nullable: true })
  tenantIds?: string[];

  @Field(() => [String], { nullable: true, description: 'critical, high, medium, low' })
  severity?: string[];

  @Field(() => String, {
    nullable: true,
    description: 'A category or its short form: Identity, Data, Email, Device, Threat, Audit',
  })
  category?: string;

  @Field(() => String, { nullable: true, description: 'open, in progress, dismissed, snoozed' })
  status?: string;

  @Field(() => GraphQLUUID, { nullable: true, description: 'Only tenants of this tenant group' })
  tenantGroupId?: string;
}

@ObjectType({ description: 'One tenant of an apply operation' })
export class RecommendationApplyTenantResult {
  @Field(() => ID)
  tenantId!: string;

  @Field(() => ApplyOutcome)
  outcome!: ApplyOutcome;

  @Field(() => String, { nullable: true, description: 'Why it failed' })
  reason!: string | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  finishedAt!: Date | null;

  @Field(() => Int, {
    description:
      'Milliseconds the tenant\'s cloud calls waited for its call budget (Microsoft\'s per-tenant limits; docs/microsoft365.md "Throttling")',
  })
  cloudWaitMs!: number;
}

@ObjectType({ description: 'Counts of the per-tenant outcomes' })
export class RecommendationApplyCounts {
  @Field(() => Int) total!: number;
  @Field(() => Int) pending!: number;
  @Field(() => Int) wouldApply!: number;
  @Field(() => Int) applied!: number;
  @Field(() => Int) alreadyCompliant!: number;
  @Field(() => Int) notSupported!: number;
  @Field(() => Int) failed!: number;
}

@ObjectType({ description: 'Applying a recommendation to tenants: a job (or, for a dry run, a preview)' })
export class RecommendationApplyOperationView {
  @Field(() => ID)
  id!: string;

  @Field()
  recommendationId!: string;

  @Field()
  dryRun!: boolean;

  @Field()
  notifyAdmins!: boolean;

  @Field(() => ApplyOperationStatus)
  status!: ApplyOperationStatus;

  @Field(() => Int, { description: '0..100' })
  progress!: number;

  @Field(() => RecommendationApplyCounts)
  counts!: RecommendationApplyCounts;

  @Field(() => [RecommendationApplyTenantResult])
  results!: RecommendationApplyTenantResult[];

  @Field(() => String, { nullable: true })
  failureReason!: string | null;

  @Field(() => GraphQLDateTime)
  createdAt!: Date;

  @Field(() => GraphQLDateTime, { nullable: true })
  finishedAt!: Date | null;
}
