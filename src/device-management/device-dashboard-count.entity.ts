import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * How many devices of a tenant have one platform, ownership and compliance state: what the summary, compliance
 * and platform dashboards add up instead of counting every device on each read (docs/devices.md "Dashboards";
 * issue #15: p50 ≤ 50 ms over 500,000 devices). Written only by statement-level triggers on `devices`
 * (migration Migration20261217090000_device_dashboard_counts), from the statement's transition tables, so
 * every writer of devices keeps it exact; rows that fall to zero are deleted. Read with raw SQL.
 */
@Entity({ tableName: 'device_dashboard_counts' })
@Unique({
  name: 'device_dashboard_counts_key',
  properties: ['organizationId', 'environment', 'tenantId', 'osPlatform', 'ownership', 'complianceState'],
})
@Index({ properties: ['tenantId'] })
export class DeviceDashboardCount {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ type: 'uuid' })
  tenantId!: string;

  @Property({ type: 'text' })
  osPlatform!: string;

  @Property({ type: 'text' })
  ownership!: string;

  @Property({ type: 'text' })
  complianceState!: string;

  @Property({ type: 'integer' })
  devices!: number;
}
