import { GraphQLDateTime, GraphQLUUID } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
import { AlertComment, SecurityAlert } from './alert.entity.js';
import { AlertSeverity, AlertStatus, HIGH_TARGET_HOURS, MEDIUM_TARGET_HOURS } from './alert.enums.js';
import { ALERT_MAX_CATEGORIES_LISTED } from '../http/list-bounds.js';
import './alert.graphql-enums.js';

export const SecurityAlertPage = PageOf(SecurityAlert, 'SecurityAlert');
export const AlertCommentPage = PageOf(AlertComment, 'AlertComment');

/** Filters of GET /api/security/alerts; several values of one filter match any of them. */
@InputType({ description: 'Alert filters; each list matches any of its values, filters combine with AND' })
export class AlertFilter {
  @Field(() => [AlertSeverity], { nullable: true })
  severity?: AlertSeverity[] | null;

  @Field(() => [AlertStatus], { nullable: true })
  status?: AlertStatus[] | null;

  @Field(() => [String], { nullable: true, description: 'Categories, as the alerts spell them' })
  category?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Sources, as the alerts spell them' })
  source?: string[] | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Member ids, or "unassigned" for alerts assigned to nobody',
  })
  assignedTo?: string[] | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Raised at or after' })
  createdFrom?: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'Raised before' })
  createdTo?: Date | null;

  @Field(() => String, { nullable: true, description: 'Part of the title or the affected entity' })
  search?: string | null;
}

/** PATCH /api/security/alerts/:id: a status move and/or an assignment. */
@InputType({ description: 'A status move (DECISIONS state machine) and/or an assignment' })
export class UpdateAlertInput {
  @Field(() => AlertStatus, { nullable: true })
  status?: AlertStatus | null;

  @Field(() => GraphQLUUID, {
    nullable: true,
    description: 'A member of the organization; null unassigns; absent leaves the assignment',
  })
  assignedToId?: string | null;
}

/** The longest investigation note (after trimming; an empty one is refused too). */
export const MAX_COMMENT_LENGTH = 4000;
/** Notes one alert may hold (issue #32 item 3): the next one is 409. Bounds what any read of them costs. */
export const MAX_COMMENTS_PER_ALERT = 500;

@InputType()
export class AlertCommentInput {
  @Field({ description: `1 to ${MAX_COMMENT_LENGTH} characters` })
  text!: string;
}

@ObjectType()
export class SeverityCount {
  @Field(() => AlertSeverity)
  severity!: AlertSeverity;

  @Field(() => Int)
  count!: number;
}

@ObjectType()
export class StatusCount {
  @Field(() => AlertStatus)
  status!: AlertStatus;

  @Field(() => Int)
  count!: number;
}

@ObjectType()
export class CategoryCount {
  @Field()
  category!: string;

  @Field(() => Int)
  count!: number;
}

/** "1 hour", "24 hours". */
const hours = (n: number) => `${n} ${n === 1 ? 'hour' : 'hours'}`;

/** SPEC 8.3 "Alert investigation targets: High within 1 hour; Medium within 24 hours". */
@ObjectType({ description: 'Open alerts past their investigation target (SPEC 8.3)' })
export class OverdueAlerts {
  @Field(() => Int, {
    description: `Open (New or In Progress) High alerts raised more than ${hours(HIGH_TARGET_HOURS)} ago`,
  })
  high!: number;

  @Field(() => Int, { description: `Open Medium alerts raised more than ${hours(MEDIUM_TARGET_HOURS)} ago` })
  medium!: number;

  @Field(() => Int)
  total!: number;

  @Field(() => Int)
  highTargetHours!: number;

  @Field(() => Int)
  mediumTargetHours!: number;
}

@ObjectType({ description: 'Alert counts of a tenant' })
export class AlertStatistics {
  @Field(() => Int)
  total!: number;

  @Field(() => Int, { description: 'New or In Progress' })
  open!: number;

  @Field(() => [SeverityCount], { description: 'Every severity, High first (zeros included)' })
  bySeverity!: SeverityCount[];

  @Field(() => [CategoryCount], {
    description: `Categories present, most alerts first: the first ${ALERT_MAX_CATEGORIES_LISTED} (categoryCount: all)`,
  })
  byCategory!: CategoryCount[];

  @Field(() => Int, { description: 'Categories present in all' })
  categoryCount!: number;

  @Field(() => [StatusCount], { description: 'Every status (zeros included)' })
  byStatus!: StatusCount[];

  @Field(() => OverdueAlerts)
  overdue!: OverdueAlerts;

  @Field(() => GraphQLDateTime, { description: 'The time the overdue counts were computed at' })
  computedAt!: Date;
}
