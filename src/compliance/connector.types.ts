import { GraphQLDateTime, GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageInfo, PageOf, type Page } from '../core/pagination.js';
import { ConnectorRun } from './connector-run.entity.js';
import { ComplianceConnector } from './connector.entity.js';
import {
  ConnectorAction,
  ConnectorCategory,
  ConnectorHealth,
  ConnectorRunStatus,
  ConnectorStatus,
  UnmatchedHandling,
  UserMappingStrategy,
} from './connector.enums.js';
import { DEFAULT_SCHEDULE_HOURS, MAX_SCHEDULE_HOURS, MIN_SCHEDULE_HOURS } from './connector-catalog.js';
import './connector.graphql-enums.js';

export const ComplianceConnectorPage = PageOf(ComplianceConnector, 'ComplianceConnector');

@InputType()
export class UserMappingEntryInput {
  @Field()
  sourceIdentity!: string;

  @Field()
  userPrincipalName!: string;
}

@InputType({ description: 'How source identities map to tenant users' })
export class UserMappingInput {
  @Field(() => UserMappingStrategy)
  strategy!: UserMappingStrategy;

  @Field(() => [UserMappingEntryInput], { nullable: true, description: 'Mapping table: the pairs' })
  mappings?: UserMappingEntryInput[];

  @Field(() => UnmatchedHandling, { nullable: true, description: 'Default Skip' })
  unmatched?: UnmatchedHandling;

  @Field(() => String, { nullable: true, description: 'Import to fallback mailbox: its address' })
  fallbackMailbox?: string;
}

@InputType({ description: 'A new connector' })
export class CreateConnectorInput {
  @Field()
  name!: string;

  @Field(() => ConnectorCategory)
  category!: ConnectorCategory;

  @Field()
  sourceType!: string;

  @Field(() => GraphQLJSONObject, {
    description: 'The source type’s credential fields (strings); never returned',
  })
  credentials!: Record<string, unknown>;

  @Field(() => UserMappingInput, { nullable: true, description: 'Default: by email, unmatched skipped' })
  userMapping?: UserMappingInput;

  @Field(() => Int, {
    nullable: true,
    description: `Hours between imports, ${MIN_SCHEDULE_HOURS} to ${MAX_SCHEDULE_HOURS} (default ${DEFAULT_SCHEDULE_HOURS})`,
  })
  scheduleHours?: number;
}

@InputType({ description: 'Pause, resume or reconfigure (only the given fields change)' })
export class UpdateConnectorInput {
  @Field(() => ConnectorAction, { nullable: true })
  action?: ConnectorAction;

  @Field({ nullable: true })
  name?: string;

  @Field({ nullable: true })
  sourceType?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Replaces every credential field' })
  credentials?: Record<string, unknown>;

  @Field(() => UserMappingInput, { nullable: true })
  userMapping?: UserMappingInput;

  @Field(() => Int, { nullable: true })
  scheduleHours?: number;
}

/**
 * A connector's import statistics (SPEC 4.2 "import history and statistics"): computed once, by
 * connectorStatistics (connector-statistics.ts), for both the status report and the history page.
 */
@ObjectType({ description: 'Import statistics of a connector: every run so far' })
export class ConnectorStatistics {
  @Field(() => Int, { description: 'Runs so far (queued and running ones included)' })
  runs!: number;

  @Field(() => Int)
  failedRuns!: number;

  @Field(() => Int, { description: 'Items imported by every run so far' })
  itemsImported!: number;

  @Field(() => Int, { description: 'Items that could not be imported, by every run so far' })
  errorCount!: number;

  @Field(() => GraphQLDateTime, { nullable: true })
  lastImportAt!: Date | null;

  @Field(() => ConnectorRunStatus, { nullable: true })
  lastRunStatus!: ConnectorRunStatus | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  lastRunFinishedAt!: Date | null;
}

/** The history: a page of runs, the latest first, with the connector's statistics over every run. */
@ObjectType({ description: 'Import runs of a connector, with its statistics' })
export class ConnectorRunPage implements Page<ConnectorRun> {
  @Field(() => [ConnectorRun])
  items!: ConnectorRun[];

  @Field(() => PageInfo)
  pageInfo!: PageInfo;

  @Field(() => ConnectorStatistics, { description: 'Over every run, not only this page' })
  statistics!: ConnectorStatistics;
}

/** The statistics plus where the connector stands (its fields keep the flat shape clients read). */
@ObjectType({ description: 'Connector health and import status' })
export class ConnectorStatusReport extends ConnectorStatistics {
  @Field()
  connectorId!: string;

  @Field(() => ConnectorStatus)
  status!: ConnectorStatus;

  @Field(() => ConnectorHealth)
  health!: ConnectorHealth;

  @Field(() => String, { nullable: true })
  configurationError!: string | null;

  @Field(() => Int)
  consecutiveFailures!: number;

  @Field(() => GraphQLDateTime, { nullable: true })
  nextRunAt!: Date | null;
}
