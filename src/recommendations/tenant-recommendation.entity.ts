import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { RecommendationStatus } from './recommendation.enums.js';

/**
 * One recommendation in one tenant: whether the tenant meets the control (from the cloud, by sync and by
 * apply) and the tenant's status (SPEC 3.3). A compliant tenant is not "affected" whatever its status.
 */
@Entity({ tableName: 'tenant_recommendations' })
@Unique({ name: 'tenant_recommendations_tenant_unique', properties: ['tenantId', 'recommendationId'] })
@Index({ name: 'tenant_recommendations_snoozed_index', properties: ['status', 'snoozedUntil'] })
export class TenantRecommendation extends ScopedEntity {
  [OptionalProps]?: 'status' | 'snoozedUntil' | 'dismissReason' | 'statusChangedBy' | 'statusChangedAt';

  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  recommendationId!: string;

  @Property()
  compliant!: boolean;

  @Property()
  applySupported!: boolean;

  @Enum({ items: () => RecommendationStatus })
  status: RecommendationStatus = RecommendationStatus.OPEN;

  @Property({ type: 'timestamptz', nullable: true })
  snoozedUntil: Date | null = null;

  @Property({ type: 'text', nullable: true })
  dismissReason: string | null = null;

  @Property({ type: 'text', nullable: true })
  statusChangedBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  statusChangedAt: Date | null = null;

  @Property({ type: 'timestamptz' })
  updatedAt!: Date;

  constructor(
    scope: Scope,
    fields: {
      tenantId: string;
      recommendationId: string;
      compliant: boolean;
      applySupported: boolean;
      updatedAt: Date;
    },
  ) {
    super();
    this.assignScope(scope);
    Object.assign(this, fields);
  }
}

/** The audit trail of status moves (SPEC 3.3 "tracked separately for audit"): who, when, from, to, why. */
@Entity({ tableName: 'recommendation_status_changes' })
@Index({ properties: ['tenantId', 'recommendationId', 'changedAt'] })
export class RecommendationStatusChange extends ScopedEntity {
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  recommendationId!: string;

  @Enum({ items: () => RecommendationStatus })
  fromStatus!: RecommendationStatus;

  @Enum({ items: () => RecommendationStatus })
  toStatus!: RecommendationStatus;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'integer', nullable: true })
  snoozeDays: number | null = null;

  @Property({ type: 'text' })
  changedBy!: string;

  @Property({ type: 'timestamptz' })
  changedAt!: Date;
}
