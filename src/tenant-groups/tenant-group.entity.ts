import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/decorators/legacy';
import { ScopedEntity, type Scope } from '../core/scope.js';
import { Tenant } from '../tenants/tenant.entity.js';

/**
 * A named set of the organization's tenants (issue #11 item 4, docs/tenant-groups.md), used as a filter on
 * portal views, the tenants list, recommendations and user search. Names are unique per organization and
 * environment, case-insensitively. A tenant may be in several groups; deleting a group deletes its member
 * rows only, never a tenant.
 */
@Entity({ tableName: 'tenant_groups' })
@Index({
  name: 'tenant_groups_name_unique',
  expression:
    'create unique index "tenant_groups_name_unique" on "tenant_groups" ("organization_id", "environment", lower("name"))',
})
@Index({ properties: ['organizationId', 'environment', 'createdAt', 'id'] })
export class TenantGroup extends ScopedEntity {
  [OptionalProps]?: 'description' | 'createdAt' | 'updatedAt';

  @Property({ length: 100 })
  name!: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property()
  createdAt: Date = new Date();

  @Property()
  updatedAt: Date = new Date();

  constructor(scope: Scope, values: { name: string; description: string | null; at: Date }) {
    super();
    this.assignScope(scope);
    this.name = values.name;
    this.description = values.description;
    this.createdAt = values.at;
    this.updatedAt = values.at;
  }
}

/** One tenant in one group; both foreign keys cascade, so deleting a group or a tenant drops the row. */
@Entity({ tableName: 'tenant_group_members' })
@Unique({ properties: ['groupId', 'tenantId'] })
@Index({ properties: ['tenantId'] })
export class TenantGroupMember extends ScopedEntity {
  [OptionalProps]?: 'addedAt';

  @ManyToOne(() => TenantGroup, { mapToPk: true, fieldName: 'group_id', deleteRule: 'cascade' })
  groupId!: string;

  @ManyToOne(() => Tenant, { mapToPk: true, fieldName: 'tenant_id', deleteRule: 'cascade' })
  tenantId!: string;

  @Property()
  addedAt: Date = new Date();
}
