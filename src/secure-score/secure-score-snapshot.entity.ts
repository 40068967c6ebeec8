import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { SecureScoreSource } from './secure-score.enums.js';

/**
 * A tenant's secure score on one day (UTC): recorded by the daily secure-score-snapshot job (our computed
 * score), or copied from Microsoft's daily history by the tenant sync (Microsoft's points, decimals).
 */
@Entity({ tableName: 'secure_score_snapshots' })
@Unique({ name: 'secure_score_snapshots_day_unique', properties: ['tenantId', 'day'] })
export class SecureScoreSnapshot extends ScopedEntity {
  [OptionalProps]?: 'source';

  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** YYYY-MM-DD (UTC). */
  @Property({ type: 'date' })
  day!: string;

  @Property({ type: 'double' })
  score!: number;

  @Property({ type: 'double' })
  maxScore!: number;

  /** Whose scale the day is on: a tenant's history shows only the days of its current source. */
  @Enum({ items: () => SecureScoreSource, default: SecureScoreSource.RECOMMENDATIONS })
  source: SecureScoreSource = SecureScoreSource.RECOMMENDATIONS;

  @Property({ type: 'timestamptz' })
  recordedAt!: Date;
}
