import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { ApplyOperationStatus, ApplyOutcome } from './recommendation.enums.js';
import { TrackedOperation } from '../core/tracked-operation.entity.js';

/**
 * One "apply a recommendation to these tenants" request, carried out by the recommendation-apply job; a dry
 * run is one too (its job only asks the cloud what would change, so no request waits on the cloud per tenant).
 */
@Entity({ tableName: 'recommendation_apply_operations' })
@Index({ properties: ['organizationId', 'environment', 'idempotencyKey', 'createdAt'] })
export class RecommendationApplyOperation extends TrackedOperation {
  [OptionalProps]?:
    'status' | 'progress' | 'startedAt' | 'finishedAt' | 'failureReason' | 'runAttempts' | 'checkpoint';

  @Property()
  recommendationId!: string;

  @Enum({ items: () => ApplyOperationStatus })
  status: ApplyOperationStatus = ApplyOperationStatus.QUEUED;

  /** 0..100: the share of tenants done. */
  @Property({ type: 'integer' })
  progress: number = 0;

  @Property()
  notifyAdmins!: boolean;

  /** A preview: the job records what would change and changes nothing (no cloud write, state or event). */
  @Property({ default: false })
  dryRun!: boolean;

  @Property({ type: 'text', nullable: true })
  idempotencyKey!: string | null;

  /** Hash of the request body, to tell a replay (same key, same body) from a misuse (same key, other body). */
  @Property({ type: 'text', nullable: true })
  requestHash!: string | null;

  @Property({ type: 'text' })
  requestedBy!: string;

  @Property({ type: 'timestamptz' })
  createdAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  startedAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  failureReason: string | null = null;
}

/** One tenant of an apply operation: pending until the job has done it (so a retried job skips it). */
@Entity({ tableName: 'recommendation_apply_results' })
@Unique({ properties: ['operationId', 'tenantId'] })
export class RecommendationApplyResult extends ScopedEntity {
  [OptionalProps]?: 'outcome' | 'reason' | 'finishedAt' | 'cloudWaitMs';

  @ManyToOne(() => RecommendationApplyOperation, {
    mapToPk: true,
    fieldName: 'operation_id',
    deleteRule: 'cascade',
  })
  operationId!: string;

  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Enum({ items: () => ApplyOutcome })
  outcome: ApplyOutcome = ApplyOutcome.PENDING;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null = null;

  /** How long the tenant's cloud calls waited for its call budget (src/cloud/cloud-call-budget.ts). */
  @Property({ type: 'integer', default: 0 })
  cloudWaitMs: number = 0;
}
