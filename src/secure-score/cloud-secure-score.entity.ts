import { Entity, ManyToOne, Property } from '@mikro-orm/decorators/legacy';
import type { CloudSecureScores } from '../cloud/security-posture.provider.js';
import { ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';

/**
 * The cloud's own secure score of a tenant as its last sync read it (Microsoft Secure Score): its row is the
 * mark that the tenant's score is Microsoft's (source microsoft365); a tenant without one has our computed
 * score. The tenant sync writes it, or removes it when the tenant's cloud keeps no score.
 */
@Entity({ tableName: 'cloud_secure_scores' })
export class CloudSecureScore extends ScopedEntity {
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade', unique: true })
  tenantId!: string;

  /** The newest day the cloud computed (YYYY-MM-DD, UTC); null before its first score. */
  @Property({ type: 'date', nullable: true })
  day!: string | null;

  @Property({ type: 'double' })
  score!: number;

  @Property({ type: 'double' })
  maxScore!: number;

  @Property({ type: 'jsonb' })
  byCategory!: CloudSecureScores['byCategory'];

  @Property({ type: 'jsonb' })
  averages!: CloudSecureScores['averages'];

  @Property({ type: 'timestamptz' })
  readAt!: Date;
}
