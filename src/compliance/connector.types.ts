import { GraphQLDateTime, GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../core/pagination.js';
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

export const ComplianceConnectorPage = PageOf(ComplianceConnector, 'ComplianceConnector');
export const ConnectorRunPage = PageOf(ConnectorRun, 'ConnectorRun');

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

  @Field(() => Int, { nullable: true, description: 'Hours between imports, 1 to 168 (default 24)' })
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

@ObjectType({ description: 'Connector health and import status' })
export class ConnectorStatusReport {
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
  lastImportAt!: Date | null;

  @Field(() => ConnectorRunStatus, { nullable: true })
  lastRunStatus!: ConnectorRunStatus | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  lastRunFinishedAt!: Date | null;

  @Field(() => GraphQLDateTime, { nullable: true })
  nextRunAt!: Date | null;

  @Field(() => Int)
  itemsImported!: number;

  @Field(() => Int)
  errorCount!: number;

  @Field(() => Int)
  runs!: number;

  @Field(() => Int)
  failedRuns!: number;
}
