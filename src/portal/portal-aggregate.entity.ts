import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, OneToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { Environment, ScopedEntity } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';

/**
 * The stored per-tenant figures the portal reads instead of aggregating every user and assignment on each
 * request (issue #11 item 3, docs/portal.md "Aggregates"), and what tenant health needs beyond sync times
 * (docs/tenant-health.md). Written only by PortalAggregates (raw SQL, one
 * upsert per batch of tenants); a tenant without a row has nothing to aggregate yet.
 */
@Entity({ tableName: 'portal_tenant_aggregates' })
@Index({ properties: ['organizationId', 'environment'] })
export class PortalTenantAggregate extends ScopedEntity {
  [OptionalProps]?:
    | 'secureScorePercent'
    | 'inactiveLicensedUsers'
    | 'inactiveBySku'
    | 'nextCrossingAt'
    | 'openHighAlerts'
    | 'devices'
    | 'nonCompliantDevices'
    | 'oldestLatestBackupAt';

  @OneToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade', owner: true })
  tenantId!: string;

  /** computeSecureScore's percentage; null while the tenant has no recommendation states. */
  @Property({ type: 'double', nullable: true })
  secureScorePercent: number | null = null;

  /** Open (New or In Progress) High-severity security alerts: a health signal (docs/tenant-health.md). */
  @Property()
  openHighAlerts: number = 0;

  /** The tenant's devices, and those Non-Compliant among them: a health signal (docs/tenant-health.md). */
  @Property()
  devices: number = 0;

  @Property()
  nonCompliantDevices: number = 0;

  /**
   * The oldest of the protected resources' newest backup snapshots (the resource whose backups fail longest);
   * null without any snapshot in the catalog. Health compares it with the clock at read time, so time passing
   * changes no stored figure.
   */
  @Property({ type: 'timestamptz', nullable: true })
  oldestLatestBackupAt: Date | null = null;

  /** Distinct users holding at least one inactive assignment of a SKU the tenant holds. */
  @Property()
  inactiveLicensedUsers: number = 0;

  /** Inactive assignments by SKU id: { "<skuId>": count }. */
  @Property({ type: 'jsonb' })
  inactiveBySku: Record<string, number> = {};

  /**
   * The clock time the figures are known to be exact at (REST meta.dataAsOf, GraphQL dataAsOf): their recount,
   * or a later run of the scheduled job that found no mark and no crossing due.
   */
  @Property()
  refreshedAt!: Date;

  /**
   * When the first user counted active at the recount reaches 30 days without a sign-in (and a figure changes
   * with no write); null when no licensed user is active. The scheduled job recounts the tenant from then on.
   */
  @Property({ type: 'timestamptz', nullable: true })
  nextCrossingAt: Date | null = null;
}

/**
 * "This tenant changed since its aggregates were computed": one row per changing statement, written by
 * statement-level triggers on users, license_assignments, tenant_licenses and tenant_recommendations (so
 * every writer marks, ours or a future one). Rows are never updated, so writers never wait on each other; a
 * refresh deletes the rows it saw and recounts those tenants in the same transaction (docs/portal.md).
 */
@Entity({ tableName: 'portal_dirty_tenants' })
@Index({ properties: ['organizationId', 'environment'] })
export class PortalDirtyTenant {
  [OptionalProps]?: 'markedAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  tenantId!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Property({ type: 'text' })
  environment!: string;

  @Property({ defaultRaw: 'now()' })
  markedAt!: Date;
}

/**
 * Per tenant, SKU (null: users holding one of the tenant's SKUs) and UTC day of last activity (last sign-in,
 * else creation; days since 1970-01-01) and disabled flag: how many assignments (users) of non-deleted users are
 * there. Only ever inserted, as deltas, by triggers on users, license_assignments and tenant_licenses in the
 * writer's transaction (Migration20270127154500_portal_activity_counts); a figure is the sum of its rows, and
 * the five-minute job folds a key's rows into one. The recount reads these instead of every user (docs/portal.md).
 */
@Entity({ tableName: 'portal_activity_counts' })
@Index({
  name: 'portal_activity_counts_key_index',
  expression:
    'create index "portal_activity_counts_key_index" on "portal_activity_counts" ("tenant_id", "day", "sku_id", "disabled") include ("n")',
})
export class PortalActivityCount {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'uuid' })
  organizationId!: string;

  @Enum({ items: () => Environment })
  environment!: Environment;

  /** No foreign key: a trigger on tenants deletes a tenant's rows after the cascade's own triggers added theirs. */
  @Property({ type: 'uuid' })
  tenantId!: string;

  @Property({ type: 'uuid', nullable: true })
  skuId!: string | null;

  @Property({ type: 'int' })
  day!: number;

  @Property()
  disabled!: boolean;

  @Property({ type: 'int' })
  n!: number;
}
