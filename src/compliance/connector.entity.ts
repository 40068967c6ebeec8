import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Actor } from '../actors/actor.types.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import {
  ConnectorCategory,
  ConnectorStatus,
  UnmatchedHandling,
  UserMappingStrategy,
} from './connector.enums.js';
import { DEFAULT_SCHEDULE_HOURS, MAX_SCHEDULE_HOURS, MIN_SCHEDULE_HOURS } from './connector-catalog.js';
import './connector.graphql-enums.js';

@ObjectType({ description: 'A source identity mapped to a tenant user' })
export class UserMappingEntry {
  @Field()
  sourceIdentity!: string;

  @Field()
  userPrincipalName!: string;
}

@ObjectType({ description: 'How source identities map to tenant users' })
export class ConnectorUserMapping {
  @Field(() => UserMappingStrategy)
  strategy!: UserMappingStrategy;

  @Field(() => [UserMappingEntry])
  mappings!: UserMappingEntry[];

  @Field(() => UnmatchedHandling)
  unmatched!: UnmatchedHandling;

  @Field(() => String, { nullable: true })
  fallbackMailbox!: string | null;
}

/**
 * A compliance data connector (SPEC 2.6 "Data connector", 3.3): imports a third-party source into the
 * tenant's compliance archive every `scheduleHours` (connector-import.ts). Its credentials are sealed at rest
 * with the server's secret box and never leave the server; only their field names are shown.
 */
@ObjectType({ description: 'A compliance data connector (SPEC 2.6 "Data connector")' })
@Entity({ tableName: 'compliance_connectors' })
@Index({ name: 'compliance_connectors_due_index', properties: ['status', 'nextRunAt'] })
// A tenant's connectors, newest first (issue #11: the page stops after offset + limit).
@Index({
  name: 'compliance_connectors_list_index',
  properties: ['organizationId', 'environment', 'tenantId', 'createdAt', 'id'],
})
export class ComplianceConnector extends ScopedEntity {
  [OptionalProps]?:
    | 'status'
    | 'configurationError'
    | 'pausedBy'
    | 'consecutiveFailures'
    | 'lastImportAt'
    | 'importedUntil'
    | 'itemsImported'
    | 'errorCount'
    | 'createdAt'
    | 'updatedAt';

  @Field(() => ID)
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'compliance_connectors_tenant_id_index' })
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field()
  @Property()
  name!: string;

  @Field(() => ConnectorCategory)
  @Enum({ items: () => ConnectorCategory })
  category!: ConnectorCategory;

  @Field({ description: 'e.g. Slack, Bloomberg Message, Workday (docs/compliance.md)' })
  @Property()
  sourceType!: string;

  @Field(() => ConnectorUserMapping)
  @Property({ type: 'jsonb' })
  userMapping!: ConnectorUserMapping;

  @Field(() => Int, {
    description: `Hours between imports (${MIN_SCHEDULE_HOURS} to ${MAX_SCHEDULE_HOURS}, default ${DEFAULT_SCHEDULE_HOURS})`,
  })
  @Property({ type: 'integer' })
  scheduleHours!: number;

  /** Sealed JSON of the credential values; never returned. */
  @Property({ type: 'text' })
  credentials!: string;

  @Field(() => [String], { description: 'Names of the stored credential fields (values are never returned)' })
  @Property({ type: 'text[]' })
  credentialFields!: string[];

  @Field(() => ConnectorStatus)
  @Enum({ items: () => ConnectorStatus })
  status: ConnectorStatus = ConnectorStatus.ACTIVE;

  @Field(() => String, { nullable: true, description: 'Paused by failures: the error to fix' })
  @Property({ type: 'text', nullable: true })
  configurationError: string | null = null;

  @Field(() => Actor, { nullable: true, description: 'Who paused it (null when paused by failures)' })
  @Property({ type: 'text', nullable: true })
  pausedBy: string | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  consecutiveFailures: number = 0;

  @Field(() => GraphQLDateTime, { nullable: true, description: 'End of the last successful import' })
  @Property({ type: 'timestamptz', nullable: true })
  lastImportAt: Date | null = null;

  /** The source's items are imported up to here (the next run's window starts here). */
  @Property({ type: 'timestamptz', nullable: true })
  importedUntil: Date | null = null;

  @Field(() => GraphQLDateTime, {
    nullable: true,
    description: 'When the next import runs (null while Paused)',
  })
  @Property({ type: 'timestamptz', nullable: true })
  nextRunAt!: Date | null;

  @Field(() => Int, { description: 'Items imported by every run so far' })
  @Property({ type: 'integer' })
  itemsImported: number = 0;

  @Field(() => Int, { description: 'Items that could not be imported, by every run so far' })
  @Property({ type: 'integer' })
  errorCount: number = 0;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  updatedAt: Date = new Date();
}
