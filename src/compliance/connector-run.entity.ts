import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ConnectorRunStatus } from './connector.enums.js';
import { ComplianceConnector } from './connector.entity.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';
import './connector.graphql-enums.js';

/** One import of a connector (its history, SPEC 4.2 GET .../:id/history): when, how much, what went wrong. */
@ObjectType({ description: 'One import run of a connector' })
@Entity({ tableName: 'compliance_connector_runs' })
@Index({ name: 'compliance_connector_runs_history_index', properties: ['connectorId', 'scheduledFor'] })
export class ConnectorRun extends TrackedOperation {
  [OptionalProps]?:
    | 'status'
    | 'startedAt'
    | 'finishedAt'
    | 'durationMs'
    | 'itemsImported'
    | 'errorCount'
    | 'errors'
    | 'failureReason'
    | 'runAttempts'
    | 'checkpoint';

  @Field(() => ID)
  @ManyToOne(() => ComplianceConnector, { mapToPk: true, fieldName: 'connector_id', deleteRule: 'cascade' })
  connectorId!: string;

  @Field(() => GraphQLDateTime, { description: 'The schedule slot this run serves' })
  @Property({ type: 'timestamptz' })
  scheduledFor!: Date;

  @Field(() => ConnectorRunStatus)
  @Enum({ items: () => ConnectorRunStatus })
  status: ConnectorRunStatus = ConnectorRunStatus.QUEUED;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  durationMs: number | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  itemsImported: number = 0;

  @Field(() => Int, { description: 'Items that could not be imported (`errors` says why)' })
  @Property({ type: 'integer' })
  errorCount: number = 0;

  @Field(() => [String], {
    description: 'Why items could not be imported, one message per cause (each may cover many items)',
  })
  @Property({ type: 'text[]' })
  errors: string[] = [];

  @Field(() => String, { nullable: true, description: 'Failed: why the run could not import' })
  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;
}
