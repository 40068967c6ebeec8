import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * How many devices of a tenant carry one recommendation code in `open_recommendations`: what the device security
 * recommendations read instead of unnesting every device of the tenant on each request (docs/devices.md
 * "Recommendations"; issue #11). Written only by statement-level triggers on `devices` (migration
 * Migration20261228090000_device_recommendation_counts), from the statement's transition tables, so every writer
 * of devices keeps it exact; rows that fall to zero are deleted. Read with raw SQL.
 */
@Entity({ tableName: 'device_recommendation_counts' })
@Unique({
  name: 'device_recommendation_counts_key',
  properties: ['organizationId', 'environment', 'tenantId', 'code'],
})
export class DeviceRecommendationCount {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'uuid' })
  tenantId!: string;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'integer' })
  devices!: number;
}
