import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';

/** A tenant's secure score on one day (UTC), recorded by the daily secure-score-snapshot job. */
@Entity({ tableName: 'secure_score_snapshots' })
@Unique({ name: 'secure_score_snapshots_day_unique', properties: ['tenantId', 'day'] })
export class SecureScoreSnapshot extends ScopedEntity {
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** YYYY-MM-DD (UTC). */
  @Property({ type: 'date' })
  day!: string;

  @Property({ type: 'integer' })
  score!: number;

  @Property({ type: 'integer' })
  maxScore!: number;

  @Property({ type: 'timestamptz' })
  recordedAt!: Date;
}
