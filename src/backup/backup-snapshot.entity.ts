import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { GraphQLDateTime } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';
import { User } from '../users/user.entity.js';
import { BackupWorkload } from './backup.enums.js';
import { BACKUP_RETENTION_DAYS } from './backup.settings.js';
import './backup.graphql-enums.js';

/**
 * A point-in-time backup of one protected mailbox, drive, site or team (SPEC 2.6 "Backup snapshot"): our
 * catalog copy of the cloud backup service's snapshots, refreshed by the backup catalog job
 * (backup-catalog.ts); rows past the retention window are removed by it.
 */
@ObjectType({ description: 'A point-in-time snapshot selectable for a restore (SPEC 2.6 "Backup snapshot")' })
@Entity({ tableName: 'backup_snapshots' })
@Unique({
  name: 'backup_snapshots_external_id_unique',
  properties: ['organizationId', 'environment', 'tenantId', 'externalId'],
})
@Index({
  name: 'backup_snapshots_taken_at_index',
  properties: ['organizationId', 'environment', 'tenantId', 'takenAt', 'id'],
})
// One resource's snapshots newest first (the list's resourceId filter, O(limit) however many other resources the
// tenant has) and each resource's newest (the portal's backup-age recount, index-only; docs/tenant-health.md).
@Index({
  name: 'backup_snapshots_resource_index',
  properties: ['organizationId', 'environment', 'tenantId', 'resourceId', 'takenAt', 'id'],
})
export class BackupSnapshot extends ScopedEntity {
  [OptionalProps]?: 'userId' | 'createdAt';

  @Field(() => ID)
  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  /** The snapshot's id in the cloud's backup service. */
  @Property()
  externalId!: string;

  @Field(() => BackupWorkload)
  @Enum({ items: () => BackupWorkload })
  workload!: BackupWorkload;

  @Field({ description: "The protected resource's id in the cloud (the `resourceId` filter)" })
  @Property()
  resourceId!: string;

  @Field({ description: 'Mailbox or drive owner UPN, /sites/<name> or /teams/<name>' })
  @Property()
  resourceName!: string;

  @Field(() => ID, { nullable: true, description: 'Mailbox and drive: our user who owns it' })
  /** The lookup of this foreign key's ON DELETE rule (test/schema/foreign-key-indexes.test.ts). */
  @Index({ name: 'backup_snapshots_user_id_index' })
  @ManyToOne(() => User, { mapToPk: true, fieldName: 'user_id', nullable: true, deleteRule: 'set null' })
  userId: string | null = null;

  @Field(() => GraphQLDateTime)
  @Property({ type: 'timestamptz' })
  takenAt!: Date;

  @Field(() => GraphQLDateTime, {
    description: `When it leaves the retention window (${BACKUP_RETENTION_DAYS} days after takenAt)`,
  })
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Field(() => Int, {
    nullable: true,
    description:
      'Messages, files or posts it holds; null when the backup service does not say (Microsoft 365 Backup)',
  })
  @Property({ type: 'integer', nullable: true })
  itemCount: number | null = null;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  constructor(scope: Scope) {
    super();
    this.assignScope(scope);
  }
}
