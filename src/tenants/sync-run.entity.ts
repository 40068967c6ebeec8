import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime, GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { JobStatus } from '../core/job-status.js';
import type { Scope } from '../core/scope.js';
import { Tenant } from './tenant.entity.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';
import '../core/job-status.graphql-enums.js';

export { JobStatus };

/** One on-demand or scheduled sync of a tenant from the upstream cloud, run by the job queue. */
@ObjectType({ description: 'A tenant sync job and its progress' })
@Entity({ tableName: 'tenant_syncs' })
@Index({ properties: ['tenantId', 'createdAt'] })
export class TenantSync extends TrackedOperation {
  [OptionalProps]?:
    | 'status'
    | 'progress'
    | 'warnings'
    | 'createdAt'
    | 'startedAt'
    | 'finishedAt'
    | 'error'
    | 'summary'
    | 'runAttempts'
    | 'checkpoint';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Field(() => JobStatus)
  @Enum({ items: () => JobStatus })
  status: JobStatus = JobStatus.QUEUED;

  @Field(() => Int, { description: '0 to 100' })
  @Property({ type: 'integer' })
  progress: number = 0;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'What the sync changed, by kind' })
  @Property({ type: 'jsonb', nullable: true })
  summary: Record<string, number> | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Field(() => [String], {
    description:
      'What the sync left out rather than fail, readable (e.g. upstream users skipped because their user principal name is held by another user; counted in summary.usersSkipped)',
  })
  @Property({ type: 'text[]' })
  warnings: string[] = [];

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Field(() => GraphQLDateTime, { nullable: true })
  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  constructor(scope: Scope, tenantId: string, createdAt: Date) {
    super();
    this.assignScope(scope);
    this.tenantId = tenantId;
    this.createdAt = createdAt;
  }
}
